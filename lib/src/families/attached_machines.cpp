// Machines on routers: the one rule every router-based family shares for
// naming, degrees and host-to-host hops.
#include "families/family_limits.hpp"
#include "families/router_graph.hpp"
#include "nettopo/support/limits.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace nettopo::detail {
namespace {

class AttachedMachines final : public Family {
public:
    AttachedMachines(std::unique_ptr<RouterGraph> graph, std::string spec, std::uint32_t c)
        : graph_(std::move(graph)), spec_(std::move(spec)), c_(c) {
        const std::uint64_t routers = graph_->num_routers();
        if (c_ == 0) {
            machines_ = routers;
        } else {
            machines_ = checked_mul(routers, c_, fmt::format("{}: machines", spec_));
            switches_ = routers;
        }
        checked_add(machines_, switches_, fmt::format("{}: machines and switches", spec_));
        links_ = checked_add(graph_->num_links(), c_ ? machines_ : 0,
                             fmt::format("{}: links", spec_), max_links);
    }

    std::string spec() const override { return spec_; }
    std::uint64_t num_machines() const override { return machines_; }
    std::uint64_t num_switches() const override { return switches_; }
    std::uint64_t num_links() const override { return links_; }
    HopRule hop_rule() const override { return graph_->hop_rule(); }

    std::uint32_t degree(std::uint32_t v) const override {
        if (c_ == 0) return graph_->degree(v);
        if (v < machines_) return 1;
        return graph_->degree(v - static_cast<std::uint32_t>(machines_)) + c_;
    }

    std::uint32_t machine_hops(std::uint32_t a, std::uint32_t b) const override {
        if (a == b) return 0;
        if (c_ == 0) return graph_->hops(a, b);
        const std::uint32_t ra = a / c_, rb = b / c_;
        return ra == rb ? 2 : graph_->hops(ra, rb) + 2;
    }

    std::uint32_t shortest_hops(std::uint32_t a, std::uint32_t b) const override {
        if (a == b) return 0;
        if (c_ == 0) return graph_->shortest_hops(a, b);
        const std::uint32_t ra = a / c_, rb = b / c_;
        return ra == rb ? 2 : graph_->shortest_hops(ra, rb) + 2;
    }

    // Machines on routers have one link each, so no path passes through one:
    // a path is the two host links and a router path, which costs the router
    // hop count times the router links' one latency.
    // Finding G2 (issue 15): a 9.3 M-hop path of 1 s links passes int64
    // picoseconds; the formula holds only where the longest path's sum fits
    // (limits.hpp), and a sum that does not fit is never computed.
    bool has_latency_formula(const ClassLatenciesPs& ps) const override {
        const std::optional<std::int64_t> router = graph_->router_link_ps(ps);
        return router && latency_sum_ps(graph_->diameter(), *router, hosts_ps(ps));
    }

    std::int64_t machine_latency_ps(std::uint32_t a, std::uint32_t b,
                                    const ClassLatenciesPs& ps) const override {
        if (a == b) return 0;
        const std::optional<std::int64_t> router = graph_->router_link_ps(ps);
        if (!router) return -1;
        if (c_ == 0) return latency_sum_ps(graph_->shortest_hops(a, b), *router, 0).value_or(-1);
        const std::uint32_t ra = a / c_, rb = b / c_;
        return latency_sum_ps(ra == rb ? 0 : graph_->shortest_hops(ra, rb), *router, hosts_ps(ps))
            .value_or(-1);
    }

    // The two host links of a path between machines on routers.
    std::int64_t hosts_ps(const ClassLatenciesPs& ps) const {
        return c_ == 0 ? 0 : 2 * ps[static_cast<std::size_t>(LinkClass::HostSwitch)];
    }

    std::uint32_t diameter() const override {
        const bool many_routers = graph_->num_routers() > 1;
        if (c_ == 0) return many_routers ? graph_->diameter() : 0;
        if (many_routers) return graph_->diameter() + 2;
        return c_ > 1 ? 2 : 0;
    }

    void emit(FamilySink& sink) const override {
        const auto m = static_cast<std::uint32_t>(machines_);
        sink.machines("n", m);
        if (c_ == 0) {
            graph_->for_each_link(
                [&](std::uint32_t a, std::uint32_t b, LinkClass k) { sink.link(a, b, k); });
            return;
        }
        sink.switches("r", static_cast<std::uint32_t>(switches_));
        for (std::uint32_t i = 0; i < m; ++i) sink.link(i, m + i / c_, LinkClass::HostSwitch);
        graph_->for_each_link(
            [&](std::uint32_t a, std::uint32_t b, LinkClass k) { sink.link(m + a, m + b, k); });
    }

