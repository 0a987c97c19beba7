// Dragonfly (Kim, Dally, Scott & Abts, ISCA 2008): g groups of a routers,
// each router with p hosts, a-1 local links (the group is a complete graph)
// and h global links.
//
// Global links, "consecutive" arrangement: group G numbers its a*h global
// ports t = r*h + j (router r, port j). With L = floor(a*h / (g-1)) links
// between every pair of groups, port t < L*(g-1) goes to group
// G + (t mod (g-1)) + 1 (mod g), where it lands on the port of the same copy
// c = t div (g-1) that points back. Rotating the groups maps the network onto
// itself. Requiring g > h keeps a router's h global links on h different
// groups, so no two routers are joined twice.
//
// Hops are those of minimal routing (local, global, local: at most 3 router
// hops). The true shortest path can be shorter by going through a third
// group; shortest_hops gives that one, what BFS finds: a router has at most
// one global link to each group (g > h), found in O(1) from the port
// arithmetic, so two routers of different groups are 1 apart when linked, 2
// when one has a link into the other's group or a third group holds a
// common global neighbour (O(h) to look), and 3 otherwise.
#include "families/family_limits.hpp"
#include "families/router_graph.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace nettopo {
namespace {

class Dragonfly final : public detail::RouterGraph {
public:
    Dragonfly(std::uint32_t a, std::uint32_t h, std::uint32_t g)
        : a_(a), h_(h), g_(g), copies_(g > 1 ? std::uint64_t{a} * h / (g - 1) : 0),
          diameter_(router_diameter()) {}

    std::uint64_t num_routers() const override { return std::uint64_t{a_} * g_; }
    std::uint64_t num_links() const override {
        return std::uint64_t{g_} * a_ * (a_ - 1) / 2 + std::uint64_t{g_} * (g_ - 1) / 2 * copies_;
    }
    HopRule hop_rule() const override { return HopRule::MinimalRouting; }

    std::uint32_t degree(std::uint32_t r) const override {
        const std::uint64_t used = copies_ * (g_ - 1), first = std::uint64_t{r % a_} * h_;
        const std::uint64_t global = first >= used ? 0 : std::min<std::uint64_t>(h_, used - first);
        return a_ - 1 + static_cast<std::uint32_t>(global);
    }

    std::uint32_t hops(std::uint32_t s, std::uint32_t t) const override {
        const std::uint32_t gs = s / a_, gt = t / a_;
        if (gs == gt) return s != t;
        const std::uint32_t o = (gt + g_ - gs) % g_;
        std::uint32_t best = 3;
        for (std::uint64_t c = 0; c < copies_ && best > 1; ++c) {
            const std::uint32_t from = gs * a_ + port_router(c * (g_ - 1) + o - 1);
            const std::uint32_t to = gt * a_ + port_router(c * (g_ - 1) + (g_ - o - 1));
            best = std::min<std::uint32_t>(best, (s != from) + 1 + (to != t));
        }
        return best;
    }

    std::uint32_t shortest_hops(std::uint32_t s, std::uint32_t t) const override {
        if (s == t) return 0;
        const std::uint32_t gs = s / a_, gt = t / a_;
        if (gs == gt) return 1;
        const std::uint32_t o = (gt + g_ - gs) % g_;
        if (const auto peer = global_peer(s, o)) return *peer == t ? 1 : 2; // then local
        if (global_peer(t, g_ - o)) return 2; // local, then global (not to s: see above)
        const std::uint64_t used = copies_ * (g_ - 1);
        for (std::uint64_t port = std::uint64_t{s % a_} * h_;
             port < std::min<std::uint64_t>(used, std::uint64_t{s % a_ + 1} * h_); ++port) {
            const auto step = static_cast<std::uint32_t>(port % (g_ - 1)) + 1;
            const std::uint32_t gw = (gs + step) % g_;
            if (gw == gt) continue;
            const std::uint32_t w =
                gw * a_ + port_router(port / (g_ - 1) * (g_ - 1) + g_ - step - 1);
            if (global_peer(w, (gt + g_ - gw) % g_) == t) return 2;
        }
        return 3;
    }

    // One latency per router link only when local and global agree (or one
    // of them has no link); otherwise the cheapest path may take more hops.
    std::optional<std::int64_t> router_link_ps(const ClassLatenciesPs& ps) const override {
        const std::int64_t local = ps[static_cast<std::size_t>(LinkClass::Local)];
        const std::int64_t global = ps[static_cast<std::size_t>(LinkClass::Global)];
        if (local < 0) return global;
        if (global < 0 || local == global) return local;
        return std::nullopt;
    }

    std::uint32_t diameter() const override { return diameter_; }
    void for_each_link(const LinkFn& fn) const override {
        for (std::uint32_t grp = 0; grp < g_; ++grp) {
            const std::uint32_t base = grp * a_;
            for (std::uint32_t x = 0; x < a_; ++x)
                for (std::uint32_t y = x + 1; y < a_; ++y) fn(base + x, base + y, LinkClass::Local);
            for (std::uint64_t t = 0; t < copies_ * (g_ - 1); ++t) {
                const auto o = static_cast<std::uint32_t>(t % (g_ - 1)) + 1;
                const std::uint32_t peer = (grp + o) % g_;
                if (peer < grp) continue; // listed from the other end
                const std::uint64_t back = t / (g_ - 1) * (g_ - 1) + (g_ - o - 1);
                fn(base + port_router(t), peer * a_ + port_router(back), LinkClass::Global);
            }
        }
    }

