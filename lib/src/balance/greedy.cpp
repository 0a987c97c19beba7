// GreedyLB (Charm++ src/ck-ldb/GreedyLB.C): every task taken off its PE,
// tasks placed heaviest first, each on the PE where it ends least loaded.
// That is LPT list scheduling: max <= (4/3 - 1/(3P)) x optimum on equal PEs.
//
// Speeds: GreedyLB pops the PE with the least *current* load and adds
// load / speed to it, whatever the speed; a slow idle PE then takes a heavy
// task that a fast, slightly loaded PE would finish sooner. We pick the PE
// with the least load *after* placement (identical for equal speeds), the
// rule of list scheduling on uniform machines.
// Ties: heavier first, then lower task id; among PEs, the lower PE id.
// O(n log n + n (S + log P)), S the number of distinct speeds.
#include "balance/pe_heap.hpp"
#include "balance/strategies.hpp"

namespace nettopo {

namespace {

class Greedy final : public Strategy {
public:
    std::string_view name() const override { return "greedy"; }
    bool distributed() const override { return false; }

    BalanceOutcome balance(const BalanceInput& in) const override {
        check_balance_input(in);
        const std::size_t n = in.task_loads.size();
        balance::LeastLoadAfter pes(in.comm_model.cluster().num_pes(), in.pe_speeds);
        BalanceOutcome out;
        out.mapping.resize(n);
        for (std::uint32_t t : balance::heaviest_first(in.task_loads)) {
            const PeId p = pes.best_for(in.task_loads[t]);
            pes.add(p, in.task_loads[t]);
            out.mapping[t] = p;
        }
        return out;
    }
};

} // namespace

std::unique_ptr<Strategy> make_greedy(const StrategyOptions&) {
    return std::make_unique<Greedy>();
}

} // namespace nettopo
