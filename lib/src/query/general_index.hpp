// The general distance index: any cluster, over its network with degree-1
// machines folded onto their neighbour (folded_core.hpp), as a dense table
// (dense_table.hpp), pruned landmark labels (pruned_labels.hpp) or a cache
// of rows (row_cache.hpp). Every kind answers exactly what NetworkSearch
// answers.
//
// Auto takes the dense table when it fits options.memory_budget_bytes, else
// the dense table of the core's terminals alone (terminal_table.hpp) when the
// core has one latency and it fits, else the labels when they fit (their construction stops as soon
// as they would not), else the row cache: no O(m^2) memory the budget did not allow. A forced kind
// that does not fit the budget throws UsageError saying how much it needs. ClosedForm is not built
// here.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_index.hpp"
#include "query/folded_core.hpp"

#include <memory>

namespace nettopo {

std::unique_ptr<DistanceIndex> make_general_index(const Cluster& cluster,
                                                  const DistanceIndexOptions& options);
// The same over the cluster's network already folded (fold_network), for a
// caller that looked at the core first.
std::unique_ptr<DistanceIndex> make_general_index(detail::FoldedCore folded,
                                                  const DistanceIndexOptions& options);

// About how many searches of the folded core building the general index
// within `budget` bytes costs, for the tools' rule (index_choice.hpp): one
// per core vertex (the full table's fill; labels and rows cost less), or one
// per 64 terminals when the full table cannot fit and the terminal table
// will be built (its searches go 256 sources at a time, four words a vertex:
// about one search's work per 64 sources on the 10^6-machine fat-tree).
double general_index_build_searches(const detail::FoldedCore& f, std::size_t budget);

} // namespace nettopo
