#include "nettopo/query/device_nearest.hpp"

#include <algorithm>

namespace nettopo {

std::vector<NearPe> nearest_to_device(QueryEngine& engine, MachineDevice d, std::uint32_t k) {
    const Cluster& cluster = engine.cluster();
    const PeRange mine = cluster.pes_of_machine(d.machine);
    std::vector<NearPe> out;
    out.reserve(mine.count);
    for (std::uint32_t i = 0; i < mine.count; ++i)
        out.push_back({mine[i], *device_latency(cluster, d, mine[i])});
    const auto closer = [](const NearPe& a, const NearPe& b) {
        return a.distance_ns != b.distance_ns ? a.distance_ns < b.distance_ns : a.pe < b.pe;
    };
    std::sort(out.begin(), out.end(), closer);
    if (out.size() >= k) {
        out.resize(k);
        return out;
    }
    // Other machines: their distance from the device is the network's from
    // its machine, the same from every local PE.
    const std::uint32_t more = k - static_cast<std::uint32_t>(out.size());
    const PeRange local = device_pes(cluster, d);
    const PeId from = local.count ? local[0] : mine[0];
    const auto ask = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(cluster.num_pes(), std::uint64_t{k} + mine.count));
    const std::vector<NearPe> far = engine.nearest(from, ask);
    for (const NearPe& n : far)
        if (!mine.contains(n.pe) && out.size() < std::uint64_t{mine.count} + more) out.push_back(n);
    return out;
}

} // namespace nettopo
