// GPUs and adapters for a machine no discovery saw (generated_devices.hpp):
// spread in blocks over the localities, each GPU beside one adapter under a
// PCIe switch, each pair on a host bridge of its own. The PCI tree copies the
// shape hwloc reports for a DGX H100 or the ipa20 server of the shared
// exports (host bridge, root port, a Broadcom PEX89000 switch's upstream and
// downstream ports, the H100 and the ConnectX-7 below), so that the device
// matrix reads PIX within a pair, NODE between pairs of one NUMA node and
// SYS across NUMA nodes, as nvidia-smi does on such machines.
#include "nettopo/tree/generated_devices.hpp"

#include "nettopo/support/error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <string>

namespace nettopo {

namespace {

// PCI identities (pci.ids): what hwloc would read on a DGX H100. Only the
// vendor matters to a query (the GPU runtime's variable of distribute --env).
constexpr std::uint16_t nvidia = 0x10de, h100_sxm5 = 0x2330;
constexpr std::uint16_t mellanox = 0x15b3, connectx7 = 0x1021;
constexpr std::uint16_t broadcom = 0x1000, pex89000_switch = 0xc030;

// Each pair's buses: the host bridge's b, its switch's upstream port on b+1,
// the downstream ports on b+2, the GPU on b+3 and the adapter on b+4, with
// b = 0x10, 0x20, ... 0xf0 (bus 0 is the chipset's); past 15 pairs, the next
// PCI domain, as servers with many root complexes number them.
constexpr std::uint32_t pairs_per_domain = 15;

// The first of the `n` devices of a kind that locality `l` of `k` holds:
// device i is on locality floor(i·k/n), so locality l holds [ceil(l·n/k),
// ceil((l+1)·n/k)).
std::uint32_t first_on(std::size_t l, std::uint32_t n, std::size_t k) {
    return static_cast<std::uint32_t>((l * n + k - 1) / k);
}

// A copy of `tree` in a builder, to add devices to.
MachineTree::Builder copy_of(const MachineTree& tree) {
    MachineTree::Builder b;
    for (const TreeObject& o : tree.objects()) b.add(o.type, o.parent, o.os_index, o.size_bytes);
    for (const MemoryObject& m : tree.memory())
        b.add_memory(m.type, m.parent, m.os_index, m.size_bytes);
    const auto distances = tree.numa_distances();
    b.set_numa_distances({distances.begin(), distances.end()});
    return b;
}

// The devices of a machine, GPUs first (MachineTree::devices' order).
struct Devices {
    std::vector<IoDevice> gpus, nics;
};

// One pair's PCI objects and devices: gpu and nic are the devices' numbers,
// or none.
constexpr std::uint32_t none = 0xffffffffu;
void add_pair(MachineTree::Builder& b, Devices& devices, ObjectId locality, std::uint32_t pair,
              std::uint32_t gpu, std::uint32_t nic) {
    const std::uint32_t domain = pair / pairs_per_domain;
    const auto bus = static_cast<std::uint8_t>(0x10 * (pair % pairs_per_domain + 1));
    const auto at = [&](PciKind kind, std::uint32_t parent, int bus_offset, std::uint8_t dev,
                        std::uint16_t vendor, std::uint16_t device) {
        return b.add_pci({kind, parent, locality, domain,
                          static_cast<std::uint8_t>(bus + bus_offset), dev, 0, vendor, device});
    };
    const std::uint32_t host = at(PciKind::HostBridge, no_pci, 0, 0, 0, 0);
    // The root port's identity is the CPU's, which a description does not give.
    const std::uint32_t root_port = at(PciKind::Bridge, host, 0, 1, 0, 0);
    const std::uint32_t upstream = at(PciKind::Bridge, root_port, 1, 0, broadcom, pex89000_switch);
    if (gpu != none) {
        const std::uint32_t port = at(PciKind::Bridge, upstream, 2, 0, broadcom, pex89000_switch);
        devices.gpus.push_back({DeviceKind::Gpu,
                                fmt::format("gpu{}", gpu),
                                {},
                                at(PciKind::Device, port, 3, 0, nvidia, h100_sxm5),
                                locality,
                                "NVIDIA Corporation",
                                "NVIDIA H100 80GB HBM3",
                                ""});
    }
    if (nic != none) {
        const std::uint32_t port = at(PciKind::Bridge, upstream, 2, 1, broadcom, pex89000_switch);
        const std::string name = fmt::format("mlx5_{}", nic);
        devices.nics.push_back({DeviceKind::Nic,
                                name,
                                {name},
                                at(PciKind::Device, port, 4, 0, mellanox, connectx7),
                                locality,
                                "Mellanox Technologies",
                                "MT2910 Family [ConnectX-7]",
                                "OpenFabrics"});
    }
}

} // namespace

std::vector<ObjectId> device_localities(const MachineTree& tree) {
    std::vector<ObjectId> numa;
    for (const MemoryObject& m : tree.memory())
        if (m.type == ObjectType::NUMANode && tree.object(m.parent).pu_count > 0)
            numa.push_back(m.parent);
    std::sort(numa.begin(), numa.end());
    numa.erase(std::unique(numa.begin(), numa.end()), numa.end());
    // Pre-order puts an object's descendants right after it: keep the innermost.
    std::vector<ObjectId> innermost;
    for (std::size_t i = 0; i < numa.size(); ++i)
        if (i + 1 == numa.size() || numa[i + 1].value >= tree.object(numa[i]).subtree_end)
            innermost.push_back(numa[i]);
    if (innermost.size() > 1) return innermost;
    std::vector<ObjectId> packages;
    for (std::uint32_t i = 0; i < tree.num_objects(); ++i)
        if (tree.object(ObjectId(i)).type == ObjectType::Package) packages.push_back(ObjectId(i));
    if (packages.size() > 1) return packages;
    return {ObjectId(0)};
}

MachineTree with_generated_devices(const MachineTree& tree, DeviceCounts counts) {
    for (const auto& [n, word] : {std::pair{counts.gpus, "GPUs"}, {counts.nics, "adapters"}})
        if (n > max_generated_devices)
            throw InputError(fmt::format("{} {} asked for a machine: at most {}", n, word,
                                         max_generated_devices));
    if (counts == DeviceCounts{}) return tree;
    if (!tree.devices().empty())
        throw InputError("the machine has devices already: generated ones are added to a machine "
                         "without any");
    MachineTree::Builder b = copy_of(tree);
    const std::vector<ObjectId> localities = device_localities(tree);
    const std::size_t k = localities.size();
    Devices devices;
    std::uint32_t pair = 0;
    for (std::size_t l = 0; l < k; ++l) {
        const std::uint32_t gpu = first_on(l, counts.gpus, k), nic = first_on(l, counts.nics, k);
        const std::uint32_t gpus = first_on(l + 1, counts.gpus, k) - gpu;
        const std::uint32_t nics = first_on(l + 1, counts.nics, k) - nic;
        for (std::uint32_t j = 0; j < std::max(gpus, nics); ++j)
            add_pair(b, devices, localities[l], pair++, j < gpus ? gpu + j : none,
                     j < nics ? nic + j : none);
    }
    for (auto* kind : {&devices.gpus, &devices.nics})
        for (IoDevice& d : *kind) b.add_device(std::move(d));
    return std::move(b).finish();
}

} // namespace nettopo
