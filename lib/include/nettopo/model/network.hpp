/// \file
/// The network level: an undirected weighted graph over machines and switches,
/// stored as CSR (offsets + flat neighbour, latency and link arrays). Vertex
/// ids 0..M-1 are the machines, M..M+S-1 the switches.
///
/// What forwards: a switch always carries traffic between its neighbours; a
/// machine does or does not. A machine of a direct network (torus, mesh,
/// hypercube: the host is the router) forwards; an InfiniBand or Ethernet host
/// never carries traffic for others. A path may start or end at a machine
/// that does not forward, never pass through one. Every search and distance
/// index follows this rule (share/doc/clusters.md, "What forwards").
///
/// \threads The free functions only read their arguments: safe from several
/// threads at once, on one shared const Network too.
#pragma once

#include "nettopo/support/ids.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace nettopo {

/// Longest accepted link latency: one second. Path sums are kept in int64
/// picoseconds; with links of at most 10^12 ps, no path of a graph with 32-bit
/// ids comes near overflow in practice (and sums saturate rather than wrap).
inline constexpr double max_link_latency_ns = 1e9;

/// Nanoseconds to the picoseconds the searches add (resolution 1 ps). O(1),
/// throws nothing.
std::int64_t to_picoseconds(double ns);
/// And back, for reporting a sum. O(1), throws nothing.
inline double picoseconds_to_ns(std::int64_t ps) {
    return static_cast<double>(ps) / 1000.0;
}

/// A link between two network vertices, as the archive lists it.
struct Link {
    VertexId a;                     ///< one end
    VertexId b;                     ///< the other end
    double latency_ns = 0;          ///< 0..max_link_latency_ns; zero is a valid latency
    double bandwidth_gbps = 0;      ///< 0: unknown
    std::uint32_t multiplicity = 1; ///< parallel cables merged into this link

    bool operator==(const Link&) const = default; ///< all fields equal
};

/// The network of a cluster, as CSR (see the file's comment).
/// \threads Const calls may be made from several threads at once on one
/// Network; nothing is cached.
/// \cost Every accessor is O(1) and allocates nothing (spans into the arrays);
/// building one is O(V + E log E). Nothing throws but std::bad_alloc, except
/// from_arrays (ValueError).
class Network {
public:
    /// An empty network (no vertex).
    Network() = default;
    /// Links keep the given order (it is the archive's order). Endpoints must be
    /// valid, distinct vertices; the builder checks that before.
    /// machine_forwards: one flag per machine (0: the machine does not
    /// forward), or empty when every machine forwards.
    Network(std::uint32_t num_machines, std::uint32_t num_switches, std::vector<Link> links,
            std::vector<std::uint8_t> machine_forwards = {});
    /// Copies point at their own arrays, O(V + E) (a network of an image
    /// shares the image's memory: O(machines), its forwarding flags).
    Network(const Network& other);
    /// As the copy constructor.
    Network& operator=(const Network& other);
    /// Moves the arrays (or the image's memory), O(1).
    Network(Network&&) noexcept = default;
    /// Moves the arrays (or the image's memory), O(1).
    Network& operator=(Network&&) noexcept = default;

    /// Number of machines M (vertices 0..M-1).
    std::uint32_t num_machines() const { return num_machines_; }
    /// Number of switches S (vertices M..M+S-1).
    std::uint32_t num_switches() const { return num_switches_; }
    /// M + S.
    std::uint32_t num_vertices() const { return num_machines_ + num_switches_; }
    /// Number of links.
    std::size_t num_links() const { return links_v_.size(); }
    /// The links, in the archive's order.
    std::span<const Link> links() const { return links_v_; }

    /// Whether vertex `v` is a machine's.
    bool is_machine(VertexId v) const { return v.value < num_machines_; }
    /// Whether paths may pass through v: always for a switch, per machine
    /// otherwise (one byte per machine, none when every machine forwards).
    bool forwards(VertexId v) const {
        return v.value >= forwards_.size() || forwards_[v.value] != 0;
    }
    /// True when every machine forwards (the searches then test nothing).
    bool all_forward() const { return forwards_.empty(); }
    /// Machines that do not forward.
    std::uint32_t num_end_hosts() const { return num_end_hosts_; }
    /// Number of neighbours of `v` (parallel cables merged: one per link).
    std::uint32_t degree(VertexId v) const { return offsets_v_[v.value + 1] - offsets_v_[v.value]; }
    /// Adjacent vertices in increasing id order, with the latency and link index
    /// of the connecting link at the same positions.
    std::span<const VertexId> neighbors(VertexId v) const { return slice(targets_v_, v); }
    /// Latencies in integer picoseconds: searches add them exactly.
    std::span<const std::int64_t> neighbor_latencies_ps(VertexId v) const {
        return slice(latencies_v_, v);
    }
    /// Index in links() of the link to each neighbour of `v`.
    std::span<const std::uint32_t> neighbor_links(VertexId v) const {
        return slice(link_ids_v_, v);
    }

