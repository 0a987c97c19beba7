// The slow twin of every distance index: full searches from each source.
#include "nettopo/query/distance_index.hpp"
#include "nettopo/query/network_search.hpp"

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
