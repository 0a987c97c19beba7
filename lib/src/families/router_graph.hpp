// A network of routers (mesh, torus, hypercube, tree, complete graph, ring,
// dragonfly, slim fly) and the family made of it by attaching machines:
// either the routers are the machines (direct network, concentration 0), or
// each router is a switch with C machines hanging off it.
#pragma once

#include "nettopo/families/family.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nettopo::detail {

class RouterGraph {
public:
    virtual ~RouterGraph() = default;
    virtual std::uint64_t num_routers() const = 0;
    virtual std::uint64_t num_links() const = 0;
    virtual std::uint32_t degree(std::uint32_t r) const = 0;
    virtual std::uint32_t hops(std::uint32_t a, std::uint32_t b) const = 0;
    // Largest hops() over all pairs of routers.
    virtual std::uint32_t diameter() const = 0;
    virtual HopRule hop_rule() const { return HopRule::Shortest; }
    // Fewest links between two routers: hops(), unless that is minimal routing.
    virtual std::uint32_t shortest_hops(std::uint32_t a, std::uint32_t b) const {
        return hops(a, b);
    }
    // The one latency of every router-to-router link under `ps` (-1 when
    // there is no such link), or nullopt when their classes differ in it.
    virtual std::optional<std::int64_t> router_link_ps(const ClassLatenciesPs& ps) const {
        return ps[static_cast<std::size_t>(LinkClass::SwitchSwitch)];
    }
    using LinkFn = std::function<void(std::uint32_t, std::uint32_t, LinkClass)>;
    virtual void for_each_link(const LinkFn& fn) const = 0;

    // Family::layout for the routers, one grid step between neighbours
    // (empty: none), and for each router the direction in which machines
    // attached to it are drawn: away from the centre of a circle; empty
    // for below and to the right (a grid, where that corner has no link).
    struct Layout {
        std::vector<PlanePoint> routers, outward;
    };
    virtual Layout layout() const { return {}; }
    // Family::wraps_around for two routers.
    virtual bool wraps_around(std::uint32_t, std::uint32_t) const { return false; }
};

// Points evenly spaced on a circle of centre (cx, cy) large enough that
// neighbours are `spacing` apart (radius at least `min_radius`), the first
// at the top, going clockwise.
std::vector<PlanePoint> circle_points(std::uint32_t count, double spacing, double cx = 0,
                                      double cy = 0, double min_radius = 0.5);

// The spec of a direct network: its family and parameters, then the
// concentration when there is one.
std::string direct_spec(std::string family_and_params, std::uint32_t concentration);

// `spec` is the whole nettopo-gen parameter text; `concentration` 0 makes the
// routers the machines. Checks the totals against the id limits.
std::unique_ptr<Family> attach_machines(std::unique_ptr<RouterGraph> graph, std::string spec,
                                        std::uint32_t concentration);

} // namespace nettopo::detail
