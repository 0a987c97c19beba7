// The graph the general distance indexes work on: the network with its end
// machines folded onto their forwarding neighbours (their anchors).
//
// Idea: a path between two machines passes only through vertices that
// forward and have more than one neighbour (the core); an end machine, one
// that does not forward or has a single neighbour, is only ever a path's
// first or last vertex. So hops(a, b) = min over anchors u of a and v of b of
// (u's link + core hops(u, v) + v's link), or 1 when a cable joins a and b
// directly, and the same for latency. A cluster of hosts on switches then
// costs a table over its switches only (avakas: 25 core vertices instead of
// 301). Machines of a direct network that forward (degree > 1) stay in the
// core, as do isolated forwarding machines.
//
// Most end machines have one anchor and no cable to another end machine (a
// host on its leaf switch): they keep the one-lookup path. The others (a
// multi-rail host with several anchors, a host cabled to a host, a host with
// no anchor) are "complex": their anchors and direct peers are listed apart,
// and a query involving one takes the minimum over its anchors.
//
// FoldedIndex adds the host links around any core distance oracle (CRTP, so
// the core lookup is inlined into the index's virtual hops / latency_ps).
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_index.hpp"
#include "nettopo/support/detail/array_file.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
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

// Set in the `hops` of a complex machine, whose low bits are then its index
// in FoldedMachines' lists: one test of (x.hops | y.hops) tells the one-lookup
// path from the other.
inline constexpr std::uint32_t complex_machine = 0x80000000u;

struct HostLink {
    std::uint32_t core_vertex; // the machine itself or its anchor (complex: unused)
    std::uint32_t hops;        // 0 in the core, 1 when folded; complex_machine | list index
    std::int64_t latency_ps;   // of the host link (the fastest of parallel ones)

    bool is_complex() const { return (hops & complex_machine) != 0; }
    std::uint32_t list_index() const { return hops & ~complex_machine; }
};

// An end machine cabled directly to another end machine.
struct PeerLink {
    std::uint32_t machine;
    std::int64_t latency_ps;
};

// Per machine of the cluster: a HostLink, and for complex machines their
// anchors (as HostLinks, hops 1) and peers (by machine id), as CSR lists.
struct FoldedMachines {
    std::vector<HostLink> links;
    std::vector<std::uint32_t> anchor_offsets{0}, peer_offsets{0};
    std::vector<HostLink> anchors;
    std::vector<PeerLink> peers;

    std::size_t bytes() const {
        return links.capacity() * sizeof(HostLink) +
               (anchor_offsets.capacity() + peer_offsets.capacity()) * sizeof(std::uint32_t) +
               anchors.capacity() * sizeof(HostLink) + peers.capacity() * sizeof(PeerLink);
    }
    // The machine's anchors: itself or its one anchor, or a complex machine's list.
    std::span<const HostLink> anchors_of(std::uint32_t m) const {
        const HostLink& l = links[m];
        if (!l.is_complex()) return {&l, 1};
        return {anchors.data() + anchor_offsets[l.list_index()],
                anchors.data() + anchor_offsets[l.list_index() + 1]};
    }
    // Latency of the cable between machines a and b, if one joins them.
    std::optional<std::int64_t> peer_ps(std::uint32_t a, std::uint32_t b) const {
        const HostLink& l = links[a];
        if (!l.is_complex()) return std::nullopt;
        for (std::uint32_t i = peer_offsets[l.list_index()]; i < peer_offsets[l.list_index() + 1];
             ++i)
            if (peers[i].machine == b) return peers[i].latency_ps;
        return std::nullopt;
    }
};

struct FoldedCore {
    // Core vertices: the machines left in the core (in machine order), then
    // every switch. Links keep their original latency (same picoseconds).
    Network core;
    FoldedMachines machines;
    std::uint32_t folded = 0;  // machines folded onto their anchors
    std::uint32_t complex = 0; // of them, with other than one anchor or with peers
    // Set when every core link has this latency: latency = hops x it.
    std::optional<std::int64_t> uniform_ps;

    std::uint32_t num_core() const { return core.num_vertices(); }
    std::uint32_t num_machines() const { return static_cast<std::uint32_t>(machines.links.size()); }
    // Bytes of the per-machine tables (what every index keeps).
    std::size_t machine_bytes() const { return machines.bytes(); }
    // Bytes of the core graph (kept only by indexes that search it).
    std::size_t graph_bytes() const;
};

FoldedCore fold_network(const Network& net);

// What a kept index (kept_index.hpp) holds of its folded core: the
// per-machine tables and the core's size, not its graph.
struct KeptCore {
    FoldedMachines machines;
    std::uint32_t num_core = 0, folded = 0, complex = 0;
    std::optional<std::int64_t> uniform_ps;
};
void write_kept_core(const FoldedMachines& machines, std::uint32_t num_core, std::uint32_t folded,
                     std::uint32_t complex, std::optional<std::int64_t> uniform_ps,
                     ArrayWriter& out);
