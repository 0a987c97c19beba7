// refine-heap: nettopo's RefineLB, faster than Charm++'s own (refine_charm.cpp,
// the `refine` strategy) and keeping its best pass. RefineLB (Charm++
// src/ck-ldb/RefineLB.C over Refiner.C): keep the mapping,
// move a few tasks off the overloaded PEs. A PE is heavy above tolerance x
// average (1.05), light below the average; the heaviest PE gives the largest
// task some light PE can take while staying under tolerance x average; if the
// heavy PEs cannot all be brought under, the tolerance is relaxed in 0.01
// steps towards max/avg (multirefine) and the pass redone from the input.
//
// Departures from Refiner.C, and why:
// - Refiner scans every light PE for every donor task, O(P x tasks) per move;
//   here the light PEs sit in a heap keyed by their room and each PE's tasks
//   are sorted by load, so a move costs O(log P + log tasks): the largest task
//   that fits anywhere is the largest that fits on the PE with the most room.
// - The receiver is that PE with the most room (Refiner takes the first light
//   PE of its set that fits the largest task, an order its Set leaves
//   unspecified); with equal speeds it is the lightest PE.
// - Speeds: loads are work at speed 1 here, so a task costs load / speed on
//   any PE (Charm++ rescales measured wall time by the speed ratio, the same
//   thing); the average is total work / total speed.
// - multirefine keeps the smallest successful pass (see refiner.hpp).
#include "balance/refiner.hpp"
#include "balance/strategies.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

