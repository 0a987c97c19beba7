// AverageLB, the third baseline of the SmartLB thesis (seed 002, "RefineLB,
// GreedyLB e AverageLB"). No source of it exists: no strategy of that name
// in Charm++ from 6.5.1 to today, none in the SmartLB authors' repository
// (github vinirssantos/smartLB has FirstLB and SmartLB only). This is a
// reconstruction from the thesis' one description, "a greedy variant that
// uses the arithmetic mean of PE loads to decide which tasks move, with
// fewer migrations than GreedyLB" (share/doc/balance.md says so too):
//  - every PE above the average gives up its tasks, largest first, while it
//    is still above the average (the last one may take it under);
//  - the tasks given up are placed as GreedyLB places all of them, heaviest
//    first, each on the PE that ends least loaded with it (pe_heap.hpp),
//    the PEs starting from what they kept.
// Tasks of PEs at or under the average never move; a task placed back on its
// own PE is no migration. Ties: heavier first, then lower id.
#include "balance/pe_heap.hpp"
#include "balance/strategies.hpp"

#include <algorithm>

namespace nettopo {

namespace {

class Average final : public Strategy {
public:
    std::string_view name() const override { return "average"; }
    bool distributed() const override { return false; }

    BalanceOutcome balance(const BalanceInput& in) const override {
        check_balance_input(in);
        const std::uint32_t P = in.comm_model.cluster().num_pes();
        const std::size_t n = in.task_loads.size();
        BalanceOutcome out;
        out.mapping.assign(in.mapping.begin(), in.mapping.end());
        std::vector<double> load = pe_loads(in, in.mapping);
        double avg = 0;
        for (double l : load) avg += l;
        avg /= P;
        const auto speed = [&](PeId p) {
            return in.pe_speeds.empty() ? 1.0 : in.pe_speeds[p.value];
        };

        // Largest first within each PE (ties: lower id).
        std::vector<std::uint32_t> order = balance::heaviest_first(in.task_loads);
        std::vector<std::uint8_t> freed(n, 0);
        for (std::uint32_t t : order) {
            const PeId p = in.mapping[t];
            if (load[p.value] > avg) {
                load[p.value] -= in.task_loads[t] / speed(p);
                freed[t] = 1;
            }
        }
        balance::LeastLoadAfter pes(P, in.pe_speeds);
        // What each PE kept, added task by task in id order (the same sums
        // as pe_loads for the kept tasks).
        for (std::uint32_t t = 0; t < n; ++t)
            if (!freed[t]) pes.add(in.mapping[t], in.task_loads[t]);
        for (std::uint32_t t : order)
            if (freed[t]) {
                const PeId p = pes.best_for(in.task_loads[t]);
                pes.add(p, in.task_loads[t]);
                out.mapping[t] = p;
            }
        return out;
    }
};

} // namespace

std::unique_ptr<Strategy> make_average(const StrategyOptions&) {
    return std::make_unique<Average>();
}

} // namespace nettopo
