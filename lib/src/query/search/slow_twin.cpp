// The one slow twin every distance index is held to: a search per question
// behind the DistanceIndex interface (kind Search), and check_distance_index,
// the verifier that compares an index with full searches (see slow_twin.hpp).
#include "query/search/slow_twin.hpp"

#include "nettopo/query/network_search.hpp"

#include <mutex>

namespace nettopo::detail {

namespace {

class SearchedDistances final : public DistanceIndex {
public:
    explicit SearchedDistances(const Cluster& cluster)
        : cluster_(&cluster), hop_search_(cluster.network()), latency_search_(cluster.network()) {}

    std::string description() const override { return "no index: a search per question"; }
    DistanceIndexKind kind() const override { return DistanceIndexKind::Search; }
    // The two searches' state: stamps, flags, distances, parents, about 21
    // bytes a vertex each (queues and heaps grow while searching).
    std::size_t memory_bytes() const override {
        return 2 * std::size_t{cluster_->network().num_vertices()} * 21;
    }

    std::uint32_t hops(MachineId a, MachineId b) const override {
        const std::lock_guard lock(mutex_);
        // One search object per metric: alternating hops and latencies from
        // one source resumes both instead of restarting each.
        const auto h = hop_search_.hops(cluster_->vertex(a), cluster_->vertex(b));
        return h ? *h : unreachable_hops;
    }
    std::int64_t latency_ps(MachineId a, MachineId b) const override {
        const std::lock_guard lock(mutex_);
        const auto ps = latency_search_.latency_ps(cluster_->vertex(a), cluster_->vertex(b));
        return ps ? *ps : unreachable_ps;
    }

private:
    const Cluster* cluster_;
    mutable std::mutex mutex_;
    mutable NetworkSearch hop_search_, latency_search_;
};

} // namespace

std::unique_ptr<DistanceIndex> make_searched_distances(const Cluster& cluster) {
    return std::make_unique<SearchedDistances>(cluster);
}

} // namespace nettopo::detail

namespace nettopo {

std::optional<IndexMismatch> check_distance_index(const Cluster& cluster,
                                                  const DistanceIndex& index,
                                                  std::span<const MachineId> sources) {
    NetworkSearch search(cluster.network());
    std::vector<std::uint32_t> hops;
    for (const MachineId s : sources) {
        search.hops_from(cluster.vertex(s), hops);
        for (std::uint32_t m = 0; m < cluster.num_machines(); ++m) {
            const std::int64_t want = hops[m] == NetworkSearch::unreachable_hops
                                          ? std::int64_t{DistanceIndex::unreachable_hops}
                                          : std::int64_t{hops[m]};
            const std::int64_t got = index.hops(s, MachineId(m));
            if (got != want) return IndexMismatch{s, MachineId(m), true, got, want};
        }
        for (std::uint32_t m = 0; m < cluster.num_machines(); ++m) {
            const auto ps = search.latency_ps(cluster.vertex(s), cluster.vertex(MachineId(m)));
            const std::int64_t want = ps ? *ps : DistanceIndex::unreachable_ps;
            const std::int64_t got = index.latency_ps(s, MachineId(m));
            if (got != want) return IndexMismatch{s, MachineId(m), false, got, want};
        }
    }
    return std::nullopt;
}

} // namespace nettopo
