// Pruned landmark labelling of the folded core: exact hop counts and
// latencies from two short sorted lists per query.
//
// Akiba, Iwata, Yoshida, "Fast exact shortest-path distance queries on large
// networks by pruned landmark labeling", SIGMOD 2013. Vertices are taken in
// order of decreasing degree; from each, a BFS (hops) or Dijkstra (latency)
// labels every vertex it reaches with (hub, distance), except where the
// labels already built give a distance at least as short: there the search
// is pruned. d(u, v) = min over common hubs h of d(u, h) + d(h, v), a merge
// of two lists sorted by hub rank. Labels are stored flat (offsets + hub
// ranks + distances). When every core link has one latency, latency = hops x
// it and only hop labels are built.
#pragma once

#include "nettopo/model/progress.hpp"
#include "nettopo/query/distance_index.hpp"
#include "query/index/folded_core.hpp"

#include <cstddef>
#include <memory>

namespace nettopo::detail {

struct LabelsOutcome {
    std::unique_ptr<DistanceIndex> index; // null when the budget was exceeded
    std::size_t bytes = 0;                // held, or reached when construction stopped
    std::uint32_t roots_done = 0;         // roots searched before stopping
};

// Builds the labels; stops as soon as they would exceed `budget_bytes`
// (leaving `f` untouched), else moves from `f`.
LabelsOutcome make_labels(FoldedCore& f, std::size_t budget_bytes, Progress* progress);

// Labels kept by their write_kept (kept_index.hpp), after their core.
std::unique_ptr<DistanceIndex> read_labels(KeptCore core, ArrayReader& in);

} // namespace nettopo::detail
