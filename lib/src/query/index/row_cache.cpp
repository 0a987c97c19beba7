// The row cache (see row_cache.hpp).
#include "query/index/row_cache.hpp"

#include "query/index/core_rows.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <mutex>

namespace nettopo::detail {

namespace {

constexpr std::uint32_t no_slot = 0xffffffffu;

struct Slot {
    std::uint32_t source = no_slot;
    bool referenced = false;
    CoreRow row;
};

// The hops (and latencies, unless uniform) of one row.
std::size_t row_data_bytes(const FoldedCore& f) {
    return std::size_t{f.num_core()} * (4 + (f.uniform_ps ? 0 : 8));
}
std::size_t row_bytes(const FoldedCore& f) {
    return row_data_bytes(f) + sizeof(Slot);
}

// Held whatever the number of rows: the per-machine table, the core graph,
// the search state and the vertex -> slot map.
std::size_t fixed_bytes(const FoldedCore& f);

class RowCache final : public FoldedIndex<RowCache> {
public:
    RowCache(FoldedCore f, std::size_t capacity)
        : FoldedIndex(f), core_(std::move(f)), search_(core_), capacity_(capacity),
          slot_of_(core_.num_core(), no_slot) {
        core_.machines = FoldedMachines();
        fixed_ = fixed_bytes(core_) + machine_bytes();
        slots_.reserve(capacity_); // slots never move: their rows are handed out by reference
    }

    std::string description() const override {
        return fmt::format("row cache: {}, up to {} row{} of {}, {}", core_summary(), capacity_,
                           capacity_ == 1 ? "" : "s", format_bytes(row_bytes(core_)),
                           format_bytes(memory_bytes()));
    }
    DistanceIndexKind kind() const override { return DistanceIndexKind::RowCache; }
    std::size_t memory_bytes() const override {
        const std::lock_guard lock(mutex_);
        return fixed_ + slots_.capacity() * sizeof(Slot) + slots_.size() * row_data_bytes(core_);
    }

    std::uint32_t core_hops(std::uint32_t u, std::uint32_t v) const {
        const std::lock_guard lock(mutex_);
        const auto [row, to] = row_for(u, v);
        return row.hops[to];
    }
    std::int64_t core_ps(std::uint32_t u, std::uint32_t v) const {
        const std::lock_guard lock(mutex_);
        const auto [row, to] = row_for(u, v);
        return core_.uniform_ps ? uniform_latency(row.hops[to], *core_.uniform_ps)
                                : row.latency_ps[to];
    }

private:
    // A row from u (to v) or from v (to u), computed if neither is cached.
    std::pair<const CoreRow&, std::uint32_t> row_for(std::uint32_t u, std::uint32_t v) const {
        for (auto [from, to] : {std::pair{u, v}, std::pair{v, u}}) {
            if (slot_of_[from] == no_slot) continue;
            Slot& s = slots_[slot_of_[from]];
            s.referenced = true;
            return {s.row, to};
        }
        return {load(u).row, v};
    }

    // Clock: the hand skips (and clears) referenced slots, evicts the first other.
    Slot& load(std::uint32_t source) const {
        std::uint32_t i;
        if (slots_.size() < capacity_) {
            i = static_cast<std::uint32_t>(slots_.size());
            slots_.emplace_back();
        } else {
            while (slots_[hand_].referenced) {
                slots_[hand_].referenced = false;
                hand_ = (hand_ + 1) % slots_.size();
            }
            i = static_cast<std::uint32_t>(hand_);
            hand_ = (hand_ + 1) % slots_.size();
            slot_of_[slots_[i].source] = no_slot;
        }
        Slot& s = slots_[i];
        search_.compute(source, s.row, !core_.uniform_ps);
        s.source = source;
        s.referenced = true;
        slot_of_[source] = i;
        return s;
    }

    FoldedCore core_; // its graph; the machines live in FoldedIndex
    std::size_t fixed_ = 0;
    mutable std::mutex mutex_;
    mutable CoreRowSearch search_;
    std::size_t capacity_;
    mutable std::vector<std::uint32_t> slot_of_; // by core vertex
    mutable std::vector<Slot> slots_;
    mutable std::size_t hand_ = 0;
};

std::size_t fixed_bytes(const FoldedCore& f) {
    return sizeof(RowCache) + f.graph_bytes() + CoreRowSearch::state_bytes(f.core) +
           std::size_t{f.num_core()} * 4;
}

} // namespace

std::size_t row_cache_min_bytes(const FoldedCore& f) {
    return fixed_bytes(f) + f.machine_bytes() + row_bytes(f);
}

std::size_t row_cache_row_bytes(const FoldedCore& f) {
    return row_bytes(f);
}

std::unique_ptr<DistanceIndex> make_row_cache(FoldedCore f, std::size_t budget_bytes) {
    const std::size_t fixed = fixed_bytes(f) + f.machine_bytes();
    const std::size_t rows = budget_bytes > fixed ? (budget_bytes - fixed) / row_bytes(f) : 0;
    const std::size_t capacity = std::clamp<std::size_t>(rows, 1, std::max(1u, f.num_core()));
    return std::make_unique<RowCache>(std::move(f), capacity);
}

} // namespace nettopo::detail
