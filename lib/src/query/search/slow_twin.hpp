// The one slow twin every distance index is held to. make_searched_distances:
// no index, every question is a NetworkSearch of the whole network (BFS for
// hops, Dijkstra for latencies) behind the DistanceIndex interface, for
// callers that take an index but are asked to search (plan kind Search).
// check_distance_index (distance_index.hpp), the verifier, is beside it in
// slow_twin.cpp. The searches resume when asked
// again from the same machine (network_search.hpp): a row of questions from
// one source costs one search. Queries are const and thread-safe: one mutex
// guards the search state, held for the whole query.
#pragma once

#include "nettopo/query/distance_index.hpp"

#include <memory>

namespace nettopo::detail {

std::unique_ptr<DistanceIndex> make_searched_distances(const Cluster& cluster);

} // namespace nettopo::detail
