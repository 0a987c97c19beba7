// SmartLB (seed 002, built on Charm++'s AverageLB): move few tasks. PM is the
// most loaded PE, Pm the least, D = load(PM) - load(Pm). If D / average
// exceeds the threshold, walk the tasks in id order; a task on PM whose load
// is at most gap_factor x D moves to Pm, and PM, Pm are recomputed after each
// move. A small imbalance triggers nothing; only tasks that fit in the gap
// move, so the heavy tasks mostly stay put.
//
// Reading of the text, and why:
// - Threshold: "(load(PM) - load(Pm)) / avg > threshold" as the text says
//   (the pseudo-code's Pm/PM > T is not what the text describes).
// - Passes: the pseudo-code is one walk over the tasks. A task on a PE that
//   becomes PM only after the walk passed it can never move, so one walk
//   leaves avoidable imbalance; we repeat the walk (threshold test first)
//   until a walk moves nothing, at most options.smart_passes walks (0: no
//   limit). Each walk is the pseudo-code unchanged; one walk is smart_passes=1.
// - A move must strictly narrow the pair: ct < D besides ct <= gap x D, and
//   ct > 0. With gap_factor = 1 a task of load exactly D only swaps PM and Pm,
//   which balances nothing and, repeated, would never stop. With that rule
//   the loads sorted in decreasing order fall lexicographically at every
//   move, so the walks end.
// - Speeds: ct is the task's time on Pm (load / speed(Pm)), the amount by
//   which Pm grows.
// Cost: O(n + moves x log P) per walk.
#include "balance/pe_heap.hpp"
#include "balance/strategies.hpp"
#include "nettopo/support/error.hpp"

#include <cmath>
#include <numeric>

namespace nettopo {

namespace {

class Smart final : public Strategy {
public:
    explicit Smart(const StrategyOptions& options) : options_(options) {
        if (!std::isfinite(options.smart_threshold) || options.smart_threshold < 0)
            throw UsageError("the SmartLB threshold must be a finite number >= 0");
        if (!(options.smart_gap_factor > 0) || !std::isfinite(options.smart_gap_factor))
            throw UsageError("the SmartLB gap factor must be a finite number > 0");
    }
    std::string_view name() const override { return "smart"; }
    bool distributed() const override { return false; }

    BalanceOutcome balance(const BalanceInput& in) const override {
        check_balance_input(in);
        const std::uint32_t num_pes = in.comm_model.cluster().num_pes();
        const std::size_t n = in.task_loads.size();
        BalanceOutcome out;
        out.mapping.assign(in.mapping.begin(), in.mapping.end());
        std::vector<double> load = pe_loads(in, in.mapping);
        const auto speed = [&](PeId p) {
            return in.pe_speeds.empty() ? 1.0 : in.pe_speeds[p.value];
        };
        const double avg = balance::balanced_load(in);
        if (!(avg > 0) || num_pes < 2) return out;

        balance::PeHeap<balance::Order::Max> most(num_pes);
        balance::PeHeap<balance::Order::Min> least(num_pes);
        for (std::uint32_t p = 0; p < num_pes; ++p) {
            most.set(PeId(p), load[p]);
            least.set(PeId(p), load[p]);
        }
        for (std::uint32_t walk = 0; options_.smart_passes == 0 || walk < options_.smart_passes;
             ++walk) {
            PeId pm_max = most.top(), pm_min = least.top();
            if ((load[pm_max.value] - load[pm_min.value]) / avg <= options_.smart_threshold) break;
            bool moved = false;
            for (std::size_t t = 0; t < n; ++t) {
                if (out.mapping[t] != pm_max) continue;
                const double gap = load[pm_max.value] - load[pm_min.value];
                const double ct = in.task_loads[t] / speed(pm_min);
                if (!(ct > 0) || ct > options_.smart_gap_factor * gap || !(ct < gap)) continue;
                load[pm_max.value] -= in.task_loads[t] / speed(pm_max);
                load[pm_min.value] += ct;
                out.mapping[t] = pm_min;
                for (PeId p : {pm_max, pm_min}) {
                    most.set(p, load[p.value]);
                    least.set(p, load[p.value]);
                }
                pm_max = most.top();
                pm_min = least.top();
                moved = true;
            }
            if (!moved) break;
        }
        return out;
    }

private:
    StrategyOptions options_;
};

} // namespace

std::unique_ptr<Strategy> make_smart(const StrategyOptions& options) {
    return std::make_unique<Smart>(options);
}

} // namespace nettopo
