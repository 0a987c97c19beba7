// Factories of the strategies, one per strategy file; strategy_registry.cpp
// lists them by name.
#pragma once

#include "nettopo/balance.hpp"

#include <memory>

namespace nettopo {} // namespace nettopo
