// The k-ary n-fly (Dally & Towles, ch. 4): k^n hosts, n stages of k^(n-1)
// switches of radix 2k. Switch addresses are n-1 base-k digits; the link
// from stage s to stage s+1 replaces digit s. Host i enters stage 0 and leaves
// stage n-1 at switch floor(i/k), so the network is drawn folded: every link
// is bidirectional and each host has two (one when n = 1).
//
// Hops between hosts on switches A != B. The stages and the hosts form a
// ring: stage 0, ..., stage n-1, then the hosts, which join stage n-1 back
// to stage 0 without changing the address (two links through any host).
// Changing digit d needs the link between stages d and d+1, so a path from
// host to host is a walk around that ring from the hosts back to the hosts
// that crosses the link of every digit where A and B differ. Either it goes
// all the way round (n+1 links), or it covers the differing digits below
// some cut from the stage-0 side (2(low+1)+2 links, turning above the
// highest digit of that part) and those above it from the stage-(n-1) side
// (2(n-1-high)+2), passing from one side to the other through a host; either
// part may be empty. The hop count is the cheapest of these, found in one
// pass over the digits. (A first version took only the all-low and all-high
// cuts, wrong from n = 8: --verify found it.)
#include "families/family_limits.hpp"
#include "nettopo/families/family.hpp"

#include <algorithm>

namespace nettopo {
namespace {

class Butterfly final : public Family {
public:
    Butterfly(std::uint32_t k, std::uint32_t n) : k_(k), n_(n) {
        spec_ = fmt::format("butterfly --k {} --n {}", k, n);
        detail::require_at_least("butterfly", "--k", k, 2);
        detail::require_at_least("butterfly", "--n", n, 1);
        for (std::uint32_t i = 1; i < n; ++i)
            per_stage_ = detail::checked_mul(per_stage_, k, spec_ + ": switches per stage");
        hosts_ = detail::checked_mul(per_stage_, k, spec_ + ": machines");
        const std::uint64_t switches = detail::checked_mul(per_stage_, n, spec_ + ": switches");
        detail::checked_add(hosts_, switches, spec_ + ": vertices");
        links_ =
            n == 1 ? k : detail::checked_mul(hosts_, n + 1, spec_ + ": links", detail::max_links);
    }

    std::string spec() const override { return spec_; }
    std::uint64_t num_machines() const override { return hosts_; }
    std::uint64_t num_switches() const override { return per_stage_ * n_; }
    std::uint64_t num_links() const override { return links_; }

    std::uint32_t degree(std::uint32_t v) const override {
        if (v < hosts_) return n_ > 1 ? 2 : 1;
        return n_ > 1 ? 2 * k_ : k_;
    }

    std::uint32_t machine_hops(std::uint32_t a, std::uint32_t b) const override {
        return route_cost<std::uint32_t>(a, b, 1, 1);
    }

    // The hop count's argument holds for any link weights: a path projects
    // onto a closed walk around the ring of stages and hosts that crosses the
    // link of every differing digit, and the cheapest such walk either goes
    // round once or turns back on each side of a cut (every link used twice).
    // So the cheapest path is the cheapest of the same candidates, costed
    // with the host and switch latencies: with cheap hosts a path through a
    // host in the middle may win over fewer hops, and the other way round.
    bool has_latency_formula(const ClassLatenciesPs&) const override { return true; }
    std::int64_t machine_latency_ps(std::uint32_t a, std::uint32_t b,
                                    const ClassLatenciesPs& ps) const override {
        return route_cost<std::int64_t>(a, b, ps[static_cast<std::size_t>(LinkClass::HostSwitch)],
                                        ps[static_cast<std::size_t>(LinkClass::SwitchSwitch)]);
    }

    std::uint32_t diameter() const override { return n_ > 1 ? n_ + 1 : 2; }

    void emit(FamilySink& sink) const override {
        const auto hosts = static_cast<std::uint32_t>(hosts_);
        const auto per = static_cast<std::uint32_t>(per_stage_);
        sink.machines("n", hosts);
        for (std::uint32_t s = 0; s < n_; ++s) sink.switches(fmt::format("s{}-", s + 1), per);
        auto sw = [&](std::uint32_t stage, std::uint32_t j) { return hosts + stage * per + j; };
        for (std::uint32_t i = 0; i < hosts; ++i) {
            sink.link(i, sw(0, i / k_), LinkClass::HostSwitch);
            if (n_ > 1) sink.link(i, sw(n_ - 1, i / k_), LinkClass::HostSwitch);
        }
        std::uint32_t weight = 1; // k^s: the place of digit s
        for (std::uint32_t s = 0; s + 1 < n_; ++s, weight *= k_)
            for (std::uint32_t j = 0; j < per; ++j) {
                const std::uint32_t base = j - (j / weight % k_) * weight;
                for (std::uint32_t t = 0; t < k_; ++t)
                    sink.link(sw(s, j), sw(s + 1, base + t * weight), LinkClass::SwitchSwitch);
            }
    }

private:
    // The cheapest route from host a to host b when a host link costs `host`
    // and a switch link `link`: hops with 1 and 1.
    template <class T> T route_cost(std::uint32_t a, std::uint32_t b, T host, T link) const {
        if (a == b) return 0;
        std::uint32_t x = a / k_, y = b / k_;
        if (x == y) return 2 * host;
        // Cost of covering the differing digits up to `low` from the stage-0
        // side and from `high` up from the stage-(n-1) side; -1 / n-1: none.
        const int n = static_cast<int>(n_);
        const auto cost = [&](int low, int high) {
            return (low >= 0 ? 2 * host + static_cast<T>(2 * (low + 1)) * link : T{0}) +
                   (high < n - 1 ? 2 * host + static_cast<T>(2 * (n - 1 - high)) * link : T{0});
        };
        T best = 2 * host + static_cast<T>(n - 1) * link;
        int previous = -1; // the last differing digit seen
        for (int d = 0; x != y; ++d, x /= k_, y /= k_)
            if (x % k_ != y % k_) {
                best = std::min(best, cost(previous, d)); // cut between previous and d
                previous = d;
            }
        return std::min(best, cost(previous, n - 1));
    }

    std::uint32_t k_, n_;
    std::string spec_;
    std::uint64_t per_stage_ = 1, hosts_ = 0, links_ = 0;
};

} // namespace

std::unique_ptr<Family> make_butterfly(std::uint32_t k, std::uint32_t n) {
    return std::make_unique<Butterfly>(k, n);
}

} // namespace nettopo
