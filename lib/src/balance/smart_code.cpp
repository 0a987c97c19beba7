// SmartLB as its authors coded and ran it (github vinirssantos/smartLB,
// SmartLB.C at commit ac5b41a, a Charm++ CentralLB strategy): the
// `smart-code` strategy. `smart` (smart.cpp) follows the thesis'
// Algorithm 1, which this code does not:
//  - PM and Pm, the most and least loaded PEs (the first of equals), are
//    picked once; nothing happens unless load(Pm) <= 0.95 load(PM), a gate
//    on the maximum, not on the average;
//  - one walk over PM's tasks in task order: with gap = load(PM) - load(Pm)
//    (from the loads as the walk updates them), a task moves to Pm when its
//    measured load <= gap + f gap, f = 0.5, or 0.3 once more than 0.9 P of
//    PM's tasks were looked at while fewer than 0.98 P moved (a third branch,
//    0.15, needs a count both >= 0.95 P and <= 0.90 P and never runs);
//  - loads are measured wall times: a moved task adds to Pm what it took on
//    PM, with no speed conversion, as the code does.
// Departure: the code's helper writes past a one-element static array
// (getMoreAndLessThanAverage, array[1]); here PM and Pm are plain values.
#include "balance/strategies.hpp"

namespace nettopo {

namespace {

class SmartCode final : public Strategy {
public:
    std::string_view name() const override { return "smart-code"; }
    bool distributed() const override { return false; }

    BalanceOutcome balance(const BalanceInput& in) const override {
        check_balance_input(in);
        const std::uint32_t P = in.comm_model.cluster().num_pes();
        BalanceOutcome out;
        out.mapping.assign(in.mapping.begin(), in.mapping.end());
        const auto wall = [&](std::uint32_t t) {
            const PeId p = in.mapping[t];
            return in.task_loads[t] / (in.pe_speeds.empty() ? 1.0 : in.pe_speeds[p.value]);
        };
        std::vector<double> load(P, 0.0);
        for (std::uint32_t t = 0; t < in.task_loads.size(); ++t)
            load[in.mapping[t].value] += wall(t);
        std::uint32_t most = 0, least = 0;
        for (std::uint32_t p = 0; p < P; ++p) {
            if (load[most] < load[p]) most = p;
            if (load[least] > load[p]) least = p;
        }
        if (!(load[least] <= load[most] * 0.95)) return out;
        std::uint32_t looked = 0, moved = 0;
        for (std::uint32_t t = 0; t < in.task_loads.size(); ++t) {
            if (in.mapping[t].value != most) continue;
            const double w = wall(t), gap = load[most] - load[least];
            ++looked;
            const double f = looked > P * 0.90 && moved < P * 0.98 ? 0.30 : 0.5;
            if (w <= gap + gap * f) {
                ++moved;
                out.mapping[t] = PeId(least);
                load[least] += w;
                load[most] -= w;
            }
        }
        return out;
    }
};

} // namespace

std::unique_ptr<Strategy> make_smart_code(const StrategyOptions&) {
    return std::make_unique<SmartCode>();
}

} // namespace nettopo
