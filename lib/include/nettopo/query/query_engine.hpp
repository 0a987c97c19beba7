// PE-level queries that need the network: hop counts, latency distances,
// paths and the k nearest PEs. Cheap structural queries (machine_of,
// proximity, common_ancestor, ...) are on Cluster itself.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_index.hpp"
#include "nettopo/query/network_search.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace nettopo {

struct NearPe {
    PeId pe;
    double distance_ns;
    bool operator==(const NearPe&) const = default;
};

class QueryEngine {
public:
    // With an index, hop counts and distances between machines are looked up
    // in it instead of searched; the index must outlive the engine.
    explicit QueryEngine(const Cluster& cluster, const DistanceIndex* index = nullptr);
    const Cluster& cluster() const { return *cluster_; }

    // Fewest network links between the PEs' machines; 0 inside a machine.
    std::optional<std::uint32_t> hop_count(PeId a, PeId b);
    // 0 for the same PE; the meeting level's latency inside a machine; else
    // the minimum total link latency between the two machines.
    std::optional<double> distance(PeId a, PeId b);
    // Machines and switches on one shortest path between the PEs' machines.
    std::optional<std::vector<VertexId>> path(PeId a, PeId b,
                                              PathMetric metric = PathMetric::Latency);
    // The k PEs closest to p (p excluded) by distance, ties broken by PE id.
    // Fewer than k when fewer are reachable.
    std::vector<NearPe> nearest(PeId p, std::uint32_t k);

    // The next query searches afresh instead of resuming the kept search.
    void forget() { search_.forget(); }

private:
    const Cluster* cluster_;
    const DistanceIndex* index_;
    NetworkSearch search_;
};

} // namespace nettopo
