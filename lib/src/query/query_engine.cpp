#include "nettopo/query/query_engine.hpp"

#include <algorithm>

namespace nettopo {

QueryEngine::QueryEngine(const Cluster& cluster) : QueryEngine(cluster, DistancePolicy{}) {}

QueryEngine::QueryEngine(const Cluster& cluster, DistancePolicy policy)
    : cluster_(&cluster), search_(cluster.network()), policy_(std::move(policy)) {}

QueryEngine::QueryEngine(const Cluster& cluster, const DistanceIndex* index)
    : cluster_(&cluster), index_(index), search_(cluster.network()) {}

void QueryEngine::before_network_question() {
    if (!policy_) return;
    if (!planned_) {
        // The first question: a closed form (or a kept index) answers at once.
        planned_ = true;
        DistancePlan plan = plan_distances(*cluster_, *policy_);
        if (plan.kind() != DistanceIndexKind::Search) {
            owned_ = build_distances(*cluster_, std::move(plan));
            index_ = owned_.get();
            policy_.reset();
        } else if (policy_->use != IndexUse::Auto || policy_->kind != DistanceIndexKind::Auto) {
            policy_.reset(); // searching was decided, not deferred
        }
        return;
    }
    if (++searched_ < next_look_) return;
    // Ski rental: build once the questions searched so far would have paid
    // for the index.
    DistancePolicy look = *policy_;
    look.questions = searched_;
    DistancePlan plan = plan_distances(*cluster_, look);
    if (plan.kind() == DistanceIndexKind::Search) {
        next_look_ = 2 * searched_;
        return;
    }
    owned_ = build_distances(*cluster_, std::move(plan));
    index_ = owned_.get();
    policy_.reset();
}

std::optional<std::uint32_t> QueryEngine::hop_count(PeId a, PeId b) {
    const MachineId ma = cluster_->machine_of(a), mb = cluster_->machine_of(b);
    if (ma == mb) return 0u;
    before_network_question();
    if (index_) {
        const std::uint32_t h = index_->hops(ma, mb);
        if (h == DistanceIndex::unreachable_hops) return std::nullopt;
        return h;
    }
    return search_.hops(cluster_->vertex(ma), cluster_->vertex(mb));
}

std::optional<double> QueryEngine::distance(PeId a, PeId b) {
    const MachineId ma = cluster_->machine_of(a), mb = cluster_->machine_of(b);
    if (ma == mb) return cluster_->intra_machine_latency(a, b);
    before_network_question();
    if (index_) {
        const std::int64_t ps = index_->latency_ps(ma, mb);
        if (ps == DistanceIndex::unreachable_ps) return std::nullopt;
        return picoseconds_to_ns(ps);
    }
    return search_.latency(cluster_->vertex(ma), cluster_->vertex(mb));
}

std::optional<std::vector<VertexId>> QueryEngine::path(PeId a, PeId b, PathMetric metric) {
    return search_.path(cluster_->vertex(cluster_->machine_of(a)),
                        cluster_->vertex(cluster_->machine_of(b)), metric);
}

// Candidates are gathered in rounds: the PEs of p's own machine, then machine
// after machine in Dijkstra order. After each round only the best k by
// (distance, id) are kept: every later candidate is at least as far, so a
// dropped one can never come back. All PEs of a remote machine are at the
// same distance; once the k kept are strictly closer than anything unsettled,
// they are the answer (on equality a later machine could still win a tie by a
// smaller PE id, so the search goes on).
std::vector<NearPe> QueryEngine::nearest(PeId p, std::uint32_t k) {
    std::vector<NearPe> best;
    if (k == 0) return best;
    const auto closer = [](const NearPe& x, const NearPe& y) {
        return x.distance_ns != y.distance_ns ? x.distance_ns < y.distance_ns : x.pe < y.pe;
    };
    const auto keep_best = [&] {
        if (best.size() <= k) return;
        std::nth_element(best.begin(), best.begin() + (k - 1), best.end(), closer);
        best.resize(k);
    };
    const auto worst_kept = [&] {
        double d = 0;
        for (const NearPe& n : best) d = std::max(d, n.distance_ns);
        return d;
    };

    const MachineId home = cluster_->machine_of(p);
    for (PeId q : cluster_->on_same_machine(p))
        best.push_back({q, cluster_->intra_machine_latency(p, q)});
    keep_best();

    const Network& net = cluster_->network();
    search_.start(cluster_->vertex(home));
    search_.next_settled(); // home itself, at 0
    double kth = best.size() == k ? worst_kept() : 0;
    for (;;) {
        const auto next = search_.peek_latency();
        if (!next || (best.size() == k && kth < *next)) break;
        const auto [v, d] = *search_.next_settled();
        if (!net.is_machine(v)) continue;
        const PeRange r = cluster_->pes_of_machine(MachineId(v.value));
        for (std::uint32_t i = 0; i < r.count; ++i) best.push_back({r[i], d});
        keep_best();
        if (best.size() == k) kth = worst_kept();
    }
    std::sort(best.begin(), best.end(), closer);
    return best;
}

} // namespace nettopo
