#include "nettopo/balance/step_costs.hpp"

#include "balance/mix.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

namespace nettopo {

namespace {

using balance_detail::ceil_log2;
using balance_detail::splitmix64;

// (0, 1]: never 0, so the logarithm of Box-Muller stays finite.
double open_unit(std::uint64_t bits) {
    return (static_cast<double>(bits >> 11) + 1) * 0x1.0p-53;
}

} // namespace

void StepCosts::check() const {
    for (const double v : {stats_bytes_per_pe, stats_bytes_per_task, stats_bytes_per_edge,
                           decision_bytes_per_migration, local_seconds_per_task,
                           migration_seconds_per_task, load_noise})
        if (!(v >= 0) || !std::isfinite(v))
            throw UsageError("step costs and load noise must be finite and >= 0");
}

double statistics_gather_seconds(const CommModel& model, const TaskGraph& graph,
                                 std::span<const PeId> mapping, const StepCosts& costs) {
    if (!costs.gather_statistics) return 0;
    const std::uint32_t P = model.cluster().num_pes();
    std::vector<double> bytes(P, costs.stats_bytes_per_pe);
    for (std::uint32_t t = 0; t < mapping.size(); ++t)
        bytes[mapping[t].value] +=
            costs.stats_bytes_per_task +
            costs.stats_bytes_per_edge * static_cast<double>(graph.partners(TaskId(t)).size());
    const PeId root(0);
    double slowest_latency = 0, serial = 0, busiest_sender = 0;
    for (std::uint32_t p = 1; p < P; ++p) {
        const PeId pe(p);
        slowest_latency = std::max(slowest_latency, model.latency_ns(pe, root) * 1e-9);
        serial +=
            model.receive_seconds(pe, root) + bytes[p] * 8 / (model.bandwidth_gbps(pe, root) * 1e9);
        busiest_sender = std::max(busiest_sender, model.send_seconds(pe, root));
    }
    return busiest_sender + slowest_latency + serial;
}

double decision_broadcast_seconds(const CommModel& model, std::uint64_t migrations,
                                  const StepCosts& costs) {
    if (!costs.gather_statistics) return 0;
    const std::uint32_t P = model.cluster().num_pes();
    const PeId root(0);
    double latency = 0, overheads = 0, narrowest_gbps = 0;
    for (std::uint32_t p = 1; p < P; ++p) {
        const PeId pe(p);
        latency = std::max(latency, model.latency_ns(root, pe) * 1e-9);
        overheads =
            std::max(overheads, model.send_seconds(root, pe) + model.receive_seconds(root, pe));
        const double gbps = model.bandwidth_gbps(root, pe);
        narrowest_gbps = narrowest_gbps == 0 ? gbps : std::min(narrowest_gbps, gbps);
    }
    if (P < 2) return 0;
    const double bytes =
        costs.stats_bytes_per_pe + costs.decision_bytes_per_migration * double(migrations);
    return ceil_log2(P) * (latency + overheads + bytes * 8 / (narrowest_gbps * 1e9));
}

void apply_load_noise(std::span<double> loads, double load_noise, std::uint64_t seed,
                      std::uint32_t step) {
    if (load_noise == 0) return;
    const std::uint64_t base = splitmix64(seed ^ splitmix64(0x6e6f697365ULL + step));
    for (std::size_t t = 0; t < loads.size(); ++t) {
        // Box-Muller on two draws of a counter-based generator: task t's
        // noise depends on (seed, step, t) only.
        const std::uint64_t a = splitmix64(base + 2 * t), b = splitmix64(base + 2 * t + 1);
        const double z =
            std::sqrt(-2 * std::log(open_unit(a))) * std::cos(2 * std::numbers::pi * open_unit(b));
        loads[t] *= std::max(0.0, 1 + load_noise * z);
    }
}

} // namespace nettopo
