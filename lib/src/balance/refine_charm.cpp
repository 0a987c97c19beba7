// RefineLB as Charm++ 6.7.1-6.8.2 runs it (src/ck-ldb/RefineLB.C over
// Refiner.C and its containers ckset.C and ckheap.C; tag v6.8.1, commit
// e212121): the `refine` strategy. refine.cpp keeps nettopo's faster variant
// as `refine-heap`.
//
// The tolerance (1.05) and its step (0.01) are StrategyOptions'
// refine_tolerance and refine_step, as for refine-heap.
//
// Refiner::Refine assigns every task to its PE in task order; a PE's task
// set is a list that inserts at its head, so it is walked newest first.
// multirefine(reset = true) runs refine() at tolerance 1.05; if that fails,
// at 1.05 + 0.01 k_max, k_max = (int)((max/avg - 1.05) / 0.01 + 1), on what
// the failed pass left; then, while the bracket is wider than one step, a
// bisection whose probes restart from the input. The result is whatever
// the last pass left, failed or not.
//
// refine(): heavy PEs (load > tolerance x avg) in Charm++'s max-heap, light
// ones (load < avg) in a list inserted at its head, in PE order. The
// heaviest PE gives the largest task (as measured: its wall time on the PE
// it started the step on) that fits some light PE, i.e. whose load there
// keeps it under tolerance x avg; the receiver is the first light PE of the
// list on which that task fits. A receiver above avg leaves the list; the
// donor goes back to the heap if still heavy, to the head of the list if
// light. A donor with no such task ends the pass as failed.
//
// Kept from Charm++ on purpose: a task of load 0 never moves (bestSize
// starts at 0 with a strict >); a PE that held no task at the start keeps,
// after a reset, the load the previous probe left it (reset reassigns only
// the tasks, and a PE's load is recomputed only when it gets one).
//
// Speeds (Refiner.C since 6.7.1): a task measured w seconds on the PE it
// started on costs w x speed(start) / speed(p) on PE p; the average is the
// sum of measured times over the PEs. Here w = load / speed(start), so a
// task costs load / speed(p), as in pe_loads.
//
// Cost: Refiner scans every light PE for every donor task, O(P x tasks) per
// move. With equal speeds a task fits some light PE exactly when it fits
// the lightest (floating-point addition is monotonic), so the pair is found
// in O(light PEs + donor tasks); with speeds the scan is Charm++'s own.
// Both give the same pair (tested).
#include "balance/refine_charm.hpp"

#include "balance/refiner.hpp"
#include "balance/strategies.hpp"

#include <algorithm>

