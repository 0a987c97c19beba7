// Factories of the strategies, one per strategy file; strategy_registry.cpp
// lists them by name.
#pragma once

#include "nettopo/balance/balance.hpp"

#include <memory>

namespace nettopo {

// Centralised (greedy.cpp, refine_charm.cpp, refine.cpp, average.cpp, smart.cpp,
// topo_greedy.cpp, topo_refine.cpp).
std::unique_ptr<Strategy> make_greedy(const StrategyOptions& options);
std::unique_ptr<Strategy> make_refine_charm(const StrategyOptions& options); // refine_charm.cpp
std::unique_ptr<Strategy> make_refine_heap(const StrategyOptions& options);  // refine.cpp
std::unique_ptr<Strategy> make_average(const StrategyOptions& options);
std::unique_ptr<Strategy> make_smart(const StrategyOptions& options);
std::unique_ptr<Strategy> make_smart_code(const StrategyOptions& options); // smart_code.cpp
std::unique_ptr<Strategy> make_topo_greedy(const StrategyOptions& options);
std::unique_ptr<Strategy> make_topo_refine(const StrategyOptions& options);

// Distributed strategies, run as message protocols (protocol.hpp).
std::unique_ptr<Strategy> make_grapevine(const StrategyOptions& options);
std::unique_ptr<Strategy> make_grapevine_68(const StrategyOptions& options);
std::unique_ptr<Strategy> make_packdrop(const StrategyOptions& options);
std::unique_ptr<Strategy> make_packdrop_sbac(const StrategyOptions& options); // packdrop_sbac.cpp
std::unique_ptr<Strategy> make_neighbor(const StrategyOptions& options);
std::unique_ptr<Strategy> make_neighbor_charm(const StrategyOptions& options);

} // namespace nettopo
