// The two simplest direct networks: the complete graph (every pair of routers
// linked) and the ring (router i linked to i+1 mod n; a ring of two is one
// link, not two parallel ones).
#include "families/family_limits.hpp"
#include "families/router_graph.hpp"

#include <algorithm>

namespace nettopo {
namespace {

// Routers on a circle, their machines outside it.
detail::RouterGraph::Layout on_circle(std::uint32_t n, double spacing) {
    detail::RouterGraph::Layout l;
    l.routers = detail::circle_points(n, spacing);
    l.outward = l.routers;
    return l;
}

class Complete final : public detail::RouterGraph {
public:
    explicit Complete(std::uint32_t n) : n_(n) {}
    std::uint64_t num_routers() const override { return n_; }
    std::uint64_t num_links() const override { return std::uint64_t{n_} * (n_ - 1) / 2; }
    std::uint32_t degree(std::uint32_t) const override { return n_ - 1; }
    std::uint32_t hops(std::uint32_t a, std::uint32_t b) const override { return a != b; }
    std::uint32_t diameter() const override { return n_ > 1; }
    void for_each_link(const LinkFn& fn) const override {
        for (std::uint32_t a = 0; a < n_; ++a)
            for (std::uint32_t b = a + 1; b < n_; ++b) fn(a, b, LinkClass::SwitchSwitch);
    }

    Layout layout() const override { return on_circle(n_, 1.4); }

private:
    std::uint32_t n_;
};

class Ring final : public detail::RouterGraph {
public:
    explicit Ring(std::uint32_t n) : n_(n) {}
    std::uint64_t num_routers() const override { return n_; }
    std::uint64_t num_links() const override { return n_ >= 3 ? n_ : n_ - 1; }
    std::uint32_t degree(std::uint32_t) const override { return std::min(n_ - 1, 2u); }
    std::uint32_t hops(std::uint32_t a, std::uint32_t b) const override {
        const std::uint32_t d = a > b ? a - b : b - a;
        return std::min(d, n_ - d);
    }
    std::uint32_t diameter() const override { return n_ / 2; }
    void for_each_link(const LinkFn& fn) const override {
        for (std::uint32_t a = 0; a + 1 < n_; ++a) fn(a, a + 1, LinkClass::SwitchSwitch);
        if (n_ >= 3) fn(0, n_ - 1, LinkClass::SwitchSwitch);
    }
    Layout layout() const override { return on_circle(n_, 1); }

private:
    std::uint32_t n_;
};

std::string spec_of(std::string_view family, std::uint32_t n, std::uint32_t concentration) {
    std::string spec =
        detail::direct_spec(fmt::format("{} --machines {}", family, n), concentration);
    detail::require_at_least(family, "--machines", n, 1);
    return spec;
}

} // namespace

std::unique_ptr<Family> make_complete(std::uint32_t machines, std::uint32_t concentration) {
    std::string spec = spec_of("complete", machines, concentration);
    auto graph = std::make_unique<Complete>(machines);
    if (graph->num_links() > detail::max_links)
        throw UsageError(
            fmt::format("{}: {} links, beyond nettopo's 32-bit ids", spec, graph->num_links()));
    return detail::attach_machines(std::move(graph), spec, concentration);
}

std::unique_ptr<Family> make_ring(std::uint32_t machines, std::uint32_t concentration) {
    std::string spec = spec_of("ring", machines, concentration);
    return detail::attach_machines(std::make_unique<Ring>(machines), spec, concentration);
}

} // namespace nettopo
