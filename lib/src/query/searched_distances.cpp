// A search per question behind the DistanceIndex interface (see searched_distances.hpp).
#include "query/searched_distances.hpp"

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
