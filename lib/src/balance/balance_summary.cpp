#include "nettopo/balance/detail/balance_summary.hpp"

#include <algorithm>
#include <numeric>

namespace nettopo {

CommCost communication_cost(const CommModel& model, const TaskGraph& graph,
                            std::span<const PeId> mapping) {
    CommCost cost;
    for (const TaskEdge& e : graph.edges()) {
        const PeId a = mapping[e.a.value], b = mapping[e.b.value];
        if (a == b) continue;
        cost.hop_bytes += e.bytes * model.hops(a, b);
        cost.latency_bytes += e.bytes * model.latency_ns(a, b);
    }
    return cost;
}

double max_avg(std::span<const double> pe_loads) {
    if (pe_loads.empty()) return 1;
    const double total = std::accumulate(pe_loads.begin(), pe_loads.end(), 0.0);
    if (total <= 0) return 1;
    const double max = *std::max_element(pe_loads.begin(), pe_loads.end());
    return max / (total / static_cast<double>(pe_loads.size()));
}

BalanceSummary summarize_balance(const Strategy& strategy, const BalanceInput& in,
                                 const BalanceOutcome& out, double decision_wall_seconds) {
    BalanceSummary s;
    s.strategy = std::string(strategy.name());
    s.distributed = strategy.distributed();
    const auto before = pe_loads(in, in.mapping), after = pe_loads(in, out.mapping);
    s.max_avg_before = max_avg(before);
    s.max_avg_after = max_avg(after);
    s.max_load_before = before.empty() ? 0 : *std::max_element(before.begin(), before.end());
    s.max_load_after = after.empty() ? 0 : *std::max_element(after.begin(), after.end());
    for (std::size_t t = 0; t < out.mapping.size(); ++t)
        s.migrations += out.mapping[t] != in.mapping[t];
    s.cost_before = communication_cost(in.comm_model, in.task_graph, in.mapping);
    s.cost_after = communication_cost(in.comm_model, in.task_graph, out.mapping);
    s.messages = out.messages;
    s.messages_lost = out.messages_lost;
    s.collectives = out.collectives;
    s.rounds = out.rounds;
    s.decision_wall_seconds = decision_wall_seconds;
    s.protocol_seconds = out.protocol_seconds;
    return s;
}

} // namespace nettopo
