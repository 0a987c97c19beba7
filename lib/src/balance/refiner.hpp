// RefineLB's machinery (Charm++ src/ck-ldb/Refiner.C), shared by refine and
// topo-refine: one refinement pass at a tolerance, and the search over
// tolerances. The two strategies differ only in which move they pick out of
// a heavy PE (MovePicker); whatever they pick, a move goes from a PE above
// tolerance x average to one that stays below it, so the maximum load never
// grows.
#pragma once

#include "balance/pe_heap.hpp"
#include "nettopo/balance/balance.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace nettopo::balance {

class RefineState;

// Chooses the task to move out of a heavy donor and the light PE to take it;
// false when no light PE can take any of the donor's tasks.
class MovePicker {
public:
    virtual ~MovePicker() = default;
    virtual bool pick(const RefineState& s, PeId donor, TaskId& task, PeId& receiver) const = 0;
};

// Refine's own choice: the largest task that some light PE can take, onto
// the light PE with the most room.
class LargestTaskPicker final : public MovePicker {
public:
    bool pick(const RefineState& s, PeId donor, TaskId& task, PeId& receiver) const override;
};

class RefineState {
public:
    explicit RefineState(const BalanceInput& in);

    // Refiner::refine at `tolerance`, started afresh from the input mapping:
    // the heaviest PE above tolerance x average gives one task to a light PE
    // (below the average) that stays below tolerance x average, until no PE
    // is above it (true) or the heaviest cannot give (false; the moves made
    // so far stay, and none of them raised the maximum).
    bool refine(double tolerance, const MovePicker& picker);

    const BalanceInput& input() const { return in_; }
    std::uint32_t num_pes() const { return static_cast<std::uint32_t>(load_.size()); }
    // Total work / total speed: the load at which every PE would finish together.
    double average() const { return average_; }
    double max_load() const;
    double load(PeId p) const { return load_[p.value]; }
    double speed(PeId p) const { return speed_[p.value]; }
    std::span<const PeId> mapping() const { return mapping_; }
    // tolerance x average of the pass running.
    double limit() const { return limit_; }
    // Light PEs keyed by their room: how much work (at speed 1) they take
    // before reaching the limit.
    const PeHeap<Order::Max>& light() const { return light_; }
    bool fits(TaskId t, PeId r) const {
        return in_.task_loads[t.value] / speed_[r.value] + load_[r.value] < limit_;
    }

    // f(task) on the donor's tasks still on it that fit on r, heaviest
    // first (ties: lower id first), until f returns false.
    template <class F> void for_each_fitting(PeId donor, PeId r, F f) const {
        const std::uint32_t lo = begin_[donor.value];
        std::uint32_t hi = begin_[donor.value + 1];
        // The donor's tasks are sorted by load: binary search the fitting prefix.
        std::uint32_t a = lo;
        while (a < hi) {
            const std::uint32_t mid = a + (hi - a) / 2;
            if (fits(TaskId(sorted_[mid]), r))
                a = mid + 1;
            else
                hi = mid;
        }
        for (std::uint32_t j = alive_at_or_before(a, lo); j != none; j = alive_at_or_before(j, lo))
            if (!f(TaskId(sorted_[j]))) return;
    }
    // The lightest task still on the donor; invalid when it has none left.
    TaskId lightest_task(PeId donor) const;

private:
    static constexpr std::uint32_t none = 0xffffffffu;
    // The largest alive position < end and >= lo, or none.
    std::uint32_t alive_at_or_before(std::uint32_t end, std::uint32_t lo) const;
    void move(TaskId t, PeId donor, PeId receiver);
    void update_light(PeId p);

    const BalanceInput& in_;
    double average_ = 0, limit_ = 0;
    std::vector<double> initial_load_, load_, speed_; // per PE
    std::vector<PeId> mapping_;                       // per task
    // Tasks grouped by their input PE, lightest first (ties: higher id
    // first, so the walk from the heavy end meets lower ids first); PE p's
    // are sorted_[begin_[p] .. begin_[p+1]).
    std::vector<std::uint32_t> sorted_, begin_, pos_of_task_;
    // Removal only, during a pass: left_[i + 1] leads to the nearest
    // position <= i still on its PE (0: none), path-compressed;
    // first_alive_ per PE only moves right.
    mutable std::vector<std::uint32_t> left_, first_alive_;
    std::vector<std::uint8_t> moved_; // per position
    PeHeap<Order::Max> heavy_, light_;
};

struct RefineResult {
    std::vector<PeId> mapping;
    double tolerance = 0; // the one the mapping was refined to (max/avg if nothing moved)
    std::uint32_t passes = 0;
};

// Refiner::multirefine: refine at options.refine_tolerance; if that fails,
// search the smallest tolerance tolerance + k x refine_step (k up to where
// it reaches max/avg) at which a pass succeeds, each pass from the input
// mapping. Charm++ bisects on k, assuming a larger tolerance never fails
// where a smaller one succeeded; so do we, but we keep the mapping of the
// smallest successful pass (Charm++ keeps whichever pass ran last, which
// may be a failed one).
// UsageError unless refine_tolerance >= 1 and refine_step > 0, both finite.
void check_refine_options(const StrategyOptions& options);

RefineResult multirefine(const BalanceInput& in, const StrategyOptions& options,
                         const MovePicker& picker);

} // namespace nettopo::balance