    // The routers' drawing; machines around their router on arcs of 64
    // degrees about its outward direction, 0.45 steps apart along an arc and
    // from one arc to the next (so that an outer arc holds more, and its
    // links pass between the machines of the inner ones), the routers
    // spread apart by as much as the arcs take.
    std::vector<PlanePoint> layout() const override {
        RouterGraph::Layout g = graph_->layout();
        if (g.routers.empty() || c_ == 0) return std::move(g.routers);
        constexpr double span = 64 * std::numbers::pi / 180, first = 0.8, apart = 0.45;
        struct Arc {
            double radius;
            std::uint32_t count, capacity;
        };
        std::vector<Arc> arcs;
        for (std::uint32_t placed = 0; placed < c_;) {
            const double radius = first + apart * static_cast<double>(arcs.size());
            const auto capacity = static_cast<std::uint32_t>(radius * span / apart) + 1;
            arcs.push_back({radius, std::min(capacity, c_ - placed), capacity});
            placed += arcs.back().count;
        }
        // The shortest router link (a cube's depth is shorter than a step)
        // gets the room of the arcs too, so that no machine lands on a router.
        double shortest = 1;
        graph_->for_each_link([&](std::uint32_t a, std::uint32_t b, LinkClass) {
            shortest = std::min(shortest, std::hypot(g.routers[a].x - g.routers[b].x,
                                                     g.routers[a].y - g.routers[b].y));
        });
        const double scale = (arcs.back().radius + 0.9) / std::max(shortest, 0.1);
        const auto m = static_cast<std::uint32_t>(machines_);
        std::vector<PlanePoint> points(m + switches_);
        for (std::uint32_t r = 0; r < g.routers.size(); ++r) {
            const PlanePoint at{g.routers[r].x * scale, g.routers[r].y * scale};
            points[m + r] = at;
            double angle = std::numbers::pi / 4; // below and to the right
            if (!g.outward.empty() && (g.outward[r].x != 0 || g.outward[r].y != 0))
                angle = std::atan2(g.outward[r].y, g.outward[r].x);
            std::uint32_t i = r * c_;
            for (const Arc& arc : arcs)
                for (std::uint32_t k = 0; k < arc.count; ++k, ++i) {
                    const double a =
                        angle + span / (arc.capacity - 1) * (k - (arc.count - 1) / 2.0);
                    points[i] = {at.x + arc.radius * std::cos(a), at.y + arc.radius * std::sin(a)};
                }
        }
        return points;
    }

    bool wraps_around(std::uint32_t a, std::uint32_t b) const override {
        const auto m = static_cast<std::uint32_t>(machines_);
        if (c_ == 0) return graph_->wraps_around(a, b);
        return a >= m && b >= m && graph_->wraps_around(a - m, b - m);
    }

private:
    std::unique_ptr<RouterGraph> graph_;
    std::string spec_;
    std::uint32_t c_;
    std::uint64_t machines_ = 0, switches_ = 0, links_ = 0;
};

} // namespace

std::vector<PlanePoint> circle_points(std::uint32_t count, double spacing, double cx, double cy,
                                      double min_radius) {
    std::vector<PlanePoint> points(count, PlanePoint{cx, cy});
    if (count < 2) return points;
    const double radius = std::max(
        min_radius, count * spacing / (2 * std::numbers::pi)); // neighbours `spacing` apart
    for (std::uint32_t i = 0; i < count; ++i) {
        const double a = 2 * std::numbers::pi * i / count;
        points[i] = {cx + radius * std::sin(a), cy - radius * std::cos(a)};
    }
    return points;
}

std::string direct_spec(std::string family_and_params, std::uint32_t concentration) {
    if (concentration)
        fmt::format_to(std::back_inserter(family_and_params), " --concentration {}", concentration);
    return family_and_params;
}

std::unique_ptr<Family> attach_machines(std::unique_ptr<RouterGraph> graph, std::string spec,
                                        std::uint32_t concentration) {
    return std::make_unique<AttachedMachines>(std::move(graph), std::move(spec), concentration);
}

} // namespace nettopo::detail
