// Topology-aware Greedy: GreedyLB's order (heaviest task first) and its
// balance, but a task goes next to the partners already placed when that
// costs little balance. In the spirit of Charm++'s TopoCentLB / the Net Topo
// thesis' topology-aware strategies, not a port of either.
//
// For each task: the candidates are the PE where it would end least loaded
// (Greedy's choice) and every PE of the machines holding its placed
// partners. A candidate is eligible when its load after placement stays
// within cap = max(Greedy's load after placement, (1 + slack) x average);
// among eligible ones the task takes the machine with the fewest hop-bytes to
// its placed partners (bytes x network hops), then the PE with the least
// latency-bytes (bytes x latency, which tells the PUs of one machine apart),
// then the least load after placement, then the lower id.
//
// Balance: every placement ends at most at max(Greedy's step, (1 + slack) x
// avg), so the final max/avg is close to Greedy's (within the slack when
// Greedy itself is near 1). Cost: O(n log n) for the order, and per task
// O(deg x candidate machines) hop look-ups plus O(deg x PEs of the best
// machines) latency look-ups.
#include "balance/pe_heap.hpp"
#include "balance/strategies.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace nettopo {

namespace {

class TopoGreedy final : public Strategy {
public:
    explicit TopoGreedy(const StrategyOptions& options) : options_(options) {
        if (!std::isfinite(options.topo_slack) || options.topo_slack < 0)
            throw UsageError("the topo-greedy slack must be a finite number >= 0");
    }
    std::string_view name() const override { return "topo-greedy"; }
    bool distributed() const override { return false; }

    BalanceOutcome balance(const BalanceInput& in) const override {
        check_balance_input(in);
        const Cluster& cluster = in.comm_model.cluster();
        const std::uint32_t num_pes = cluster.num_pes();
        const std::size_t n = in.task_loads.size();
        balance::LeastLoadAfter pes(num_pes, in.pe_speeds);
        const double soft_cap = (1 + options_.topo_slack) * balance::balanced_load(in);

        std::vector<MachineId> machine_of(num_pes);
        for (std::uint32_t p = 0; p < num_pes; ++p) machine_of[p] = cluster.machine_of(PeId(p));
        std::vector<std::uint32_t> stamp(cluster.num_machines(), 0);
        std::uint32_t now = 0;
        std::vector<MachineId> machines;
        std::vector<double> hop_bytes;
        std::vector<PeId> tied;

        BalanceOutcome out;
        out.mapping.assign(n, PeId());
        for (std::uint32_t t : balance::heaviest_first(in.task_loads)) {
            const double w = in.task_loads[t];
            const PeId greedy = pes.best_for(w);
            const double cap = std::max(pes.load_after(greedy, w), soft_cap);
            const auto partners = in.task_graph.partners(TaskId(t));
            const auto bytes = in.task_graph.bytes(TaskId(t));

            ++now;
            machines.clear();
            for (TaskId q : partners) {
                const PeId at = out.mapping[q.value];
                if (!at.valid()) continue;
                const MachineId m = machine_of[at.value];
                if (stamp[m.value] != now) {
                    stamp[m.value] = now;
                    machines.push_back(m);
                }
            }
            if (machines.empty()) {
                out.mapping[t] = greedy;
                pes.add(greedy, w);
                continue;
            }
            const MachineId gm = machine_of[greedy.value];
            if (stamp[gm.value] != now) machines.push_back(gm);

            // Hop-bytes per candidate machine; the best among those with room.
            double best = std::numeric_limits<double>::infinity();
            hop_bytes.assign(machines.size(), 0.0);
            for (std::size_t i = 0; i < machines.size(); ++i) {
                if (!has_room(cluster, pes, machines[i], w, cap)) {
                    hop_bytes[i] = std::numeric_limits<double>::infinity();
                    continue;
                }
                for (std::size_t k = 0; k < partners.size(); ++k) {
                    const PeId at = out.mapping[partners[k].value];
                    if (!at.valid() || machine_of[at.value] == machines[i]) continue;
                    hop_bytes[i] +=
                        bytes[k] * in.comm_model.index().hops(machines[i], machine_of[at.value]);
                }
                best = std::min(best, hop_bytes[i]);
            }
            tied.clear();
            for (std::size_t i = 0; i < machines.size(); ++i) {
                if (hop_bytes[i] != best) continue;
                const PeRange r = cluster.pes_of_machine(machines[i]);
                for (std::uint32_t j = 0; j < r.count; ++j)
                    if (pes.load_after(r[j], w) <= cap) tied.push_back(r[j]);
            }
            const PeId chosen =
                tied.size() == 1 ? tied.front() : nearest(in, out.mapping, t, pes, tied);
            out.mapping[t] = chosen;
            pes.add(chosen, w);
        }
        return out;
    }

private:
    static bool has_room(const Cluster& cluster, const balance::LeastLoadAfter& pes, MachineId m,
                         double w, double cap) {
        const PeRange r = cluster.pes_of_machine(m);
        for (std::uint32_t j = 0; j < r.count; ++j)
            if (pes.load_after(r[j], w) <= cap) return true;
        return false;
    }

    // Among PEs equal in hop-bytes: the least latency-bytes, then the least
    // load after placement, then the lower id.
    static PeId nearest(const BalanceInput& in, std::span<const PeId> mapping, std::uint32_t t,
                        const balance::LeastLoadAfter& pes, std::span<const PeId> tied) {
        const auto partners = in.task_graph.partners(TaskId(t));
        const auto bytes = in.task_graph.bytes(TaskId(t));
        const double w = in.task_loads[t];
        PeId best;
        double best_latency = 0, best_after = 0;
        for (PeId p : tied) {
            double latency = 0;
            for (std::size_t k = 0; k < partners.size(); ++k) {
                const PeId at = mapping[partners[k].value];
                if (at.valid()) latency += bytes[k] * in.comm_model.latency_ns(p, at);
            }
            const double after = pes.load_after(p, w);
            if (!best.valid() || latency < best_latency ||
                (latency == best_latency &&
                 (after < best_after || (after == best_after && p < best)))) {
                best = p;
                best_latency = latency;
                best_after = after;
            }
        }
        return best;
    }

    StrategyOptions options_;
};

} // namespace

std::unique_ptr<Strategy> make_topo_greedy(const StrategyOptions& options) {
    return std::make_unique<TopoGreedy>(options);
}

} // namespace nettopo
