// Pair queries in bulk, behind the module's NumPy methods (distances,
// hop_counts, proximities). Pairs are n rows of two PE ids, row-major, as
// int64 or uint64 (the types NumPy integer arrays are widened to). Every id
// is checked before any answer is written: the first bad one throws IdError
// naming its row ("pairs[17, 1]: PE 4096 does not exist: ..."). Remote pairs
// are answered through the distance index (machine to machine), pairs inside
// one machine by the machine's latencies, as QueryEngine answers them one at
// a time. No Python here: the module calls these with the GIL released.
// Cost: O(n) plus n lookups in the index.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_index.hpp"

#include <cstdint>
#include <span>

namespace nettopo::python {

// Throws IdError for the first id that is not a PE of the cluster.
template <class Id> void check_pairs(const Cluster& cluster, std::span<const Id> pairs);

// Latency in ns; NaN when the machines are not connected.
template <class Id>
void distances_ns(const Cluster& cluster, const DistanceIndex& index, std::span<const Id> pairs,
                  std::span<double> out);
// Fewest links between the PEs' machines (0 inside one); -1 when unreachable.
template <class Id>
void hop_counts(const Cluster& cluster, const DistanceIndex& index, std::span<const Id> pairs,
                std::span<std::int64_t> out);
// The thesis' levels: 3 same PE, 2 same node, 1 same machine, 0 other machines.
template <class Id>
void proximities(const Cluster& cluster, std::span<const Id> pairs, std::span<std::int8_t> out);

} // namespace nettopo::python
