#include "nettopo/model/devices.hpp"

#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace nettopo {

std::vector<MachineDevice> find_devices(const Cluster& cluster, std::string_view text) {
    std::vector<MachineDevice> found;
    const auto of_machine = [&](MachineId m, std::string_view name) {
        if (const auto i = cluster.machine_type(m).tree().find_device(name))
            found.push_back({m, *i});
    };
    if (const std::size_t colon = text.find(':'); colon != std::string_view::npos) {
        if (const auto m = cluster.find_machine(text.substr(0, colon)))
            of_machine(*m, text.substr(colon + 1));
        return found;
    }
    // One search per machine type; machines of a type with the device follow.
    std::vector<std::optional<std::uint32_t>> per_type(cluster.num_types());
    for (std::uint32_t t = 0; t < cluster.num_types(); ++t)
        per_type[t] = cluster.type(TypeId(t)).tree().find_device(text);
    if (std::none_of(per_type.begin(), per_type.end(), [](const auto& x) { return x.has_value(); }))
        return found;
    for (std::uint32_t m = 0; m < cluster.num_machines(); ++m)
        if (const auto& i = per_type[cluster.type_of(MachineId(m)).value])
            found.push_back({MachineId(m), *i});
    return found;
}

std::optional<MachineDevice> find_device(const Cluster& cluster, std::string_view text) {
    const std::vector<MachineDevice> found = find_devices(cluster, text);
    if (found.empty()) return std::nullopt;
    if (found.size() > 1)
        throw UsageError(fmt::format("'{}' names a device of {} machines ({}, {}, ...): say "
                                     "which, as {}:{}",
                                     text, found.size(), cluster.machine_name(found[0].machine),
                                     cluster.machine_name(found[1].machine),
                                     cluster.machine_name(found[0].machine), text));
    return found.front();
}

const IoDevice& device(const Cluster& cluster, MachineDevice d) {
    return cluster.machine_type(d.machine).tree().devices()[d.index];
}

PeRange device_pes(const Cluster& cluster, MachineDevice d) {
    const MachineTree& tree = cluster.machine_type(d.machine).tree();
    const TreeObject& loc = tree.object(tree.devices()[d.index].locality);
    return {cluster.pes_of_machine(d.machine).first + loc.first_pu, loc.pu_count};
}

std::string cpu_list_of(const Cluster& cluster, PeRange pes) {
    if (pes.count == 0) return {};
    const MachineId m = cluster.machine_of(pes[0]);
    const MachineTree& tree = cluster.machine_type(m).tree();
    const std::uint32_t first = pes.first - cluster.pes_of_machine(m).first; // logical
    std::vector<std::uint32_t> os;
    os.reserve(pes.count);
    for (std::uint32_t l = first; l < first + pes.count; ++l) {
        const std::uint32_t o = tree.object(tree.pu(l)).os_index;
        os.push_back(o == unknown_os_index ? l : o);
    }
    return format_cpu_list(os);
}

std::string device_cpu_list(const Cluster& cluster, MachineDevice d) {
    return cpu_list_of(cluster, device_pes(cluster, d));
}

std::vector<std::uint32_t> device_numa_nodes(const Cluster& cluster, MachineDevice d) {
    const MachineTree& tree = cluster.machine_type(d.machine).tree();
    const TreeObject& loc = tree.object(tree.devices()[d.index].locality);
    std::vector<std::uint32_t> out;
    for (const MemoryObject& m : tree.memory()) {
        if (m.type != ObjectType::NUMANode) continue;
        const TreeObject& y = tree.object(m.parent);
        if (share_pus(y, loc)) out.push_back(m.os_index);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string device_pci_bus_id(const Cluster& cluster, MachineDevice d) {
    const MachineTree& tree = cluster.machine_type(d.machine).tree();
    const std::uint32_t p = tree.devices()[d.index].pci;
    return p == no_pci ? std::string() : pci_bus_id(tree.pci()[p]);
}

std::vector<DeviceIdentity> device_identities(const Cluster& cluster, MachineDevice d) {
    std::vector<DeviceIdentity> out;
    for (const DeviceIdentity& i : cluster.identities(d.machine))
        if (i.device == d.index) out.push_back(i);
    return out;
}

std::string device_identity(const Cluster& cluster, MachineDevice d,
                            std::initializer_list<std::string_view> names) {
    for (const std::string_view name : names)
        for (const DeviceIdentity& i : cluster.identities(d.machine))
            if (i.device == d.index && i.name == name) return i.value;
    return {};
}

std::optional<double> device_latency(const Cluster& cluster, MachineDevice d, PeId p) {
    if (cluster.machine_of(p) != d.machine) return std::nullopt;
    const MachineType& type = cluster.machine_type(d.machine);
    const MachineTree& tree = type.tree();
    // A device hanging from a CPU-less object (CXL memory below a
    // memory-only Group) is measured from the nearest object with PUs.
    ObjectId at = tree.devices()[d.index].locality;
    while (tree.object(at).pu_count == 0 && tree.object(at).parent.valid())
        at = tree.object(at).parent;
    const TreeObject& loc = tree.object(at);
    const std::uint32_t pu = cluster.local_pu(p);
    if (pu >= loc.first_pu && pu - loc.first_pu < loc.pu_count) return 0.0;
    // Outside the locality every local PU meets `pu` at one object; only
    // NUMA distances can tell local PUs apart: one PU per NUMA node of the
    // locality is enough (the first PU of each NUMA locality inside it,
    // and the locality's own first PU).
    double best = type.latency_between(loc.first_pu, pu);
    for (const MemoryObject& m : tree.memory()) {
        if (m.type != ObjectType::NUMANode) continue;
        const TreeObject& y = tree.object(m.parent);
        if (!share_pus(y, loc)) continue;
        const std::uint32_t q = std::max(y.first_pu, loc.first_pu);
        best = std::min(best, type.latency_between(q, pu));
    }
    return best;
}

std::vector<NearDevice> nearest_devices(const Cluster& cluster, PeId p,
                                        std::optional<DeviceKind> kind) {
    const MachineId m = cluster.machine_of(p);
    const auto devices = cluster.machine_type(m).tree().devices();
    std::vector<NearDevice> out;
    for (std::uint32_t i = 0; i < devices.size(); ++i)
        if (!kind || devices[i].kind == *kind)
            out.push_back({{m, i}, *device_latency(cluster, {m, i}, p)});
    std::stable_sort(out.begin(), out.end(), [](const NearDevice& a, const NearDevice& b) {
        return a.latency_ns < b.latency_ns;
    });
    return out;
}

} // namespace nettopo
