// The checks every placement makes of the allocation it is given
// (distribute, distribute_gpus): one rule and one message each.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <span>
#include <string_view>

namespace nettopo::detail {

// Throws UsageError for an empty allocation ("no machine to place WHAT on"),
// a machine id out of range or a machine given twice. O(allocation +
// cluster machines).
void check_allocation(const Cluster& cluster, std::span<const MachineId> allocation,
                      std::string_view what);

} // namespace nettopo::detail
