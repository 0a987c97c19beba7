#include "nettopo/query.hpp"

#include <algorithm>

namespace nettopo {

QueryEngine::QueryEngine(const Cluster& cluster) : cluster_(&cluster), search_(cluster.network()) {}

std::optional<std::uint32_t> QueryEngine::hop_count(PeId a, PeId b) {
    const MachineId ma = cluster_->machine_of(a), mb = cluster_->machine_of(b);
    if (ma == mb) return 0u;
    return search_.hops(cluster_->vertex(ma), cluster_->vertex(mb));
}

std::optional<double> QueryEngine::distance(PeId a, PeId b) {
    const MachineId ma = cluster_->machine_of(a), mb = cluster_->machine_of(b);
    if (ma == mb) return cluster_->intra_machine_latency(a, b);
    return search_.latency(cluster_->vertex(ma), cluster_->vertex(mb));
}

std::optional<std::vector<VertexId>> QueryEngine::path(PeId a, PeId b, PathMetric metric) {
    return search_.path(cluster_->vertex(cluster_->machine_of(a)),
                        cluster_->vertex(cluster_->machine_of(b)), metric);
}

// Candidates are gathered in rounds: the PEs of p's own machine, then machine
// after machine in Dijkstra order. All PEs of a remote machine are at the same
// distance, so once k candidates are closer than anything left unsettled,
// sorting them by (distance, id) gives the answer.
std::vector<NearPe> QueryEngine::nearest(PeId p, std::uint32_t k) {
    std::vector<NearPe> found;
    if (k == 0) return found;
    const MachineId home = cluster_->machine_of(p);
    for (PeId q : cluster_->on_same_machine(p))
        found.push_back({q, cluster_->intra_machine_latency(p, q)});

    auto kth_distance = [&] {
        std::nth_element(found.begin(), found.begin() + (k - 1), found.end(),
                         [](const NearPe& x, const NearPe& y) {
                             return x.distance_ns != y.distance_ns ? x.distance_ns < y.distance_ns
                                                                   : x.pe < y.pe;
                         });
        return found[k - 1].distance_ns;
    };

    search_.start(cluster_->vertex(home));
    search_.next_settled(); // home itself, at 0
    const Network& net = cluster_->network();
    for (;;) {
        auto next = search_.peek_latency();
        if (!next) break;
        // Strictly closer than everything unsettled: ties with a later machine
        // could still be won by a smaller PE id, so keep going on equality.
        if (found.size() >= k && kth_distance() < *next) break;
        auto [v, d] = *search_.next_settled();
        if (!net.is_machine(v)) continue;
        const PeRange r = cluster_->pes_of_machine(MachineId(v.value));
        for (std::uint32_t i = 0; i < r.count; ++i) found.push_back({r[i], d});
    }
    std::sort(found.begin(), found.end(), [](const NearPe& x, const NearPe& y) {
        return x.distance_ns != y.distance_ns ? x.distance_ns < y.distance_ns : x.pe < y.pe;
    });
    if (found.size() > k) found.resize(k);
    return found;
}

} // namespace nettopo
