// Extended generalized fat-trees XGFT(h; m1..mh; w1..wh) (Ohring et al.,
// 1995), and the k-ary n-tree of Petrini & Vanneschi as XGFT(n; k..k; 1,k..k).
//
// A level-l node (hosts are level 0) is labelled by h digits: positions
// i > l hold a_i < m_i (which subtree it is in), positions i <= l hold
// b_i < w_i (which of the parallel parents was taken on the way up). Its index
// is that label in mixed radix, position 1 varying fastest, so hosts under
// one leaf switch are consecutive. Its parents replace digit l+1 (a child
// digit) by each of the w_{l+1} parent digits. Two hosts meet at the lowest
// level above the highest position where their labels differ.
#include "families/family_limits.hpp"
#include "families/host_switch_latency.hpp"
#include "nettopo/families/family.hpp"

#include <algorithm>
#include <fmt/ranges.h>

namespace nettopo {
namespace {

using detail::checked_add;
using detail::checked_mul;

class Xgft final : public Family {
public:
    Xgft(std::vector<std::uint32_t> m, std::vector<std::uint32_t> w, std::string spec)
        : m_(std::move(m)), w_(std::move(w)), spec_(std::move(spec)) {
        const std::size_t h = m_.size();
        if (h == 0) throw UsageError(fmt::format("{}: no levels", spec_));
        if (w_.size() != h)
            throw UsageError(fmt::format("{}: {} child counts but {} parent counts; give h of each",
                                         spec_, h, w_.size()));
        for (std::size_t i = 0; i < h; ++i)
            if (m_[i] == 0 || w_[i] == 0)
                throw UsageError(fmt::format("{}: level {} has 0 {}", spec_, i + 1,
                                             m_[i] == 0 ? "children" : "parents"));
        // Level l has prod_{i>l} m_i * prod_{i<=l} w_i nodes.
        level_first_.assign(h + 2, 0);
        for (std::size_t l = 0; l <= h; ++l) {
            std::uint64_t count = 1;
            for (std::size_t i = 0; i < h; ++i)
                count = checked_mul(count, i < l ? w_[i] : m_[i], spec_ + ": vertices");
            level_first_[l + 1] = checked_add(level_first_[l], count, spec_ + ": vertices");
            if (l < h)
                links_ = checked_add(
                    links_, checked_mul(count, w_[l], spec_ + ": links", detail::max_links),
                    spec_ + ": links", detail::max_links);
        }
    }

    std::string spec() const override { return spec_; }
    std::uint64_t num_machines() const override { return level_size(0); }
    std::uint64_t num_switches() const override { return level_first_.back() - level_size(0); }
    std::uint64_t num_links() const override { return links_; }

    std::uint32_t degree(std::uint32_t v) const override {
        const std::size_t l = level_of(v);
        return (l < m_.size() ? w_[l] : 0) + (l > 0 ? m_[l - 1] : 0);
    }

    std::uint32_t machine_hops(std::uint32_t a, std::uint32_t b) const override {
        std::uint32_t highest = 0;
        for (std::uint32_t i = 1; i <= m_.size() && a != b; ++i) {
            if (a % m_[i - 1] != b % m_[i - 1]) highest = i;
            a /= m_[i - 1];
            b /= m_[i - 1];
        }
        return 2 * highest;
    }

    // Levels are layered: a path between hosts whose labels differ up to
    // position L goes up to level L and back, crossing every level boundary
    // below L at least twice, once each way on the shortest path. So the
    // shortest path is also the cheapest, whatever the latencies: two host
    // links and 2(L-1) switch links, even with hosts linked to several
    // switches (a path through a host only crosses more boundaries).
    bool has_latency_formula(const ClassLatenciesPs&) const override { return true; }
    std::int64_t machine_latency_ps(std::uint32_t a, std::uint32_t b,
                                    const ClassLatenciesPs& ps) const override {
        return detail::host_switch_path_latency_ps(machine_hops(a, b), ps);
    }

    std::uint32_t diameter() const override {
        std::uint32_t highest = 0;
        for (std::uint32_t i = 1; i <= m_.size(); ++i)
            if (m_[i - 1] > 1) highest = i;
        return 2 * highest;
    }

    void emit(FamilySink& sink) const override {
        sink.machines("n", static_cast<std::uint32_t>(level_size(0)));
        for (std::size_t l = 1; l <= m_.size(); ++l)
            sink.switches(fmt::format("s{}-", l), static_cast<std::uint32_t>(level_size(l)));
        std::uint64_t below = 1; // R = prod_{i<=l} w_i: weight of digit position l+1
        for (std::size_t l = 0; l < m_.size(); ++l) {
            const std::uint64_t n = level_size(l), first = level_first_[l];
            const std::uint64_t up_first = level_first_[l + 1];
            const LinkClass cls = l == 0 ? LinkClass::HostSwitch : LinkClass::SwitchSwitch;
            for (std::uint64_t x = 0; x < n; ++x) {
                const std::uint64_t lo = x % below, hi = x / below / m_[l];
                for (std::uint32_t b = 0; b < w_[l]; ++b) {
                    const std::uint64_t parent = lo + below * (b + std::uint64_t{w_[l]} * hi);
                    sink.link(static_cast<std::uint32_t>(first + x),
                              static_cast<std::uint32_t>(up_first + parent), cls);
                }
            }
            below *= w_[l];
        }
    }

private:
    std::uint64_t level_size(std::size_t l) const { return level_first_[l + 1] - level_first_[l]; }
    std::size_t level_of(std::uint32_t v) const {
        return static_cast<std::size_t>(
            std::upper_bound(level_first_.begin(), level_first_.end(), v) - level_first_.begin() -
            1);
    }

    std::vector<std::uint32_t> m_, w_;
    std::string spec_;
    std::vector<std::uint64_t> level_first_; // first vertex of each level, + the total
    std::uint64_t links_ = 0;
};

} // namespace

std::unique_ptr<Family> make_xgft(std::vector<std::uint32_t> m, std::vector<std::uint32_t> w) {
    std::string spec =
        fmt::format("fat-tree --xgft \"{};{};{}\"", m.size(), fmt::join(m, ","), fmt::join(w, ","));
    return std::make_unique<Xgft>(std::move(m), std::move(w), std::move(spec));
}

std::unique_ptr<Family> make_fat_tree(std::uint32_t k, std::uint32_t n) {
    std::string spec = fmt::format("fat-tree --k {} --n {}", k, n);
    detail::require_at_least("fat-tree", "--k", k, 2);
    detail::require_at_least("fat-tree", "--n", n, 1);
    // Check the size before building the digit vectors: n can be absurd.
    std::uint64_t hosts = 1;
    for (std::uint32_t i = 0; i < n; ++i) hosts = checked_mul(hosts, k, spec + ": machines");
    std::vector<std::uint32_t> m(n, k), w(n, k);
    w[0] = 1;
    return std::make_unique<Xgft>(std::move(m), std::move(w), std::move(spec));
}

} // namespace nettopo
