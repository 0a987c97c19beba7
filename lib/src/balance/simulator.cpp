// Replays an iterative application (a Workload) on a cluster model under a
// load balancing strategy, as Charm++'s LB framework runs one: iterations,
// measured loads, a strategy call every `every` iterations, migrations.
//
// The cost of an iteration depends only on the loads (fixed within a load
// phase) and the mapping (fixed between steps), so the run is cut into
// segments where both are constant: one O(tasks) pass per segment instead of
// per iteration, and one O(edges) pass over the communication graph per
// mapping.
//
// Messages: a graph edge's bytes are both directions together; each end is
// taken to send half of them, so each PE pays transfer_seconds for what its
// tasks send (lb_test's patterns are symmetric, so this is exact for them).
#include "nettopo/balance/simulator.hpp"

#include "nettopo/balance/detail/balance_summary.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>

namespace nettopo {

namespace {

// What a mapping costs per iteration beyond computation.
struct MappingCost {
    std::vector<double> comm_seconds; // per PE
    CommCost bytes;                   // per iteration
};

MappingCost mapping_cost(const CommModel& model, const TaskGraph& graph,
                         std::span<const PeId> mapping) {
    MappingCost c;
    c.comm_seconds.assign(model.cluster().num_pes(), 0.0);
    const bool software = model.has_software_costs();
    for (const TaskEdge& e : graph.edges()) {
        const PeId pa = mapping[e.a.value], pb = mapping[e.b.value];
        if (pa == pb) continue;
        c.comm_seconds[pa.value] += model.transfer_seconds(pa, pb, e.bytes / 2);
        c.comm_seconds[pb.value] += model.transfer_seconds(pb, pa, e.bytes / 2);
        if (!software) continue;
        // One message each way: each end sends one and receives one.
        c.comm_seconds[pa.value] += model.send_seconds(pa, pb) + model.receive_seconds(pb, pa);
        c.comm_seconds[pb.value] += model.send_seconds(pb, pa) + model.receive_seconds(pa, pb);
    }
    c.bytes = communication_cost(model, graph, mapping);
    return c;
}

void check_outcome(const Strategy& strategy, const BalanceOutcome& out, std::uint32_t num_tasks,
                   std::uint32_t num_pes) {
    if (out.mapping.size() != num_tasks)
        throw UsageError(fmt::format("strategy {} returned a mapping of {} tasks for {} tasks",
                                     strategy.name(), out.mapping.size(), num_tasks));
    for (std::uint32_t t = 0; t < num_tasks; ++t)
        if (out.mapping[t].value >= num_pes)
            throw UsageError(fmt::format("strategy {} mapped task {} to PE {} of {}",
                                         strategy.name(), t, out.mapping[t].value, num_pes));
}

SimulationResult run(const CommModel& model, const Workload& workload, const Strategy* strategy,
                     const SimulationOptions& options, ProgressTicker& ticker,
                     std::uint64_t ticks_before) {
    const Cluster& cluster = model.cluster();
    const std::uint32_t num_pes = cluster.num_pes();
    const std::uint32_t n = workload.num_tasks();
    const LbTestParams& params = workload.params();
    if (num_pes == 0) throw UsageError("the cluster has no PE to run the workload on");
    if (n == 0) throw UsageError("the workload has no task");
    if (params.every == 0) throw UsageError("balancing every 0 iterations");
    if (!options.pe_speeds.empty() && options.pe_speeds.size() != num_pes)
        throw UsageError(
            fmt::format("{} PE speeds given for {} PEs", options.pe_speeds.size(), num_pes));
    std::vector<double> speeds = options.pe_speeds;
    if (speeds.empty()) speeds.assign(num_pes, 1.0);
    for (std::uint32_t p = 0; p < num_pes; ++p)
        if (!std::isfinite(speeds[p]) || speeds[p] <= 0)
            throw UsageError(
                fmt::format("PE {}: speed must be a finite number > 0, not {}", p, speeds[p]));

    const StepCosts& costs = options.step_costs;
    costs.check();

    SimulationResult r;
    r.strategy = strategy ? std::string(strategy->name()) : "none";
    std::vector<PeId> mapping = workload.initial_mapping(num_pes);
    MappingCost cost = mapping_cost(model, workload.graph(), mapping);
    std::vector<double> loads, pe_load(num_pes), measured(n, 0.0);
    std::vector<double> received(num_pes, 0.0), busy(num_pes, 0.0);
    std::vector<double> seen; // the loads the strategy sees, with noise
    std::uint32_t loads_phase = 0;
    bool have_loads = false;
    std::uint32_t since_step = 0; // iterations measured since the previous step

    const std::uint32_t iterations = params.iterations, every = params.every;
    // A balancing step of the strategy on `in`, its costs and its migrations.
    // in: the loads measured; the strategy sees them with noise, if any.
    const auto step_of = [&](const BalanceInput& in) {
        BalanceInput noisy = in;
        if (costs.load_noise > 0) {
            seen.assign(in.task_loads.begin(), in.task_loads.end());
            apply_load_noise(seen, costs.load_noise, params.seed, in.step);
            noisy.task_loads = seen;
        }
        const auto start = std::chrono::steady_clock::now();
        BalanceOutcome out = strategy->balance(noisy);
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        check_outcome(*strategy, out, n, num_pes);
        if (strategy->distributed()) r.decision_seconds += out.protocol_seconds;
        if (options.measure_wall_time) {
            r.decision_wall_seconds += wall;
            if (!strategy->distributed()) r.decision_seconds += wall;
        }
        r.messages += out.messages;
        r.messages_lost += out.messages_lost;
        r.rounds += out.rounds;
        r.max_avg_after += max_avg(pe_loads(in, out.mapping));

        std::uint64_t moves = 0;
        for (std::uint32_t t = 0; t < n; ++t) {
            const PeId from = mapping[t], to = out.mapping[t];
            if (from == to) continue;
            ++moves;
            r.migration_bytes += params.task_bytes;
            received[to.value] += model.transfer_seconds(from, to, params.task_bytes);
            if (costs.migration_seconds_per_task > 0) {
                busy[from.value] += costs.migration_seconds_per_task;
                busy[to.value] += costs.migration_seconds_per_task;
            }
        }
        r.migrations += moves;
        if (strategy->distributed()) {
            if (costs.local_seconds_per_task > 0) {
                std::vector<std::uint32_t> held(num_pes, 0);
                for (const PeId p : mapping) ++held[p.value];
                r.decision_seconds += costs.local_seconds_per_task *
                                      double(*std::max_element(held.begin(), held.end()));
            }
        } else if (costs.gather_statistics) {
            r.decision_seconds +=
                statistics_gather_seconds(model, workload.graph(), mapping, costs) +
                decision_broadcast_seconds(model, moves, costs);
        }
        if (moves > 0) {
            if (costs.migration_seconds_per_task > 0)
                for (std::uint32_t p = 0; p < num_pes; ++p) received[p] += busy[p];
            r.migration_seconds += *std::max_element(received.begin(), received.end());
            std::fill(received.begin(), received.end(), 0.0);
            std::fill(busy.begin(), busy.end(), 0.0);
            mapping = std::move(out.mapping);
            cost = mapping_cost(model, workload.graph(), mapping);
        }
    };
    std::uint32_t it = 0;
    while (it < iterations) {
        const std::uint32_t phase = workload.phase_of_iteration(it);
        if (!have_loads || phase != loads_phase) {
            loads = workload.loads(phase);
            loads_phase = phase;
            have_loads = true;
        }
        // The segment ends at the next step, the next phase change or the end.
        // In 64 bits: the next multiple of `every` may not fit 32.
        const std::uint64_t next_step = (std::uint64_t{it} / every + 1) * every;
        const auto end = static_cast<std::uint32_t>(
            std::min<std::uint64_t>({iterations, next_step, workload.next_phase_start(it)}));
        const std::uint32_t count = end - it;

        std::fill(pe_load.begin(), pe_load.end(), 0.0);
        for (std::uint32_t t = 0; t < n; ++t) pe_load[mapping[t].value] += loads[t];
        double makespan = 0;
        for (std::uint32_t p = 0; p < num_pes; ++p)
            makespan = std::max(makespan, pe_load[p] / speeds[p] + cost.comm_seconds[p]);
        r.compute_seconds += makespan * count;
        r.hop_bytes += cost.bytes.hop_bytes * count;
        r.latency_bytes += cost.bytes.latency_bytes * count;
        for (std::uint32_t t = 0; t < n; ++t) measured[t] += loads[t] * count;
        since_step += count;
        it = end;
        ticker(ticks_before + it);

        if (it % every != 0 || it >= iterations) continue;
        // A balancing step: the strategy sees the mean load of each task
        // over the iterations since the previous step. Without one, the
        // imbalance it would have seen is still reported.
        for (double& m : measured) m /= since_step;
        const BalanceInput in{model,   measured, workload.graph(), options.pe_speeds,
                              mapping, r.steps,  since_step};
        const double imbalance = max_avg(pe_loads(in, mapping));
        r.max_avg_before += imbalance;
        if (strategy)
            step_of(in);
        else
            r.max_avg_after += imbalance;
        ++r.steps;
        std::fill(measured.begin(), measured.end(), 0.0);
        since_step = 0;
    }
    if (r.steps > 0) {
        r.max_avg_before /= r.steps;
        r.max_avg_after /= r.steps;
    }
    r.total_seconds = r.compute_seconds + r.decision_seconds + r.migration_seconds;
    return r;
}

} // namespace

SimulationResult simulate(const CommModel& model, const Workload& workload,
                          const Strategy* strategy, const SimulationOptions& options) {
    ProgressTicker ticker(options.progress, "simulating", workload.params().iterations, 1);
    return run(model, workload, strategy, options, ticker, 0);
}

std::vector<SimulationResult> compare_strategies(const CommModel& model, const Workload& workload,
                                                 std::span<const Strategy* const> strategies,
                                                 const SimulationOptions& options) {
    const std::uint64_t iterations = workload.params().iterations;
    ProgressTicker ticker(options.progress, "simulating", iterations * (strategies.size() + 1), 1);
    std::vector<SimulationResult> results;
    results.reserve(strategies.size() + 1);
    results.push_back(run(model, workload, nullptr, options, ticker, 0));
    for (std::size_t i = 0; i < strategies.size(); ++i) {
        if (!strategies[i]) throw UsageError(fmt::format("strategy {} of the list is null", i));
        results.push_back(
            run(model, workload, strategies[i], options, ticker, (i + 1) * iterations));
    }
    const double base = results.front().total_seconds;
    for (SimulationResult& r : results)
        r.speedup = r.total_seconds > 0 ? base / r.total_seconds : 1;
    return results;
}

std::vector<SimulationResult> average_results(std::span<const std::vector<SimulationResult>> runs) {
    if (runs.empty()) return {};
    std::vector<SimulationResult> mean = runs.front();
    for (const auto& run : runs)
        if (run.size() != mean.size())
            throw UsageError("average_results: the runs compare different strategies");
    const double n = static_cast<double>(runs.size());
    // Counts are rounded to the nearest whole one; everything else is a plain mean.
    const auto count = [&](auto field) {
        return [&, field](std::size_t i) {
            double sum = 0;
            for (const auto& run : runs) sum += static_cast<double>(run[i].*field);
            return std::llround(sum / n);
        };
    };
    const auto real = [&](double SimulationResult::*field) {
        return [&, field](std::size_t i) {
            double sum = 0;
            for (const auto& run : runs) sum += run[i].*field;
            return sum / n;
        };
    };
    for (std::size_t i = 0; i < mean.size(); ++i) {
        SimulationResult& m = mean[i];
        for (double SimulationResult::*f :
             {&SimulationResult::total_seconds, &SimulationResult::compute_seconds,
              &SimulationResult::decision_seconds, &SimulationResult::migration_seconds,
              &SimulationResult::speedup, &SimulationResult::max_avg_after,
              &SimulationResult::max_avg_before, &SimulationResult::migration_bytes,
              &SimulationResult::decision_wall_seconds, &SimulationResult::hop_bytes,
              &SimulationResult::latency_bytes})
            m.*f = real(f)(i);
        m.migrations = static_cast<std::uint64_t>(count(&SimulationResult::migrations)(i));
        m.messages = static_cast<std::uint64_t>(count(&SimulationResult::messages)(i));
        m.messages_lost = static_cast<std::uint64_t>(count(&SimulationResult::messages_lost)(i));
        m.rounds = static_cast<std::uint32_t>(count(&SimulationResult::rounds)(i));
        m.steps = static_cast<std::uint32_t>(count(&SimulationResult::steps)(i));
    }
    return mean;
}

std::vector<SimulationSpread> spread_results(std::span<const std::vector<SimulationResult>> runs) {
    std::vector<SimulationSpread> out;
    if (runs.empty()) return out;
    for (const auto& run : runs)
        if (run.size() != runs.front().size())
            throw UsageError("spread_results: the runs compare different strategies");
    std::vector<double> values(runs.size());
    const auto spread = [&](std::size_t i, auto value) {
        for (std::size_t k = 0; k < runs.size(); ++k) values[k] = value(runs[k][i]);
        std::sort(values.begin(), values.end());
        const std::size_t n = values.size();
        const double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
        return Spread{values.front(), median, values.back()};
    };
    for (std::size_t i = 0; i < runs.front().size(); ++i) {
        SimulationSpread s;
        s.strategy = runs.front()[i].strategy;
        s.total_seconds = spread(i, [](const SimulationResult& r) { return r.total_seconds; });
        s.speedup = spread(i, [](const SimulationResult& r) { return r.speedup; });
        s.migrations =
            spread(i, [](const SimulationResult& r) { return static_cast<double>(r.migrations); });
        s.max_avg_after = spread(i, [](const SimulationResult& r) { return r.max_avg_after; });
        s.decision_seconds =
            spread(i, [](const SimulationResult& r) { return r.decision_seconds; });
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace nettopo