    /// The arrays as held, for binary images (formats/image.hpp): the links,
    /// the CSR's offsets (vertices + 1), then targets, latencies and link ids
    /// at the same positions; forwarding flags per machine (empty: all
    /// forward). An image's network does not copy them: they stay in the
    /// image's mapped memory, which `keep_alive` keeps (and every copy of the
    /// network with it).
    struct Arrays {
        std::span<const Link> links;                ///< the links
        std::span<const std::uint32_t> offsets;     ///< CSR offsets, vertices + 1
        std::span<const VertexId> targets;          ///< neighbours
        std::span<const std::int64_t> latencies_ps; ///< latencies at the same positions
        std::span<const std::uint32_t> link_ids;    ///< link indexes at the same positions
        std::vector<std::uint8_t> forwards;         ///< per machine; empty: all forward
        std::shared_ptr<const void> keep_alive;     ///< holds the memory the spans view
    };
    /// The CSR offsets (vertices + 1 values).
    std::span<const std::uint32_t> csr_offsets() const { return offsets_v_; }
    /// The CSR targets (neighbours of every vertex, one after the other).
    std::span<const VertexId> csr_targets() const { return targets_v_; }
    /// The CSR latencies in picoseconds, at the targets' positions.
    std::span<const std::int64_t> csr_latencies_ps() const { return latencies_v_; }
    /// The CSR link indexes, at the targets' positions.
    std::span<const std::uint32_t> csr_link_ids() const { return link_ids_v_; }
    /// One forwarding flag per machine, empty when every machine forwards.
    std::span<const std::uint8_t> forward_flags() const { return forwards_; }
    /// A network over arrays held before, without building the CSR again.
    /// Checks what could make a query read out of range or loop (ValueError
    /// naming the first problem): link ends in range and in the builder's
    /// strict order, latencies in range, offsets increasing up to twice the
    /// links, targets and link ids in range, neighbours increasing, one flag
    /// per machine. It does not check that the CSR lists exactly the links:
    /// images carry a checksum for that. O(V + E).
    static Network from_arrays(std::uint32_t num_machines, std::uint32_t num_switches,
                               Arrays arrays);

private:
    template <class T> std::span<const T> slice(std::span<const T> a, VertexId v) const {
        return {a.data() + offsets_v_[v.value], a.data() + offsets_v_[v.value + 1]};
    }
    /// Points the views at the vectors this network owns.
    void view_own_arrays();

    std::uint32_t num_machines_ = 0;
    std::uint32_t num_switches_ = 0;
    std::vector<Link> links_;
    std::vector<std::uint32_t> offsets_{0};
    std::vector<VertexId> targets_;
    std::vector<std::int64_t> latencies_ps_;
    std::vector<std::uint32_t> link_ids_;
    std::vector<std::uint8_t> forwards_; ///< per machine; empty: all forward
    std::uint32_t num_end_hosts_ = 0;
    /// What every query reads: the vectors above, or an image's memory that
    /// keep_alive_ holds (the vectors are then empty).
    std::span<const Link> links_v_;
    std::span<const std::uint32_t> offsets_v_{offsets_};
    std::span<const VertexId> targets_v_;
    std::span<const std::int64_t> latencies_v_;
    std::span<const std::uint32_t> link_ids_v_;
    std::shared_ptr<const void> keep_alive_;
};

/// Connected components: label[v] in 0..count-1, numbered in order of their
/// smallest vertex.
///
/// Two vertices are in one component when cables join them, whoever
/// forwards: a cable is a path of its own (both its ends may be end hosts), so
/// these are the classes that "can reach" generates. When some machines do not
/// forward, reaching is not transitive (a host cabled to two separate fabrics
/// reaches both, the fabrics do not reach each other), and two machines of one
/// component may still not reach each other: unreachable_machines finds such
/// a pair. When every machine forwards, one component means every vertex
/// reaches every other.
struct Components {
    std::uint32_t count = 0;          ///< number of components
    std::vector<std::uint32_t> label; ///< component of each vertex
};
/// The connected components of `net` (see Components). O(V + E), allocates
/// the labels; throws only std::bad_alloc.
Components connected_components(const Network& net);

/// Two machines (unreachable_machines' answer).
struct MachinePair {
    VertexId a; ///< the smaller id
    VertexId b; ///< the other
};
/// Two machines that no path respecting forwarding joins (the first found,
/// `a` the smaller id), or nullopt when every machine reaches every other.
/// O(V + E) when some component of forwarding vertices touches every machine
/// (every cluster that is not oddly cabled), O(M^2) at worst otherwise.
/// Throws only std::bad_alloc.
std::optional<MachinePair> unreachable_machines(const Network& net);

/// The first machine that does not forward and has more than one neighbour
/// (parallel links counted once), or nullopt. Only such a machine changes a
/// path: one with a single neighbour is never passed through anyway. The
/// formulas of generated families, whose machines all forward, hold exactly
/// when there is none. O(V + E), throws nothing but std::bad_alloc.
std::optional<VertexId> first_blocking_end_host(const Network& net);

/// A 64-bit hash of what distances depend on: the vertex counts, each link's
/// ends, latency (in picoseconds), bandwidth and multiplicity, and which
/// machines forward. Two networks with one checksum answer the same
/// distances (save a hash collision); a kept distance index records it.
/// O(V + E); throws only std::bad_alloc (a 4096-link buffer).
std::uint64_t network_checksum(const Network& net);

} // namespace nettopo
