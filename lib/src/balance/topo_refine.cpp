// Topology-aware Refine: RefineLB's passes and tolerance search
// (refiner.hpp), with another choice of move. The receiver is the light PE
// nearest the heavy one (fewest hops, then least latency, then the most
// room, then the lower id) among those that can take at least one of its
// tasks; the task is, among the heavy PE's largest few that fit there, the
// one whose move saves the most hop-bytes to its partners (bytes x (hops from
// the heavy PE - hops from the receiver)), then the larger, then the lower id.
//
// Refine's guarantee is kept because the rule for accepting a move is
// Refine's: from a PE above tolerance x average to one that stays below it.
// A pass fails exactly when Refine's would at the same state: no light PE
// can take even the donor's lightest task.
//
// Only the largest `candidates` fitting tasks are weighed, so a move still
// takes a large bite out of the overload (few moves, as Refine) and costs
// O(candidates x degree); machines are scanned nearest first, their order
// from each donor machine computed once (O(M log M)) and kept.
#include "balance/refiner.hpp"
#include "balance/strategies.hpp"

#include <algorithm>
#include <numeric>

namespace nettopo {

namespace {

class NearestPicker final : public balance::MovePicker {
public:
    explicit NearestPicker(const CommModel& model)
        : model_(model), order_(model.cluster().num_machines()) {}

    bool pick(const balance::RefineState& s, PeId donor, TaskId& task,
              PeId& receiver) const override {
        const TaskId smallest = s.lightest_task(donor);
        if (!smallest.valid()) return false;
        const Cluster& cluster = model_.cluster();
        receiver = PeId();
        double best_latency = 0, best_room = 0;
        for (MachineId m : machines_by_distance(cluster.machine_of(donor))) {
            const PeRange pes = cluster.pes_of_machine(m);
            for (std::uint32_t j = 0; j < pes.count; ++j) {
                const PeId p = pes[j];
                if (!s.light().contains(p) || !s.fits(smallest, p)) continue;
                const double latency = model_.latency_ns(donor, p), room = s.light().key(p);
                if (!receiver.valid() || latency < best_latency ||
                    (latency == best_latency && room > best_room)) {
                    receiver = p;
                    best_latency = latency;
                    best_room = room;
                }
            }
            if (receiver.valid()) break; // later machines are no nearer
        }
        if (!receiver.valid()) return false;

        const auto mapping = s.mapping();
        double best_gain = 0;
        std::uint32_t seen = 0;
        task = TaskId();
        s.for_each_fitting(donor, receiver, [&](TaskId t) {
            const auto partners = s.input().task_graph.partners(t);
            const auto bytes = s.input().task_graph.bytes(t);
            double gain = 0;
            for (std::size_t k = 0; k < partners.size(); ++k) {
                const PeId at = mapping[partners[k].value];
                gain += bytes[k] * (static_cast<double>(model_.hops(donor, at)) -
                                    static_cast<double>(model_.hops(receiver, at)));
            }
            // Heaviest first, so on equal gains the first seen is kept.
            if (!task.valid() || gain > best_gain) {
                task = t;
                best_gain = gain;
            }
            return ++seen < candidates;
        });
        return task.valid();
    }

private:
    static constexpr std::uint32_t candidates = 8;

    // Machines by (hops, latency, id) from m, m itself first; built on first use.
    const std::vector<MachineId>& machines_by_distance(MachineId m) const {
        std::vector<MachineId>& order = order_[m.value];
        if (!order.empty()) return order;
        const std::uint32_t count = model_.cluster().num_machines();
        const DistanceIndex& index = model_.index();
        std::vector<std::pair<std::uint32_t, std::int64_t>> key(count);
        for (std::uint32_t x = 0; x < count; ++x)
            key[x] = x == m.value ? std::pair<std::uint32_t, std::int64_t>{0, -1}
                                  : std::pair{index.hops(m, MachineId(x)),
                                              index.latency_ps(m, MachineId(x))};
        order.resize(count);
        for (std::uint32_t x = 0; x < count; ++x) order[x] = MachineId(x);
        std::stable_sort(order.begin(), order.end(),
                         [&](MachineId a, MachineId b) { return key[a.value] < key[b.value]; });
        return order;
    }

    const CommModel& model_;
    mutable std::vector<std::vector<MachineId>> order_; // per donor machine
};

class TopoRefine final : public Strategy {
public:
    explicit TopoRefine(const StrategyOptions& options) : options_(options) {
        balance::check_refine_options(options);
    }
    std::string_view name() const override { return "topo-refine"; }
    bool distributed() const override { return false; }

    BalanceOutcome balance(const BalanceInput& in) const override {
        check_balance_input(in);
        BalanceOutcome out;
        out.mapping = balance::multirefine(in, options_, NearestPicker(in.comm_model)).mapping;
        return out;
    }

private:
    StrategyOptions options_;
};

} // namespace

std::unique_ptr<Strategy> make_topo_refine(const StrategyOptions& options) {
    return std::make_unique<TopoRefine>(options);
}

} // namespace nettopo
