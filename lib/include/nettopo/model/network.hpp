// The network level: an undirected weighted graph over machines and switches,
// stored as CSR (offsets + flat neighbour, latency and link arrays). Vertex
// ids 0..M-1 are the machines, M..M+S-1 the switches.
#pragma once

#include "nettopo/support/ids.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace nettopo {

// Longest accepted link latency: one second. Path sums are kept in int64
// picoseconds; with links of at most 10^12 ps, no path of a graph with 32-bit
// ids comes near overflow in practice (and sums saturate rather than wrap).
inline constexpr double max_link_latency_ns = 1e9;

// Nanoseconds to the picoseconds the searches add (resolution 1 ps).
std::int64_t to_picoseconds(double ns);
// And back, for reporting a sum.
inline double picoseconds_to_ns(std::int64_t ps) {
    return static_cast<double>(ps) / 1000.0;
}

struct Link {
    VertexId a, b;
    double latency_ns = 0;          // 0..max_link_latency_ns; zero is a valid latency
    double bandwidth_gbps = 0;      // 0: unknown
    std::uint32_t multiplicity = 1; // parallel cables merged into this link

    bool operator==(const Link&) const = default;
};

class Network {
public:
    Network() = default;
    // Links keep the given order (it is the archive's order). Endpoints must be
    // valid, distinct vertices; the builder checks that before.
    Network(std::uint32_t num_machines, std::uint32_t num_switches, std::vector<Link> links);

    std::uint32_t num_machines() const { return num_machines_; }
    std::uint32_t num_switches() const { return num_switches_; }
    std::uint32_t num_vertices() const { return num_machines_ + num_switches_; }
    std::size_t num_links() const { return links_.size(); }
    std::span<const Link> links() const { return links_; }

    bool is_machine(VertexId v) const { return v.value < num_machines_; }
    std::uint32_t degree(VertexId v) const { return offsets_[v.value + 1] - offsets_[v.value]; }
    // Adjacent vertices in increasing id order, with the latency and link index
    // of the connecting link at the same positions.
    std::span<const VertexId> neighbors(VertexId v) const { return slice(targets_, v); }
    // Latencies in integer picoseconds: searches add them exactly.
    std::span<const std::int64_t> neighbor_latencies_ps(VertexId v) const {
        return slice(latencies_ps_, v);
    }
    std::span<const std::uint32_t> neighbor_links(VertexId v) const { return slice(link_ids_, v); }

private:
    template <class T> std::span<const T> slice(const std::vector<T>& a, VertexId v) const {
        return {a.data() + offsets_[v.value], a.data() + offsets_[v.value + 1]};
    }

    std::uint32_t num_machines_ = 0;
    std::uint32_t num_switches_ = 0;
    std::vector<Link> links_;
    std::vector<std::uint32_t> offsets_{0};
    std::vector<VertexId> targets_;
    std::vector<std::int64_t> latencies_ps_;
    std::vector<std::uint32_t> link_ids_;
};

// Connected components: label[v] in 0..count-1, numbered in order of their
// smallest vertex.
struct Components {
    std::uint32_t count = 0;
    std::vector<std::uint32_t> label;
};
Components connected_components(const Network& net);

} // namespace nettopo