    // Each group's routers on a small circle, the groups on a large one;
    // machines outside their group's circle.
    Layout layout() const override {
        Layout l;
        const std::vector<PlanePoint> one_group = detail::circle_points(a_, 1);
        double group_radius = 0;
        for (const PlanePoint& p : one_group)
            group_radius = std::max(group_radius, std::hypot(p.x, p.y));
        const std::vector<PlanePoint> centres = detail::circle_points(g_, 2 * group_radius + 2.5);
        for (const PlanePoint& c : centres)
            for (const PlanePoint& p : one_group) {
                l.routers.push_back({c.x + p.x, c.y + p.y});
                l.outward.push_back(p);
            }
        return l;
    }

private:
    // Rotating the groups maps the network onto itself, so group 0 against
    // each offset o covers every pair of groups. Minimal routing takes 3 hops
    // from s to t when s has no global link to group o and t none from group
    // 0; if every source (or every destination) has one, at most 2, and 1 only
    // if every router pair is linked directly. O(g * (L + a)), not a search.
    std::uint32_t router_diameter() const {
        std::uint32_t worst = a_ > 1;
        std::vector<std::uint8_t> from(a_), to(a_);
        for (std::uint32_t o = 1; o < g_ && worst < 3; ++o) {
            std::fill(from.begin(), from.end(), 0);
            std::fill(to.begin(), to.end(), 0);
            std::uint32_t sources = 0, targets = 0;
            std::vector<std::uint8_t> linked; // router pairs, only when all could be
            if (copies_ >= std::uint64_t{a_} * a_) linked.assign(std::size_t{a_} * a_, 0);
            std::uint64_t pairs = 0;
            for (std::uint64_t c = 0; c < copies_; ++c) {
                const std::uint32_t r1 = port_router(c * (g_ - 1) + o - 1);
                const std::uint32_t r2 = port_router(c * (g_ - 1) + (g_ - o - 1));
                sources += from[r1]++ == 0;
                targets += to[r2]++ == 0;
                if (!linked.empty()) pairs += linked[std::size_t{r1} * a_ + r2]++ == 0;
            }
            if (sources < a_ && targets < a_)
                worst = 3;
            else
                worst = std::max(worst, pairs == std::uint64_t{a_} * a_ ? 1u : 2u);
        }
        return worst;
    }

    // The router of group (group of r + o) mod g that r is globally linked
    // to, if any: of r's h consecutive ports at most one is congruent to
    // o - 1 modulo g - 1 (h < g), and it is used if below L*(g-1).
    std::optional<std::uint32_t> global_peer(std::uint32_t r, std::uint32_t o) const {
        if (g_ < 2) return std::nullopt;
        const std::uint64_t m = g_ - 1, first = std::uint64_t{r % a_} * h_;
        const std::uint64_t port = first + (o - 1 + m - first % m) % m;
        if (port >= first + h_ || port >= copies_ * m) return std::nullopt;
        return (r / a_ + o) % g_ * a_ + port_router(port / m * m + (g_ - o - 1));
    }

    std::uint32_t port_router(std::uint64_t port) const {
        return static_cast<std::uint32_t>(port / h_);
    }

    std::uint32_t a_, h_, g_;
    std::uint64_t copies_; // L: global links between each pair of groups
    std::uint32_t diameter_;
};

} // namespace

std::unique_ptr<Family> make_dragonfly(std::uint32_t p, std::uint32_t a, std::uint32_t h,
                                       std::uint32_t g) {
    detail::require_at_least("dragonfly", "--p", p, 1);
    if (a == 0) a = detail::checked_mul(2, p, "dragonfly: --a");
    if (h == 0) h = p;
    const std::uint64_t most =
        detail::checked_add(detail::checked_mul(a, h, "dragonfly: a*h"), 1, "dragonfly: groups");
    if (g == 0) g = static_cast<std::uint32_t>(std::min<std::uint64_t>(most, detail::max_vertices));
    std::string spec = fmt::format("dragonfly --p {} --a {} --h {} --g {}", p, a, h, g);
    if (g > most)
        throw UsageError(fmt::format(
            "{}: g = {} groups is more than a*h+1 = {}: some pairs of groups would have no "
            "global link",
            spec, g, most));
    if (g > 1 && g <= h)
        throw UsageError(fmt::format("{}: g must be more than h = {}, so that a router's global "
                                     "links reach different groups",
                                     spec, h));
    const std::uint64_t routers = detail::checked_mul(a, g, spec + ": routers");
    const std::uint64_t local =
        detail::checked_mul(routers, a - 1, spec + ": links", detail::max_links * 2);
    const std::uint64_t global =
        detail::checked_mul(routers, h, spec + ": links", detail::max_links * 2);
    detail::checked_add(local / 2, global / 2, spec + ": links", detail::max_links);
    return detail::attach_machines(std::make_unique<Dragonfly>(a, h, g), spec, p);
}

} // namespace nettopo
