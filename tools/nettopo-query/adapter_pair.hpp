// hops, distance and path between an adapter or a GPU ("dgx01:mlx5_3",
// "dgx01:gpu2") and another end (an adapter, a GPU or a PE), at the adapter
// level (nettopo/query/adapter_distance.hpp).
#pragma once

#include "nettopo-query/query_run.hpp"

namespace nettopo {

enum class AdapterQuestion { hops, distance, path };

// When one of the two positional ends names an adapter or a GPU, answers
// `question` for the pair and returns true; false otherwise (two PEs, or
// --pairs), leaving the question to the PE-level commands.
bool run_adapter_pair(Run& r, AdapterQuestion question);

} // namespace nettopo
