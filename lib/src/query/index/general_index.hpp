// The general distance index: any cluster, over its network with degree-1
// machines folded onto their neighbour (folded_core.hpp), as a dense table
// (dense_table.hpp), a table of the core's terminals (terminal_table.hpp),
// pruned landmark labels (pruned_labels.hpp) or a cache of rows
// (row_cache.hpp). Every kind answers exactly what NetworkSearch answers.
//
// Auto takes the dense table when it fits the memory budget, else the table
// of the core's terminals when the core has one latency and it fits, else
// the labels when they fit (their construction stops as soon as they would
// not), else the row cache: no O(m^2) memory the budget did not allow. A
// forced kind that does not fit throws UsageError saying how much it needs.
// plan_distances (distance_plan.hpp) is the only caller outside tests.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "query/index/folded_core.hpp"

#include <cstddef>
#include <memory>
#include <optional>

namespace nettopo::detail {

struct GeneralPlan {
    DistanceIndexKind kind =
        DistanceIndexKind::RowCache;  // DenseTable, TerminalTable, Labels, RowCache
    std::size_t memory_bytes = 0;     // estimated
    double core_searches = 0;         // build cost, in searches of the folded core
    std::optional<CoreBounds> bounds; // the dense table's, once settled
};

// The kind `forced` (Auto: the first that fits `budget`) from the sizes of
// the core alone: cheap (no search), a dense table is assumed at its
// narrowest until settled. UsageError when a forced kind cannot fit.
GeneralPlan plan_general_index(const FoldedCore& f, DistanceIndexKind forced, std::size_t budget);
// Makes a dense-table plan exact (the core's bounds: a search and a Dijkstra
// of the core), moving on to the next kind when the table does not fit.
void settle_general_plan(const FoldedCore& f, DistanceIndexKind forced, std::size_t budget,
                         GeneralPlan& plan);
// Builds what a settled plan says, falling back along the order above when
// the terminal table runs out of codes or the labels exceed the budget.
std::unique_ptr<DistanceIndex> build_general_index(FoldedCore f, const GeneralPlan& plan,
                                                   const DistancePolicy& policy);

// Plans, settles and builds: the closed form's helper, and tests.
std::unique_ptr<DistanceIndex> make_general_index(const Cluster& cluster,
                                                  const DistancePolicy& policy);

} // namespace nettopo::detail