namespace nettopo {

namespace balance {

RefineState::RefineState(const BalanceInput& in)
    : in_(in), initial_load_(pe_loads(in, in.mapping)),
      speed_(in.comm_model.cluster().num_pes(), 1.0), heavy_(in.comm_model.cluster().num_pes()),
      light_(in.comm_model.cluster().num_pes()) {
    const std::uint32_t num_pes = in.comm_model.cluster().num_pes();
    const std::size_t n = in.task_loads.size();
    if (!in.pe_speeds.empty()) speed_.assign(in.pe_speeds.begin(), in.pe_speeds.end());
    average_ = balanced_load(in);

    sorted_.resize(n);
    std::iota(sorted_.begin(), sorted_.end(), 0u);
    std::sort(sorted_.begin(), sorted_.end(), [&](std::uint32_t a, std::uint32_t b) {
        if (in.mapping[a] != in.mapping[b]) return in.mapping[a] < in.mapping[b];
        if (in.task_loads[a] != in.task_loads[b]) return in.task_loads[a] < in.task_loads[b];
        return a > b;
    });
    begin_.assign(std::size_t{num_pes} + 1, 0);
    for (std::size_t t = 0; t < n; ++t) ++begin_[in.mapping[t].value + 1];
    std::partial_sum(begin_.begin(), begin_.end(), begin_.begin());
    pos_of_task_.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) pos_of_task_[sorted_[i]] = i;
}

double RefineState::max_load() const {
    return load_.empty() ? 0 : *std::max_element(load_.begin(), load_.end());
}

std::uint32_t RefineState::alive_at_or_before(std::uint32_t end, std::uint32_t lo) const {
    // Slot x stands for position x - 1; slot 0 is the "none" root.
    std::uint32_t x = end;
    while (left_[x] != x) x = left_[x];
    for (std::uint32_t y = end; left_[y] != x;) {
        const std::uint32_t next = left_[y];
        left_[y] = x;
        y = next;
    }
    return x == 0 || x - 1 < lo ? none : x - 1;
}

TaskId RefineState::lightest_task(PeId donor) const {
    std::uint32_t& i = first_alive_[donor.value];
    const std::uint32_t end = begin_[donor.value + 1];
    while (i < end && moved_[i]) ++i;
    return i < end ? TaskId(sorted_[i]) : TaskId();
}

void RefineState::update_light(PeId p) {
    if (load_[p.value] < average_)
        light_.set(p, (limit_ - load_[p.value]) * speed_[p.value]);
    else
        light_.erase(p);
}

void RefineState::move(TaskId t, PeId donor, PeId receiver) {
    const double w = in_.task_loads[t.value];
    load_[donor.value] -= w / speed_[donor.value];
    load_[receiver.value] += w / speed_[receiver.value];
    mapping_[t.value] = receiver;
    const std::uint32_t i = pos_of_task_[t.value];
    moved_[i] = 1;
    left_[i + 1] = i;
    update_light(receiver);
    if (load_[donor.value] > limit_)
        heavy_.set(donor, load_[donor.value]);
    else
        update_light(donor);
}

bool RefineState::refine(double tolerance, const MovePicker& picker) {
    load_ = initial_load_;
    mapping_.assign(in_.mapping.begin(), in_.mapping.end());
    limit_ = tolerance * average_;
    moved_.assign(sorted_.size(), 0);
    left_.resize(sorted_.size() + 1);
    std::iota(left_.begin(), left_.end(), 0u);
    first_alive_.assign(begin_.begin(), begin_.end() - 1);
    heavy_.clear();
    light_.clear();
    for (std::uint32_t p = 0; p < num_pes(); ++p) {
        if (load_[p] > limit_)
            heavy_.set(PeId(p), load_[p]);
        else
            update_light(PeId(p));
    }
    while (!heavy_.empty()) {
        const PeId donor = heavy_.pop();
        TaskId t;
        PeId receiver;
        if (!picker.pick(*this, donor, t, receiver)) return false;
        move(t, donor, receiver);
    }
    return true;
}

bool LargestTaskPicker::pick(const RefineState& s, PeId donor, TaskId& task, PeId& receiver) const {
    if (s.light().empty()) return false;
    const PeId r = s.light().top();
    bool found = false;
    s.for_each_fitting(donor, r, [&](TaskId t) {
        task = t;
        found = true;
        return false;
    });
    receiver = r;
    return found;
}

void check_refine_options(const StrategyOptions& options) {
    if (!std::isfinite(options.refine_tolerance) || options.refine_tolerance < 1)
        throw UsageError(fmt::format("the refine tolerance must be a finite number >= 1, not {}",
                                     options.refine_tolerance));
    // Below 1e-6 the search would count more steps than it can index.
    if (!std::isfinite(options.refine_step) || !(options.refine_step >= 1e-6))
        throw UsageError(fmt::format("the refine step must be a finite number >= 1e-6, not {}",
                                     options.refine_step));
}

RefineResult multirefine(const BalanceInput& in, const StrategyOptions& options,
                         const MovePicker& picker) {
    RefineState state(in);
    RefineResult result;
    result.mapping.assign(in.mapping.begin(), in.mapping.end());
    const double avg = state.average();
    if (!(avg > 0)) return result; // no work: nothing to balance
    const double start = options.refine_tolerance, step = options.refine_step;
    ++result.passes;
    if (state.refine(start, picker)) {
        result.mapping.assign(state.mapping().begin(), state.mapping().end());
        result.tolerance = start;
        return result;
    }
    // The input's max/avg: at that tolerance nothing is heavy, nothing moves.
    const std::vector<double> loads = pe_loads(in, in.mapping);
    const double ratio = *std::max_element(loads.begin(), loads.end()) / avg;
    result.tolerance = ratio;
    // Bisect k in (lo, hi]: lo fails, hi = the first step at or above max/avg.
    std::uint64_t lo = 0;
    std::uint64_t hi = static_cast<std::uint64_t>(std::max(0.0, (ratio - start) / step)) + 1;
    while (hi - lo > 1) {
        const std::uint64_t k = lo + (hi - lo) / 2;
        const double tolerance = start + static_cast<double>(k) * step;
        ++result.passes;
        if (state.refine(tolerance, picker)) {
            hi = k;
            result.mapping.assign(state.mapping().begin(), state.mapping().end());
            result.tolerance = tolerance;
        } else {
            lo = k;
        }
    }
    return result;
}

} // namespace balance

namespace {

class Refine final : public Strategy {
public:
    explicit Refine(const StrategyOptions& options) : options_(options) {
        balance::check_refine_options(options);
    }
    std::string_view name() const override { return "refine-heap"; }
    bool distributed() const override { return false; }

    BalanceOutcome balance(const BalanceInput& in) const override {
        check_balance_input(in);
        BalanceOutcome out;
        out.mapping = balance::multirefine(in, options_, balance::LargestTaskPicker()).mapping;
        return out;
    }

private:
    StrategyOptions options_;
};

} // namespace

std::unique_ptr<Strategy> make_refine_heap(const StrategyOptions& options) {
    return std::make_unique<Refine>(options);
}

} // namespace nettopo
