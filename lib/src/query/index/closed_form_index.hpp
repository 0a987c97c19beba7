// The closed-form distance index: hop counts and latencies between machines
// of a generated cluster from its family's formulas (family.hpp), in O(1) or
// O(levels, stages, global links per router) per pair and no per-pair memory.
//
// The cluster's family record is only a record: before answering, the index
// rebuilds the family from it and checks that the network is exactly the
// family's (same counts, every emitted link present, one latency per link
// class, learned from the network). A hand-edited archive fails that check
// and gets no closed form. Its slow, obvious twin is NetworkSearch: the
// tests compare the two on every pair of small instances.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_index.hpp"
#include "nettopo/support/detail/array_file.hpp"

#include <functional>
#include <memory>

namespace nettopo {

// nullptr when the cluster carries no family, or when its network is no
// longer the family's. `general` builds the index that answers latencies
// where no formula is exact for the learned class latencies (the dragonfly
// with local != global); it is called then, once, before this returns (and
// may throw; a null result is a UsageError). The index keeps no reference to
// the cluster, only its family, class latencies and that general index.
std::unique_ptr<DistanceIndex>
make_closed_form_index(const Cluster& cluster,
                       const std::function<std::unique_ptr<DistanceIndex>()>& general);

// A closed form kept by its write_kept (kept_index.hpp); `read_general`
// reads its general helper when it has one.
std::unique_ptr<DistanceIndex> read_closed_form_index(
    const Cluster& cluster, ArrayReader& in,
    const std::function<std::unique_ptr<DistanceIndex>(ArrayReader&)>& read_general);

// Writes the kind of `index` and its write_kept (kept_index.cpp): how a
// closed form writes its general helper.
void write_kept_index_body(const DistanceIndex& index, ArrayWriter& out);

} // namespace nettopo
