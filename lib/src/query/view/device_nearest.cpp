// The PEs nearest a device, in the whole cluster or a job's allocation
// (device_nearest.hpp); the device's own machine orders by device_latency,
// the others by the network from the device's first local PU.
#include "nettopo/query/device_nearest.hpp"

#include "nettopo/query/adapter_distance.hpp"
#include "nettopo/query/allocation.hpp"

#include <algorithm>

namespace nettopo {

namespace {

// The device's machine's PEs, nearest the device first (ties by PE id).
std::vector<NearPe> own_machine(const Cluster& cluster, MachineDevice d) {
    const PeRange mine = cluster.pes_of_machine(d.machine);
    std::vector<NearPe> out;
    out.reserve(mine.count);
    for (std::uint32_t i = 0; i < mine.count; ++i)
        out.push_back({mine[i], *device_latency(cluster, d, mine[i])});
    std::sort(out.begin(), out.end(), [](const NearPe& a, const NearPe& b) {
        return a.distance_ns != b.distance_ns ? a.distance_ns < b.distance_ns : a.pe < b.pe;
    });
    return out;
}

// The PE other machines' distances are measured from: the device's first
// local PU (the network's distance is the same from every one).
PeId device_origin(const Cluster& cluster, MachineDevice d) {
    const PeRange local = device_pes(cluster, d);
    return local.count ? local[0] : cluster.pes_of_machine(d.machine)[0];
}

// With the cluster's adapters: the other machines' PEs by the latency from
// the device's own end (its ports, or its nearest cabled adapter's) to each
// machine, in the order of `machines` on ties; nullopt when the device has
// no end (no attachment leads out of it).
std::optional<std::vector<NearPe>> by_adapter(const Cluster& cluster, MachineDevice d,
                                              std::span<const MachineId> machines,
                                              std::vector<NearPe> out, std::uint32_t k) {
    const std::optional<AdapterEnd> from = device_end(cluster, d);
    if (!from) return std::nullopt;
    AdapterDistances distances(cluster);
    std::vector<std::pair<std::int64_t, std::uint32_t>> order; // (ps, index in machines)
    for (std::uint32_t i = 0; i < machines.size(); ++i) {
        if (machines[i] == d.machine) continue;
        if (const auto l = distances.latency_ps(*from, machine_end(cluster, machines[i])))
            order.emplace_back(l->value, i);
    }
    std::sort(order.begin(), order.end());
    for (const auto& [ps, i] : order) {
        const PeRange pes = cluster.pes_of_machine(machines[i]);
        for (std::uint32_t p = 0; p < pes.count && out.size() < k; ++p)
            out.push_back({pes[p], picoseconds_to_ns(ps)});
        if (out.size() >= k) break;
    }
    return out;
}

} // namespace

std::vector<NearPe> nearest_to_device(QueryEngine& engine, MachineDevice d, std::uint32_t k) {
    const Cluster& cluster = engine.cluster();
    std::vector<NearPe> out = own_machine(cluster, d);
    if (out.size() >= k) {
        out.resize(k);
        return out;
    }
    if (cluster.has_attachments()) {
        std::vector<MachineId> all(cluster.num_machines());
        for (std::uint32_t m = 0; m < all.size(); ++m) all[m] = MachineId(m);
        if (auto near = by_adapter(cluster, d, all, out, k)) return std::move(*near);
    }
    // Other machines: their distance from the device is the network's from
    // its machine, the same from every local PE.
    const PeRange mine = cluster.pes_of_machine(d.machine);
    const auto ask = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(cluster.num_pes(), std::uint64_t{k} + mine.count));
    for (const NearPe& n : engine.nearest(device_origin(cluster, d), ask))
        if (!mine.contains(n.pe) && out.size() < k) out.push_back(n);
    return out;
}

std::vector<NearPe> nearest_to_device_in_view(QueryEngine& engine, const JobView& view,
                                              MachineDevice d, std::uint32_t k) {
    const Cluster& cluster = engine.cluster();
    const bool inside = view.contains(d.machine);
    std::vector<NearPe> out;
    if (inside) out = own_machine(cluster, d);
    if (out.size() >= k) {
        out.resize(k);
        return out;
    }
    if (cluster.has_attachments())
        if (auto near = by_adapter(cluster, d, view.machines(), out, k)) return std::move(*near);
    const PeRange mine = cluster.pes_of_machine(d.machine);
    const auto ask = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(view.num_pes(), std::uint64_t{k} + (inside ? mine.count : 0)));
    for (const NearPe& n : nearest_in_view(engine, view, device_origin(cluster, d), ask))
        if (!mine.contains(n.pe) && out.size() < k) out.push_back(n);
    return out;
}

} // namespace nettopo
