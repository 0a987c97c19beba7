// Charm++ 6.8's RefineLB (refine_charm.cpp), reachable by the tests with
// Refiner's own exhaustive scan forced, to check the fast path against it.
#pragma once

#include "nettopo/balance/balance.hpp"

#include <vector>

namespace nettopo::balance {

// The new mapping. exhaustive: scan every (light PE, task) pair as
// Refiner.C does, even when all speeds are equal.
std::vector<PeId> charm_refine(const BalanceInput& in, const StrategyOptions& options,
                               bool exhaustive);

} // namespace nettopo::balance
