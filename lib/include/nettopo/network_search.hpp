// Shortest paths over the network graph: BFS for hop counts, Dijkstra (binary
// heap, strict ordering) for latencies. Keeps its scratch arrays between calls
// (stamped, so a query costs the part of the graph it visits, not O(V)); one
// object per thread.
#pragma once

#include "nettopo/network.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace nettopo {

enum class PathMetric { Latency, Hops };

// Connected components: label[v] in 0..count-1, numbered in order of their
// smallest vertex.
struct Components {
    std::uint32_t count = 0;
    std::vector<std::uint32_t> label;
};
Components connected_components(const Network& net);

class NetworkSearch {
public:
    explicit NetworkSearch(const Network& net);

    std::optional<std::uint32_t> hops(VertexId from, VertexId to);
    std::optional<double> latency(VertexId from, VertexId to);
    // Vertices of one shortest path, both ends included; nullopt if unreachable.
    std::optional<std::vector<VertexId>> path(VertexId from, VertexId to, PathMetric metric);

    // Single-source variants: out[v] = distance, or unreachable_* when none.
    static constexpr std::uint32_t unreachable_hops = 0xffffffffu;
    static constexpr double unreachable_latency = -1.0;
    void hops_from(VertexId from, std::vector<std::uint32_t>& out);
    void latencies_from(VertexId from, std::vector<double>& out);

    // Incremental Dijkstra: settles vertices one at a time in nondecreasing
    // latency order (ties by vertex id), for searches that stop early.
    void start(VertexId from);
    // The next settled vertex and its latency; nullopt when all reachable
    // vertices are settled.
    std::optional<std::pair<VertexId, double>> next_settled();
    // Latency of the closest vertex not yet settled (nullopt when none).
    std::optional<double> peek_latency();

private:
    bool seen(std::uint32_t v) const { return stamp_[v] == epoch_; }
    void new_epoch();
    void relax(std::uint32_t v, double d, std::uint32_t from);
    void bfs(VertexId from, VertexId stop_at);
    void dijkstra(VertexId from, VertexId stop_at);
    std::vector<VertexId> trace(VertexId to) const;

    struct HeapItem {
        double dist;
        std::uint32_t v;
        bool operator>(const HeapItem& o) const { return dist != o.dist ? dist > o.dist : v > o.v; }
    };

    const Network* net_;
    std::vector<std::uint32_t> stamp_;
    std::vector<std::uint8_t> done_; // settled in this epoch (only meaningful if seen)
    std::vector<double> dist_;
    std::vector<std::uint32_t> parent_;
    std::vector<std::uint32_t> queue_;
    std::vector<HeapItem> heap_;
    std::uint32_t epoch_ = 0;
};

} // namespace nettopo
