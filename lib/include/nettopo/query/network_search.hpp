/// \file
/// Shortest paths over the network graph: BFS for hop counts, Dijkstra (binary
/// heap, strict ordering) for latencies.
///
/// Latencies are added as integer picoseconds, so a sum does not depend on
/// the order it is taken in: distance(a, b) == distance(b, a) exactly, and a
/// search from either end agrees with any other correct algorithm. (Doubles
/// summed along a path differ in the last bit between the two directions.)
///
/// The search keeps its state between calls: asking again from the same
/// source resumes the BFS or Dijkstra where it stopped, so a batch of pairs
/// sharing a source (one machine to all its neighbours, a row of a table)
/// costs one search, not one per pair. One object per thread.
///
/// Paths respect forwarding (network.hpp): they may start or end at a machine
/// that does not forward, never pass through one.
#pragma once

#include "nettopo/model/network.hpp"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace nettopo {

/// What a shortest path minimises.
enum class PathMetric {
    Latency, ///< total link latency (Dijkstra)
    Hops,    ///< number of links (BFS)
};

/// BFS and Dijkstra over one network, resumable (see the file's comment).
/// \threads One thread at a time per object (it keeps its search state);
/// one object per thread. The network must outlive it.
/// \cost A question from a new source: one BFS (O(V + E)) or one Dijkstra
/// (O((V + E) log V)), stopped when the target is final; from the same
/// source again: the rest of that search. Making one allocates O(V); the
/// calls allocate only the paths they return. Nothing throws but
/// std::bad_alloc (vertices out of range are a precondition).
class NetworkSearch {
public:
    /// A search over `net`. O(V) memory.
    explicit NetworkSearch(const Network& net);

    /// Fewest links from `from` to `to`; nullopt when unreachable.
    std::optional<std::uint32_t> hops(VertexId from, VertexId to);
    /// Smallest total latency from `from` to `to`; nullopt when unreachable.
    std::optional<double> latency(VertexId from, VertexId to); ///< ns
    /// The same in the integer picoseconds the search adds (exact, for oracles).
    std::optional<std::int64_t> latency_ps(VertexId from, VertexId to);
    /// Vertices of one shortest path, both ends included; nullopt if unreachable.
    std::optional<std::vector<VertexId>> path(VertexId from, VertexId to, PathMetric metric);

    /// Drops the kept search: the next query starts afresh (O(1)). For
    /// benchmarks that time a search per query.
    void forget() { mode_ = Mode::None; }

    /// Hop counts from `from` to every vertex (unreachable_hops where none).
    static constexpr std::uint32_t unreachable_hops = 0xffffffffu;
    /// Fills `out` (resized to V) with hop counts from `from`: one whole BFS.
    void hops_from(VertexId from, std::vector<std::uint32_t>& out);

    /// Incremental Dijkstra: settles vertices one at a time in nondecreasing
    /// latency order (ties by vertex id), for searches that stop early.
    /// start() begins one from `from`.
    void start(VertexId from);
    /// The next settled vertex and its latency in ns; nullopt when all
    /// reachable vertices are settled.
    std::optional<std::pair<VertexId, double>> next_settled();
    /// Latency (ns) of the closest vertex not yet settled; nullopt when none.
    std::optional<double> peek_latency();

private:
    enum class Mode { None, Bfs, Dijkstra };

    bool seen(std::uint32_t v) const { return stamp_[v] == epoch_; }
    /// Whether a reached vertex leads further: it forwards, or the search starts there.
    bool expands(std::uint32_t v) const {
        return v == source_.value || net_->forwards(VertexId(v));
    }
    void restart(Mode mode, VertexId from);
    void relax(std::uint32_t v, std::int64_t d, std::uint32_t from);
    /// Run the current search until `to` is final (or the graph is exhausted).
    void bfs_until(VertexId to);
    void dijkstra_until(VertexId to);
    std::optional<std::pair<VertexId, std::int64_t>> settle_next();
    bool clean_top();
    std::vector<VertexId> trace(VertexId to) const;

    struct HeapItem {
        std::int64_t dist;
        std::uint32_t v;
        bool operator>(const HeapItem& o) const { return dist != o.dist ? dist > o.dist : v > o.v; }
    };

    const Network* net_;
    Mode mode_ = Mode::None;
    VertexId source_;
    std::vector<std::uint32_t> stamp_;
    std::vector<std::uint8_t> done_; ///< final in this epoch (only meaningful if seen)
    std::vector<std::int64_t> dist_; ///< picoseconds, or hops for a BFS
    std::vector<std::uint32_t> parent_;
    std::vector<std::uint32_t> queue_; ///< BFS queue; entries before head_ are expanded
    std::size_t head_ = 0;
    std::vector<HeapItem> heap_;
    std::uint32_t epoch_ = 0;
};

} // namespace nettopo
