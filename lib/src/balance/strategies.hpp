// Factories of the strategies, one per strategy file; strategy_registry.cpp
// lists them by name.
#pragma once

#include "nettopo/balance.hpp"

#include <memory>

namespace nettopo {

// Distributed strategies, run as message protocols (protocol.hpp).
std::unique_ptr<Strategy> make_grapevine(const StrategyOptions& options);
std::unique_ptr<Strategy> make_packdrop(const StrategyOptions& options);
std::unique_ptr<Strategy> make_neighbor(const StrategyOptions& options);

} // namespace nettopo
