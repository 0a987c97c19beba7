// What one balancing step did to a state: the numbers nettopo-balance prints
// when it balances a given mapping once, and the simulator's per-step view.
#pragma once

#include "nettopo/balance/balance.hpp"

#include <cstdint>
#include <span>
#include <string>

namespace nettopo {

// Per iteration: bytes x hops and bytes x latency (ns) over the task edges
// whose ends are on different PEs.
struct CommCost {
    double hop_bytes = 0;
    double latency_bytes = 0;
};
CommCost communication_cost(const CommModel& model, const TaskGraph& graph,
                            std::span<const PeId> mapping);

// max / average PE load; 1 when every PE is idle.
double max_avg(std::span<const double> pe_loads);

struct BalanceSummary {
    std::string strategy;
    bool distributed = false;
    double max_avg_before = 0, max_avg_after = 0;
    double max_load_before = 0, max_load_after = 0; // seconds
    std::uint64_t migrations = 0;
    CommCost cost_before, cost_after;
    std::uint64_t messages = 0, messages_lost = 0, collectives = 0;
    std::uint32_t rounds = 0;
    double decision_wall_seconds = 0;
    double protocol_seconds = 0;
};

// Compares the outcome's mapping with the input's.
BalanceSummary summarize_balance(const Strategy& strategy, const BalanceInput& in,
                                 const BalanceOutcome& out, double decision_wall_seconds);

} // namespace nettopo
