/// \file
/// PE-level queries that need the network: hop counts, latency distances,
/// paths and the k nearest PEs. Cheap structural queries (machine_of,
/// proximity, common_ancestor, ...) are on Cluster itself.
///
/// QueryEngine engine(cluster) is fast by default. Its distances come from
/// plan_distances (distance_plan.hpp), asked at the first question between
/// two machines:
/// - a generated family answers by its closed form at once (O(1) a question,
///   after a check of the family that costs about one search);
/// - any other cluster searches (BFS hops, Dijkstra latencies; a row of
///   questions from one machine costs one search) until the questions
///   searched have cost as much as building the general index would (the
///   ski-rental rule: never more than twice the better choice in hindsight);
///   the index is then built, within the policy's memory budget (512 MiB by
///   default), with all cores, and answers every later question. The rule is
///   looked at after 16, 32, 64, ... searched questions (each look folds the
///   network once, O(V + E)).
/// The answers are the same whatever answers them. path() and nearest()
/// always search (nearest() settles machines in latency order).
///
/// Threads: an engine is used by one thread at a time (it keeps its search
/// state); copies share the built index and may be used by several threads.
/// Errors: a PE out of range is the caller's (ids come from the cluster);
/// building the index may throw std::bad_alloc. The cluster must outlive the
/// engine.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/network_search.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace nettopo {

/// A PE and its distance from another (QueryEngine::nearest).
struct NearPe {
    PeId pe;                                        ///< the PE
    double distance_ns;                             ///< its distance, in ns
    bool operator==(const NearPe&) const = default; ///< same PE, same distance
};

/// Hop counts, distances, paths and nearest PEs of one cluster (see the
/// file's comment: what answers, and when an index is built).
/// \threads One thread at a time per engine (it keeps its search state);
/// give each thread its own engine (copies share the built index).
/// \cost A question inside one machine: O(log R). Between machines: O(1)
/// with a closed form or a dense table, a label merge with labels, at most
/// one search (O(V + E) BFS, O((V + E) log V) Dijkstra) without an index,
/// plus, once, what the plan costs and the index build. nearest(): a
/// Dijkstra stopped once k PEs are settled. Allocates the search arrays
/// (O(V)) when made.
/// \throws std::bad_alloc from the search or the index build; UsageError at
/// the first question when the policy forces a kind that cannot be built
/// (plan_distances). PEs out of range are a precondition, not checked
/// (Cluster::require_pe checks them).
class QueryEngine {
public:
    /// The default policy above; nothing is planned before the first question.
    explicit QueryEngine(const Cluster& cluster);
    /// The same rule with another policy (budget, threads, an index kept with
    /// the cluster, use Never to search always, a forced kind).
    QueryEngine(const Cluster& cluster, DistancePolicy policy);
    /// Exactly this index (nullptr: a search per question); it must outlive
    /// the engine.
    QueryEngine(const Cluster& cluster, const DistanceIndex* index);
    /// The cluster asked.
    const Cluster& cluster() const { return *cluster_; }
    /// What answers hop counts and distances now: nullptr while searching.
    const DistanceIndex* index() const { return index_; }

    /// Fewest network links between the PEs' machines; 0 inside a machine;
    /// nullopt when they cannot reach each other.
    std::optional<std::uint32_t> hop_count(PeId a, PeId b);
    /// 0 for the same PE; the meeting level's latency inside a machine; else
    /// the minimum total link latency between the two machines. In ns;
    /// nullopt when unreachable.
    std::optional<double> distance(PeId a, PeId b);
    /// Machines and switches on one shortest path between the PEs' machines
    /// (by `metric`), both ends included; nullopt when unreachable. Always one
    /// search; allocates the path.
    std::optional<std::vector<VertexId>> path(PeId a, PeId b,
                                              PathMetric metric = PathMetric::Latency);
    /// The k PEs closest to p (p excluded) by distance, ties broken by PE id.
    /// Fewer than k when fewer are reachable. Allocates O(k).
    std::vector<NearPe> nearest(PeId p, std::uint32_t k);

    /// The next query searches afresh instead of resuming the kept search. O(1).
    void forget() { search_.forget(); }

private:
    /// Called before a question between two machines: plans at the first
    /// one, then applies the ski-rental rule while searching.
    void before_network_question();

    const Cluster* cluster_;
    std::shared_ptr<const DistanceIndex> owned_;
    const DistanceIndex* index_ = nullptr;
    NetworkSearch search_;
    std::optional<DistancePolicy> policy_; ///< set while the engine may still plan
    bool planned_ = false;
    std::uint64_t searched_ = 0, next_look_ = 16;
};

} // namespace nettopo
