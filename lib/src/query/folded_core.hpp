// The graph the general distance indexes work on: the network with its
// degree-1 machines folded onto their only neighbour (their anchor).
//
// Idea: every path leaving a machine with a single neighbour takes that one
// link, so hops(a, b) = hops(anchor a, anchor b) + the two host links, and the
// same for latency. A cluster of hosts on switches then costs a table over
// its switches only (avakas: 25 core vertices instead of 301). Machines of a
// direct network (degree > 1) stay in the core, as do both machines of a
// two-machine component and isolated machines.
//
// FoldedIndex adds the host links around any core distance oracle (CRTP, so
// the core lookup is inlined into the index's virtual hops / latency_ps).
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_index.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace nettopo::detail {

inline constexpr std::uint32_t no_hops = DistanceIndex::unreachable_hops;
inline constexpr std::int64_t no_ps = DistanceIndex::unreachable_ps;

// Saturating, as NetworkSearch adds.
inline std::int64_t add_ps(std::int64_t a, std::int64_t b) {
    return a > std::numeric_limits<std::int64_t>::max() - b
               ? std::numeric_limits<std::int64_t>::max()
               : a + b;
}

struct HostLink {
    std::uint32_t core_vertex; // the machine itself, or its anchor
    std::uint32_t hops;        // 0 in the core, 1 when folded
    std::int64_t latency_ps;   // of the host link (the fastest of parallel ones)
};

struct FoldedCore {
    // Core vertices: the machines left in the core (in machine order), then
    // every switch. Links keep their original latency (same picoseconds).
    Network core;
    std::vector<HostLink> machines; // per machine of the cluster
    std::uint32_t folded = 0;       // machines folded onto an anchor
    // Set when every core link has this latency: latency = hops x it.
    std::optional<std::int64_t> uniform_ps;

    std::uint32_t num_core() const { return core.num_vertices(); }
    std::uint32_t num_machines() const { return static_cast<std::uint32_t>(machines.size()); }
    // Bytes of the per-machine table (what every index keeps).
    std::size_t machine_bytes() const { return machines.capacity() * sizeof(HostLink); }
    // Bytes of the core graph (kept only by indexes that search it).
    std::size_t graph_bytes() const;
};

FoldedCore fold_network(const Network& net);

// Upper bounds of the core's largest finite hop count and latency: twice the
// eccentricity of one vertex per component (one BFS and one Dijkstra each),
// to pick the narrowest exact types before a table is filled.
struct CoreBounds {
    std::uint64_t hops = 0;
    std::int64_t latency_ps = 0;
};
CoreBounds core_bounds(const Network& core);

// "25 core vertices, 276 machines folded"
std::string describe_core(std::uint32_t num_core, std::uint32_t folded);
// "5.0 KB"
std::string format_bytes(std::size_t bytes);

// Derived provides core_hops(u, v) and core_ps(u, v) for core vertices u != v
// (no_hops / no_ps when unreachable) and holds the FoldedCore's machines.
template <class Derived> class FoldedIndex : public DistanceIndex {
public:
    // Takes f's machines (f's core graph stays).
    explicit FoldedIndex(FoldedCore& f)
        : machines_(std::move(f.machines)), num_core_(f.num_core()), folded_(f.folded) {}

    std::uint32_t hops(MachineId a, MachineId b) const final {
        if (a == b) return 0;
        const HostLink& x = machines_[a.value];
        const HostLink& y = machines_[b.value];
        if (x.core_vertex == y.core_vertex) return x.hops + y.hops;
        const std::uint32_t h = self().core_hops(x.core_vertex, y.core_vertex);
        return h == no_hops ? no_hops : h + x.hops + y.hops;
    }
    std::int64_t latency_ps(MachineId a, MachineId b) const final {
        if (a == b) return 0;
        const HostLink& x = machines_[a.value];
        const HostLink& y = machines_[b.value];
        const std::int64_t hosts = add_ps(x.latency_ps, y.latency_ps);
        if (x.core_vertex == y.core_vertex) return hosts;
        const std::int64_t d = self().core_ps(x.core_vertex, y.core_vertex);
        return d == no_ps ? no_ps : add_ps(d, hosts);
    }

protected:
    std::size_t machine_bytes() const { return machines_.capacity() * sizeof(HostLink); }
    std::string core_summary() const { return describe_core(num_core_, folded_); }

private:
    const Derived& self() const { return static_cast<const Derived&>(*this); }
    std::vector<HostLink> machines_;
    std::uint32_t num_core_, folded_;
};

} // namespace nettopo::detail
