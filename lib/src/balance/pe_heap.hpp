// PE priority structures shared by the centralised strategies.
//
// PeHeap: an indexed binary heap of PEs keyed by a double (a load, a spare
// capacity), so a strategy can change any PE's key in O(log P) instead of
// rebuilding; ties go to the lower PE id, which keeps every strategy
// deterministic. LeastLoadAfter: Greedy's "where does this task end lightest"
// query on PEs of different speeds, used by greedy and topo-greedy.
#pragma once

#include "nettopo/balance/balance.hpp"
#include "nettopo/support/ids.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

namespace nettopo::balance {

// Task ids heaviest first, ties by lower id: Greedy's placement order.
inline std::vector<std::uint32_t> heaviest_first(std::span<const double> loads) {
    std::vector<std::uint32_t> order(loads.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return loads[a] != loads[b] ? loads[a] > loads[b] : a < b;
    });
    return order;
}

// Total work / total speed: the load at which every PE would finish
// together, the "average" the strategies balance towards.
inline double balanced_load(const BalanceInput& in) {
    const double work = std::accumulate(in.task_loads.begin(), in.task_loads.end(), 0.0);
    const double speed = in.pe_speeds.empty()
                             ? double(in.comm_model.cluster().num_pes())
                             : std::accumulate(in.pe_speeds.begin(), in.pe_speeds.end(), 0.0);
    return speed > 0 ? work / speed : 0;
}

// Order::Min pops the smallest key first, Order::Max the largest.
enum class Order : std::uint8_t { Min, Max };

template <Order order> class PeHeap {
public:
    static constexpr std::uint32_t absent = 0xffffffffu;

    explicit PeHeap(std::uint32_t num_pes) : key_(num_pes, 0.0), slot_(num_pes, absent) {}

    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }
    bool contains(PeId p) const { return slot_[p.value] != absent; }
    double key(PeId p) const { return key_[p.value]; }
    PeId top() const { return PeId(heap_.front()); }

    // Inserts p, or changes its key when it is already in.
    void set(PeId p, double key) {
        if (!contains(p)) {
            key_[p.value] = key;
            slot_[p.value] = static_cast<std::uint32_t>(heap_.size());
            heap_.push_back(p.value);
            up(slot_[p.value]);
            return;
        }
        key_[p.value] = key;
        up(slot_[p.value]);
        down(slot_[p.value]);
    }
    PeId pop() {
        const PeId p = top();
        erase(p);
        return p;
    }
    void erase(PeId p) {
        const std::uint32_t i = slot_[p.value];
        if (i == absent) return;
        const std::uint32_t last = heap_.back();
        heap_.pop_back();
        slot_[p.value] = absent;
        if (last == p.value) return;
        heap_[i] = last;
        slot_[last] = i;
        up(i);
        down(slot_[last]);
    }
    void clear() {
        for (std::uint32_t p : heap_) slot_[p] = absent;
        heap_.clear();
    }

private:
    bool before(std::uint32_t a, std::uint32_t b) const {
        if (key_[a] != key_[b]) return order == Order::Min ? key_[a] < key_[b] : key_[a] > key_[b];
        return a < b;
    }
    void place(std::uint32_t i, std::uint32_t p) {
        heap_[i] = p;
        slot_[p] = i;
    }
    void up(std::uint32_t i) {
        const std::uint32_t p = heap_[i];
        while (i > 0) {
            const std::uint32_t parent = (i - 1) / 2;
            if (!before(p, heap_[parent])) break;
            place(i, heap_[parent]);
            i = parent;
        }
        place(i, p);
    }
    void down(std::uint32_t i) {
        const std::uint32_t p = heap_[i];
        const std::uint32_t n = static_cast<std::uint32_t>(heap_.size());
        for (;;) {
            std::uint32_t child = 2 * i + 1;
            if (child >= n) break;
            if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
            if (!before(heap_[child], p)) break;
            place(i, heap_[child]);
            i = child;
        }
        place(i, p);
    }

    std::vector<double> key_;         // per PE
    std::vector<std::uint32_t> slot_; // per PE, its index in heap_ or absent
    std::vector<std::uint32_t> heap_; // PE ids
};

// PE loads (work / speed) during a placement, and the PE on which a task of
// `work` would end with the least load. PEs are grouped by speed, one
// min-heap per distinct speed: inside a group the least-loaded PE is also the
// one that ends least loaded, so a query looks at one PE per group,
// O(S + log P) for S distinct speeds (S = 1 when speeds are equal).
class LeastLoadAfter {
public:
    // Speeds empty: all 1. Starts with every PE empty.
    LeastLoadAfter(std::uint32_t num_pes, std::span<const double> speeds)
        : load_(num_pes, 0.0), speed_(num_pes, 1.0), group_of_(num_pes, 0), local_(num_pes, 0) {
        if (!speeds.empty()) speed_.assign(speeds.begin(), speeds.end());
        std::vector<double> distinct = speed_;
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        members_.resize(distinct.size());
        for (std::uint32_t p = 0; p < num_pes; ++p) {
            const auto g = static_cast<std::uint32_t>(
                std::lower_bound(distinct.begin(), distinct.end(), speed_[p]) - distinct.begin());
            group_of_[p] = g;
            local_[p] = static_cast<std::uint32_t>(members_[g].size());
            members_[g].push_back(PeId(p));
        }
        // Heaps over local indexes (increasing with the PE id, so ties still
        // go to the lower PE): memory O(P) whatever the number of groups.
        for (const std::vector<PeId>& m : members_) {
            groups_.emplace_back(static_cast<std::uint32_t>(m.size()));
            for (std::uint32_t i = 0; i < m.size(); ++i) groups_.back().set(PeId(i), 0.0);
        }
    }

    double load(PeId p) const { return load_[p.value]; }
    double speed(PeId p) const { return speed_[p.value]; }
    double load_after(PeId p, double work) const { return load_[p.value] + work / speed_[p.value]; }
    std::span<const double> loads() const { return load_; }

    // The PE ending least loaded with `work` on it; the lower id on ties.
    PeId best_for(double work) const {
        PeId best;
        double best_after = 0;
        for (std::size_t g = 0; g < groups_.size(); ++g) {
            const PeId p = members_[g][groups_[g].top().value];
            const double after = load_after(p, work);
            if (!best.valid() || after < best_after || (after == best_after && p < best)) {
                best = p;
                best_after = after;
            }
        }
        return best;
    }
    void add(PeId p, double work) {
        load_[p.value] += work / speed_[p.value];
        groups_[group_of_[p.value]].set(PeId(local_[p.value]), load_[p.value]);
    }

private:
    std::vector<double> load_, speed_;
    std::vector<std::uint32_t> group_of_, local_; // per PE: its speed group, its index there
    std::vector<std::vector<PeId>> members_;      // per group, its PEs in increasing id
    std::vector<PeHeap<Order::Min>> groups_;      // per group, keyed by load
};

} // namespace nettopo::balance