namespace nettopo {

namespace balance {

namespace {

constexpr std::uint32_t none = 0xffffffffu;

// ckheap.C's maxHeap over PE ids, keyed by their current load, with its
// exact sift rules (ties keep the order they give).
class CharmMaxHeap {
public:
    explicit CharmMaxHeap(const std::vector<double>& load) : load_(&load) {}
    void clear() { h_.clear(); }
    void insert(std::uint32_t pe) {
        h_.push_back(pe);
        std::size_t cur = h_.size() - 1;
        while (cur != 0) {
            const std::size_t parent = (cur - 1) / 2;
            if (!(at(cur) > at(parent))) break;
            std::swap(h_[cur], h_[parent]);
            cur = parent;
        }
    }
    std::uint32_t delete_max() {
        if (h_.empty()) return none;
        const std::uint32_t top = h_[0];
        h_[0] = h_.back();
        h_.pop_back();
        std::size_t cur = 0;
        for (std::size_t c1 = 1; c1 < h_.size(); c1 = 2 * cur + 1) {
            const std::size_t c2 = c1 + 1;
            const std::size_t best = c2 >= h_.size() ? c1 : at(c1) > at(c2) ? c1 : c2;
            if (!(at(best) > at(cur))) break;
            std::swap(h_[best], h_[cur]);
            cur = best;
        }
        return top;
    }

private:
    double at(std::size_t i) const { return (*load_)[h_[i]]; }
    const std::vector<double>* load_;
    std::vector<std::uint32_t> h_;
};

// A list of ids that inserts at its head (ckset.C's Set), doubly linked
// over flat arrays.
class HeadList {
public:
    explicit HeadList(std::size_t n) : next_(n, none), prev_(n, none), in_(n, 0) {}
    void clear() {
        for (std::uint32_t x = head_; x != none;) {
            const std::uint32_t n = next_[x];
            in_[x] = 0;
            next_[x] = prev_[x] = none;
            x = n;
        }
        head_ = none;
    }
    void insert(std::uint32_t x) {
        if (in_[x]) return;
        in_[x] = 1;
        prev_[x] = none;
        next_[x] = head_;
        if (head_ != none) prev_[head_] = x;
        head_ = x;
    }
    void remove(std::uint32_t x) {
        if (!in_[x]) return;
        in_[x] = 0;
        if (prev_[x] != none)
            next_[prev_[x]] = next_[x];
        else
            head_ = next_[x];
        if (next_[x] != none) prev_[next_[x]] = prev_[x];
        next_[x] = prev_[x] = none;
    }
    std::uint32_t head() const { return head_; }
    std::uint32_t next(std::uint32_t x) const { return next_[x]; }

private:
    std::vector<std::uint32_t> next_, prev_;
    std::vector<std::uint8_t> in_;
    std::uint32_t head_ = none;
};

class CharmRefiner {
public:
    CharmRefiner(const BalanceInput& in, double start, double step, bool exhaustive)
        : in_(in), start_(start), step_(step), P_(in.comm_model.cluster().num_pes()),
          n_(static_cast<std::uint32_t>(in.task_loads.size())), exhaustive_(exhaustive),
          speed_(P_, 1.0), load_(P_, 0.0), wall_(n_), processor_(n_), heap_(load_), light_(P_),
          head_(P_, none), next_(n_, none), prev_(n_, none) {
        if (!in.pe_speeds.empty()) {
            speed_.assign(in.pe_speeds.begin(), in.pe_speeds.end());
            for (double s : speed_) same_speed_ = same_speed_ && s == speed_[0];
        }
        double total = 0;
        for (std::uint32_t t = 0; t < n_; ++t) {
            wall_[t] = in.task_loads[t] / speed_[old(t)];
            total += wall_[t];
        }
        avg_ = total / P_;
        assign_all();
    }

    std::vector<PeId> run() {
        double max = -1.0;
        for (double l : load_) max = std::max(max, l);
        const double step = step_, start = start_;
        int lo = 0;
        int hi = static_cast<int>((max / avg_ - start) / step + 1);
        bool done = false;
        if (refine(lo * step + start)) {
            done = true;
        } else if (!refine(hi * step + start)) {
            done = true; // Charm++ prints "Could not refine at max overload"
        }
        while (!done) {
            if (hi - lo <= 1) break;
            const int cur = (hi + lo) / 2;
            assign_all(); // reset = true
            if (refine(cur * step + start))
                hi = cur;
            else
                lo = cur;
        }
        std::vector<PeId> mapping(n_);
        for (std::uint32_t t = 0; t < n_; ++t) mapping[t] = PeId(processor_[t]);
        return mapping;
    }

private:
    std::uint32_t old(std::uint32_t t) const { return in_.mapping[t].value; }
    double cost_on(std::uint32_t t, std::uint32_t p) const {
        return wall_[t] * (speed_[old(t)] / speed_[p]);
    }

    // Refiner::Refine's initial assignment, and multirefine's reset.
    void assign_all() {
        std::vector<double> compute(P_, 0.0);
        std::fill(head_.begin(), head_.end(), none);
        for (std::uint32_t t = 0; t < n_; ++t) {
            const std::uint32_t p = old(t);
            link(t, p);
            compute[p] += cost_on(t, p);
            load_[p] = compute[p]; // only PEs that get a task
        }
        compute_ = std::move(compute);
    }
    void link(std::uint32_t t, std::uint32_t p) {
        processor_[t] = p;
        prev_[t] = none;
        next_[t] = head_[p];
        if (head_[p] != none) prev_[head_[p]] = t;
        head_[p] = t;
    }
    void unlink(std::uint32_t t, std::uint32_t p) {
        if (prev_[t] != none)
            next_[prev_[t]] = next_[t];
        else
            head_[p] = next_[t];
        if (next_[t] != none) prev_[next_[t]] = prev_[t];
    }
    void move(std::uint32_t t, std::uint32_t from, std::uint32_t to) {
        unlink(t, from);
        compute_[from] -= cost_on(t, from);
        load_[from] = compute_[from];
        link(t, to);
        compute_[to] += cost_on(t, to);
        load_[to] = compute_[to];
    }

