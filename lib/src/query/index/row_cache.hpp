// Row cache: single-source rows of the folded core (hops by BFS, latency by
// Dijkstra) computed when a query needs them and kept while they fit the
// memory budget, evicting by the clock (second chance) algorithm.
//
// The index of last resort: memory O(core) per row kept, a search per miss.
// A query looks for a cached row of either endpoint's anchor before
// searching. Queries are const and thread-safe: one mutex guards the cache
// and the search state, held for the whole query (a miss searches under it).
#pragma once

#include "nettopo/model/progress.hpp"
#include "nettopo/query/distance_index.hpp"
#include "query/index/folded_core.hpp"

#include <cstddef>
#include <memory>

namespace nettopo::detail {

// Bytes the cache needs to hold at least one row (graph, search state, one row).
std::size_t row_cache_min_bytes(const FoldedCore& f);
// Bytes of each further row.
std::size_t row_cache_row_bytes(const FoldedCore& f);

std::unique_ptr<DistanceIndex> make_row_cache(FoldedCore f, std::size_t budget_bytes);

} // namespace nettopo::detail
