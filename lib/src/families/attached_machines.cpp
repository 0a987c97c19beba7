// Machines on routers: the one rule every router-based family shares for
// naming, degrees and host-to-host hops.
#include "families/family_limits.hpp"
#include "families/router_graph.hpp"

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
    bool has_latency_formula(const ClassLatenciesPs& ps) const override {
        return graph_->router_link_ps(ps).has_value();
    }

    std::int64_t machine_latency_ps(std::uint32_t a, std::uint32_t b,
                                    const ClassLatenciesPs& ps) const override {
        if (a == b) return 0;
        const std::optional<std::int64_t> router = graph_->router_link_ps(ps);
        if (!router) return -1;
        if (c_ == 0) return std::int64_t{graph_->shortest_hops(a, b)} * *router;
        const std::uint32_t ra = a / c_, rb = b / c_;
        const std::int64_t hosts = 2 * ps[static_cast<std::size_t>(LinkClass::HostSwitch)];
        return ra == rb ? hosts : hosts + std::int64_t{graph_->shortest_hops(ra, rb)} * *router;
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

private:
    std::unique_ptr<RouterGraph> graph_;
    std::string spec_;
    std::uint32_t c_;
    std::uint64_t machines_ = 0, switches_ = 0, links_ = 0;
};

} // namespace

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