    // The pair Refiner's double loop keeps: light PEs outer, the donor's
    // tasks inner, the first pair with the largest measured load that fits.
    bool best_pair(std::uint32_t donor, double cap, std::uint32_t& task, std::uint32_t& to) const {
        double best = 0;
        task = to = none;
        if (exhaustive_ || !same_speed_) {
            for (std::uint32_t p = light_.head(); p != none; p = light_.next(p))
                for (std::uint32_t t = head_[donor]; t != none; t = next_[t])
                    if (cost_on(t, p) + load_[p] < cap && wall_[t] > best) {
                        best = wall_[t];
                        task = t;
                        to = p;
                    }
            return task != none;
        }
        double lightest = 0;
        bool any = false;
        for (std::uint32_t p = light_.head(); p != none; p = light_.next(p))
            if (!any || load_[p] < lightest) {
                lightest = load_[p];
                any = true;
            }
        if (!any) return false;
        for (std::uint32_t t = head_[donor]; t != none; t = next_[t])
            if (wall_[t] + lightest < cap && wall_[t] > best) {
                best = wall_[t];
                task = t;
            }
        if (task == none) return false;
        for (std::uint32_t p = light_.head(); p != none; p = light_.next(p))
            if (best + load_[p] < cap) {
                to = p;
                break;
            }
        return true;
    }

    bool refine(double overload) {
        const double cap = overload * avg_;
        heap_.clear();
        light_.clear();
        for (std::uint32_t p = 0; p < P_; ++p) {
            if (load_[p] > cap)
                heap_.insert(p);
            else if (load_[p] < avg_)
                light_.insert(p);
        }
        for (;;) {
            const std::uint32_t donor = heap_.delete_max();
            if (donor == none) return true;
            std::uint32_t t, to;
            if (!best_pair(donor, cap, t, to)) return false;
            move(t, donor, to);
            if (load_[to] > avg_) light_.remove(to);
            if (load_[donor] > cap)
                heap_.insert(donor);
            else if (load_[donor] < avg_)
                light_.insert(donor);
        }
    }

    const BalanceInput& in_;
    double start_, step_;
    std::uint32_t P_, n_;
    bool exhaustive_, same_speed_ = true;
    std::vector<double> speed_, load_, compute_, wall_;
    std::vector<std::uint32_t> processor_;
    double avg_ = 0;
    CharmMaxHeap heap_;
    HeadList light_;
    std::vector<std::uint32_t> head_, next_, prev_; // each PE's tasks, newest first
};

} // namespace

std::vector<PeId> charm_refine(const BalanceInput& in, const StrategyOptions& options,
                               bool exhaustive) {
    check_refine_options(options);
    check_balance_input(in);
    const std::uint32_t P = in.comm_model.cluster().num_pes();
    if (in.task_loads.empty() || P == 0) return {in.mapping.begin(), in.mapping.end()};
    double total = 0;
    for (double l : in.task_loads) total += l;
    if (!(total > 0)) return {in.mapping.begin(), in.mapping.end()};
    return CharmRefiner(in, options.refine_tolerance, options.refine_step, exhaustive).run();
}

} // namespace balance

namespace {

class CharmRefine final : public Strategy {
public:
    explicit CharmRefine(const StrategyOptions& options) : options_(options) {
        balance::check_refine_options(options);
    }
    std::string_view name() const override { return "refine"; }
    bool distributed() const override { return false; }
    BalanceOutcome balance(const BalanceInput& in) const override {
        BalanceOutcome out;
        out.mapping = balance::charm_refine(in, options_, false);
        return out;
    }

private:
    StrategyOptions options_;
};

} // namespace

std::unique_ptr<Strategy> make_refine_charm(const StrategyOptions& options) {
    return std::make_unique<CharmRefine>(options);
}

} // namespace nettopo