// Checks every core vertex, list index and offset against the sizes read
// and `num_machines` (InputError through `in` otherwise).
KeptCore read_kept_core(ArrayReader& in, std::uint32_t num_machines);

// Upper bounds of the core's largest finite hop count and latency: twice the
// eccentricity of one vertex per component (one BFS and one Dijkstra each),
// to pick the narrowest exact types before a table is filled.
struct CoreBounds {
    std::uint64_t hops = 0;
    std::int64_t latency_ps = 0;
};
CoreBounds core_bounds(const Network& core);

// "25 core vertices, 276 machines folded" (+ " (4 not on a single anchor)"
// when some are complex)
std::string describe_core(std::uint32_t num_core, std::uint32_t folded, std::uint32_t complex);
// "5.0 KB"
std::string format_bytes(std::size_t bytes);

// Derived provides core_hops(u, v) and core_ps(u, v) for core vertices u != v
// (no_hops / no_ps when unreachable) and holds the FoldedCore's machines.
template <class Derived> class FoldedIndex : public DistanceIndex {
public:
    // Takes f's machines (f's core graph stays).
    explicit FoldedIndex(FoldedCore& f)
        : machines_(std::move(f.machines)), num_core_(f.num_core()), folded_(f.folded),
          complex_(f.complex) {}
    // Takes a kept index's machines.
    explicit FoldedIndex(KeptCore& k)
        : machines_(std::move(k.machines)), num_core_(k.num_core), folded_(k.folded),
          complex_(k.complex) {}

    std::uint32_t hops(MachineId a, MachineId b) const final {
        if (a == b) return 0;
        const HostLink& x = machines_.links[a.value];
        const HostLink& y = machines_.links[b.value];
        if ((x.hops | y.hops) & complex_machine) [[unlikely]]
            return complex_hops(a.value, b.value);
        return hops_via(x, y);
    }
    std::int64_t latency_ps(MachineId a, MachineId b) const final {
        if (a == b) return 0;
        const HostLink& x = machines_.links[a.value];
        const HostLink& y = machines_.links[b.value];
        if ((x.hops | y.hops) & complex_machine) [[unlikely]]
            return complex_ps(a.value, b.value);
        return ps_via(x, y);
    }

protected:
    std::size_t machine_bytes() const { return machines_.bytes(); }
    std::string core_summary() const { return describe_core(num_core_, folded_, complex_); }
    std::uint32_t num_core() const { return num_core_; }
    void write_core(ArrayWriter& out, std::optional<std::int64_t> uniform_ps) const {
        write_kept_core(machines_, num_core_, folded_, complex_, uniform_ps, out);
    }

private:
    const Derived& self() const { return static_cast<const Derived&>(*this); }

    // Through anchor x of one machine and anchor y of the other.
    std::uint32_t hops_via(const HostLink& x, const HostLink& y) const {
        if (x.core_vertex == y.core_vertex) return x.hops + y.hops;
        const std::uint32_t h = self().core_hops(x.core_vertex, y.core_vertex);
        return h == no_hops ? no_hops : h + x.hops + y.hops;
    }
    std::int64_t ps_via(const HostLink& x, const HostLink& y) const {
        const std::int64_t hosts = add_ps(x.latency_ps, y.latency_ps);
        if (x.core_vertex == y.core_vertex) return hosts;
        const std::int64_t d = self().core_ps(x.core_vertex, y.core_vertex);
        return d == no_ps ? no_ps : add_ps(d, hosts);
    }
    // A direct cable is one hop, the fewest there are; else the best pair of
    // anchors. Kept out of line: the one-lookup path stays as small as it was.
    [[gnu::noinline, gnu::cold]] std::uint32_t complex_hops(std::uint32_t a,
                                                            std::uint32_t b) const {
        if (machines_.peer_ps(a, b)) return 1; // cables join end machines both ways
        std::uint32_t best = no_hops;
        for (const HostLink& x : machines_.anchors_of(a))
            for (const HostLink& y : machines_.anchors_of(b)) best = std::min(best, hops_via(x, y));
        return best;
    }
    [[gnu::noinline, gnu::cold]] std::int64_t complex_ps(std::uint32_t a, std::uint32_t b) const {
        std::optional<std::int64_t> best = machines_.peer_ps(a, b);
        for (const HostLink& x : machines_.anchors_of(a))
            for (const HostLink& y : machines_.anchors_of(b))
                if (const std::int64_t d = ps_via(x, y); d != no_ps && (!best || d < *best))
                    best = d;
        return best.value_or(no_ps);
    }

    FoldedMachines machines_;
    std::uint32_t num_core_, folded_, complex_;
};

} // namespace nettopo::detail
