#include "query/view/allocation_check.hpp"

#include "nettopo/support/error.hpp"

#include <fmt/format.h>
#include <vector>

namespace nettopo::detail {

void check_allocation(const Cluster& cluster, std::span<const MachineId> allocation,
                      std::string_view what) {
    if (allocation.empty()) throw UsageError(fmt::format("no machine to place {} on", what));
    std::vector<bool> seen(cluster.num_machines(), false);
    for (const MachineId m : allocation) {
        if (m.value >= cluster.num_machines())
            throw UsageError(fmt::format("machine id {} out of range: the cluster has {} machines",
                                         m.value, cluster.num_machines()));
        if (seen[m.value])
            throw UsageError(fmt::format("machine {} is given twice in the allocation",
                                         cluster.machine_name(m)));
        seen[m.value] = true;
    }
}

} // namespace nettopo::detail
