/// \file
/// Runs an iterative application under a load balancing strategy on a
/// cluster model and reports what it would cost.
///
/// Per iteration: time = max over PEs of (compute load / speed + the PE's
/// communication time), where a PE's communication time is the sum, over the
/// messages its tasks send to tasks on other PEs, of CommModel's
/// transfer_seconds. After every `every` iterations (not after the last) the
/// strategy sees the loads measured since the previous step (per task, the
/// mean over those iterations, as Charm++'s instrumentation reports them)
/// and returns a new mapping; the step then costs:
///   decision: the strategy's measured wall time when centralised, its
///     simulated protocol time when distributed; plus, with StepCosts, a
///     centralised strategy's statistics gathering and decision broadcast
///     and a distributed one's local computation;
///   migration: max over PEs of the sum of transfer_seconds of the tasks it
///     receives (task_bytes each), plus StepCosts' fixed cost per task it
///     sends or receives.
/// With message overheads (CommModelOptions), an iteration's message also
/// costs its sender max(o, g) and its receiver o.
///
/// \threads Every call here may run in several threads at once over one
/// const CommModel and Workload, with distinct Strategy objects (a Strategy
/// is used by one thread at a time) and Progress objects.
/// \cost A run: per iteration O(tasks + edges) with one CommModel query per
/// edge between PEs; per balancing step the strategy's own. Every call
/// throws UsageError for inconsistent inputs (sizes, speeds, runs of
/// different strategies, a strategy's mapping that is not one), and
/// std::bad_alloc.
#pragma once

#include "nettopo/balance/balance.hpp"
#include "nettopo/balance/step_costs.hpp"
#include "nettopo/balance/workload.hpp"
#include "nettopo/model/progress.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nettopo {

/// What a simulated run cost.
struct SimulationResult {
    std::string strategy;         ///< "none" for the run without balancing
    double total_seconds = 0;     ///< compute + decision + migration
    double compute_seconds = 0;   ///< sum over iterations of the makespan part
    double decision_seconds = 0;  ///< sum over steps
    double migration_seconds = 0; ///< sum over steps
    double speedup = 1;           ///< none's total / this total (set by compare)
    /// Mean over balancing steps of max/avg PE load of the loads the step
    /// balanced, under the mapping it produced.
    double max_avg_after = 0;
    double max_avg_before = 0;        ///< same, under the mapping each step started from
    std::uint64_t migrations = 0;     ///< tasks moved, over all steps
    double migration_bytes = 0;       ///< bytes moved, over all steps
    std::uint64_t messages = 0;       ///< protocol messages, over all steps
    std::uint64_t messages_lost = 0;  ///< of which lost (FaultModel)
    std::uint32_t rounds = 0;         ///< protocol rounds, over all steps
    std::uint32_t steps = 0;          ///< balancing steps taken (for none: the points it let pass)
    double decision_wall_seconds = 0; ///< measured wall time of the strategy, all steps
    /// Per iteration, summed over the run: bytes x hops, bytes x latency (ns).
    double hop_bytes = 0;
    double latency_bytes = 0; ///< bytes x latency (ns), as hop_bytes
};

/// How simulate runs.
struct SimulationOptions {
    std::vector<double> pe_speeds; ///< per PE; empty: all 1
    /// Centralised strategies' decisions cost their measured wall time. Off,
    /// no wall time is measured or charged (decision_wall_seconds stays 0),
    /// and the whole result is reproducible to the bit.
    bool measure_wall_time = true;
    /// Zero by default: a step costs its decision and its bytes only. The
    /// noise of measured loads is drawn from the workload's seed.
    StepCosts step_costs;
    Progress* progress = nullptr; ///< told of the iterations done, if set
};

/// The run of `workload` on `model` under `strategy` (see the file's comment);
/// strategy == nullptr runs without balancing.
SimulationResult simulate(const CommModel& model, const Workload& workload,
                          const Strategy* strategy, const SimulationOptions& options = {});

/// Field by field, the mean of several compare_strategies results (one per
/// seed, the same strategies in the same order); counts are rounded.
/// O(runs x strategies).
std::vector<SimulationResult> average_results(std::span<const std::vector<SimulationResult>> runs);

/// How a quantity spread over several seeds.
struct Spread {
    double min = 0;    ///< the smallest
    double median = 0; ///< median: mean of the middle two for an even count
    double max = 0;    ///< the largest
};
/// One strategy's main results over several seeds.
struct SimulationSpread {
    std::string strategy;    ///< its name
    Spread total_seconds;    ///< SimulationResult::total_seconds
    Spread speedup;          ///< SimulationResult::speedup
    Spread migrations;       ///< SimulationResult::migrations
    Spread max_avg_after;    ///< SimulationResult::max_avg_after
    Spread decision_seconds; ///< SimulationResult::decision_seconds
};
/// Per strategy (the order of the runs'), the spread of the main results
/// over the runs of average_results' input. O(runs log runs x strategies).
std::vector<SimulationSpread> spread_results(std::span<const std::vector<SimulationResult>> runs);

/// The no-balancing run followed by each strategy's, speedups filled in.
std::vector<SimulationResult> compare_strategies(const CommModel& model, const Workload& workload,
                                                 std::span<const Strategy* const> strategies,
                                                 const SimulationOptions& options = {});

} // namespace nettopo
