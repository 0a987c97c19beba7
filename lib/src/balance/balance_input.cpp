#include "nettopo/balance/balance.hpp"
#include "nettopo/support/error.hpp"

#include <cmath>
#include <fmt/format.h>

namespace nettopo {

std::vector<double> pe_loads(const BalanceInput& in, std::span<const PeId> mapping) {
    const std::uint32_t num_pes = in.comm_model.cluster().num_pes();
    std::vector<double> load(num_pes, 0.0);
    for (std::size_t t = 0; t < mapping.size(); ++t) load[mapping[t].value] += in.task_loads[t];
    if (!in.pe_speeds.empty())
        for (std::uint32_t p = 0; p < num_pes; ++p) load[p] /= in.pe_speeds[p];
    return load;
}

void check_balance_input(const BalanceInput& in) {
    const std::uint32_t num_pes = in.comm_model.cluster().num_pes();
    const std::size_t n = in.task_loads.size();
    if (in.mapping.size() != n)
        throw UsageError(
            fmt::format("the mapping has {} tasks but the loads {}", in.mapping.size(), n));
    if (in.task_graph.num_tasks() != n)
        throw UsageError(fmt::format("the communication graph has {} tasks but the loads {}",
                                     in.task_graph.num_tasks(), n));
    if (!in.pe_speeds.empty() && in.pe_speeds.size() != num_pes)
        throw UsageError(
            fmt::format("{} PE speeds given for {} PEs", in.pe_speeds.size(), num_pes));
    for (std::size_t t = 0; t < n; ++t) {
        if (!std::isfinite(in.task_loads[t]) || in.task_loads[t] < 0)
            throw UsageError(fmt::format("task {}: load must be a finite number >= 0, not {}", t,
                                         in.task_loads[t]));
        if (in.mapping[t].value >= num_pes)
            throw UsageError(fmt::format("task {} is mapped to PE {}, but the cluster has {} PEs",
                                         t, in.mapping[t].value, num_pes));
    }
    // Each load finite is not enough: PE loads are sums.
    double total = 0;
    for (double load : in.task_loads) total += load;
    if (!std::isfinite(total))
        throw UsageError(fmt::format("the task loads add up to {}: too large to balance", total));
    for (std::size_t p = 0; p < in.pe_speeds.size(); ++p)
        if (!std::isfinite(in.pe_speeds[p]) || in.pe_speeds[p] <= 0)
            throw UsageError(fmt::format("PE {}: speed must be a finite number > 0, not {}", p,
                                         in.pe_speeds[p]));
}

} // namespace nettopo
