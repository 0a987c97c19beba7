#include "nettopo/model/device_matrix.hpp"

#include "nettopo/model/gpu_links.hpp"

#include <algorithm>

namespace nettopo {

std::string_view to_string(DeviceLink l) {
    switch (l) {
    case DeviceLink::Self:
        return "X";
    case DeviceLink::Pix:
        return "PIX";
    case DeviceLink::Pxb:
        return "PXB";
    case DeviceLink::Phb:
        return "PHB";
    case DeviceLink::Node:
        return "NODE";
    case DeviceLink::Sys:
        break;
    }
    return "SYS";
}

namespace {

// The PCI objects from `p` up to its root, `p` first.
std::vector<std::uint32_t> chain(const MachineTree& tree, std::uint32_t p) {
    std::vector<std::uint32_t> c;
    for (; p != no_pci; p = tree.pci()[p].parent) c.push_back(p);
    return c;
}

// The switch a bridge belongs to. Below a host bridge, bridges alternate: a
// root port (depth 1), a switch's upstream port (2), its downstream ports
// (3), a nested switch's upstream port (4)... A downstream port belongs to
// its upstream port's switch; an upstream port is its switch; a root port
// (or a bridge with no host bridge above) stands for itself.
std::uint32_t switch_of(const MachineTree& tree, std::uint32_t bridge) {
    std::uint32_t depth = 0;
    bool under_host = false;
    for (std::uint32_t p = tree.pci()[bridge].parent; p != no_pci; p = tree.pci()[p].parent) {
        if (tree.pci()[p].kind == PciKind::HostBridge) {
            under_host = true;
            break;
        }
        ++depth;
    }
    // depth counts the bridges above: 0 for a root port.
    if (!under_host || depth == 0 || depth % 2 == 1) return bridge;
    return tree.pci()[bridge].parent;
}

// Whether two CPU-side objects share a NUMA node: some NUMA node's PUs meet
// the PUs of both.
bool same_numa(const MachineTree& tree, ObjectId x, ObjectId y) {
    for (const MemoryObject& m : tree.memory()) {
        if (m.type != ObjectType::NUMANode) continue;
        const TreeObject& n = tree.object(m.parent);
        if (share_pus(n, tree.object(x)) && share_pus(n, tree.object(y))) return true;
    }
    return false;
}

} // namespace

DeviceLink device_link(const Cluster& cluster, MachineId m, std::uint32_t a, std::uint32_t b) {
    if (a == b) return DeviceLink::Self;
    const MachineTree& tree = cluster.machine_type(m).tree();
    const IoDevice& da = tree.devices()[a];
    const IoDevice& db = tree.devices()[b];
    const auto ca = da.pci == no_pci ? std::vector<std::uint32_t>{} : chain(tree, da.pci);
    const auto cb = db.pci == no_pci ? std::vector<std::uint32_t>{} : chain(tree, db.pci);
    // The deepest PCI object both paths hold.
    std::uint32_t meet = no_pci;
    std::size_t ia = ca.size(), ib = cb.size();
    while (ia > 0 && ib > 0 && ca[ia - 1] == cb[ib - 1]) {
        meet = ca[--ia];
        --ib;
    }
    if (meet == no_pci) {
        const ObjectId la = ca.empty() ? da.locality : tree.pci()[ca.back()].locality;
        const ObjectId lb = cb.empty() ? db.locality : tree.pci()[cb.back()].locality;
        return same_numa(tree, la, lb) ? DeviceLink::Node : DeviceLink::Sys;
    }
    if (tree.pci()[meet].kind == PciKind::HostBridge) return DeviceLink::Phb;
    if (tree.pci()[meet].kind == PciKind::Device) return DeviceLink::Pix; // one function's ports
    // The switches of the bridges on the path, the meeting bridge included.
    std::vector<std::uint32_t> switches{switch_of(tree, meet)};
    for (const auto* c : {&ca, &cb})
        for (std::uint32_t p : *c) {
            if (p == meet) break;
            if (tree.pci()[p].kind == PciKind::Bridge) switches.push_back(switch_of(tree, p));
        }
    std::sort(switches.begin(), switches.end());
    switches.erase(std::unique(switches.begin(), switches.end()), switches.end());
    return switches.size() <= 1 ? DeviceLink::Pix : DeviceLink::Pxb;
}

std::string matrix_entry(const Cluster& cluster, MachineId m, std::uint32_t a, std::uint32_t b) {
    if (const auto link = gpu_link(cluster, m, a, b)) return link_label(*link);
    return std::string(to_string(device_link(cluster, m, a, b)));
}

std::vector<std::uint32_t> matrix_devices(const Cluster& cluster, MachineId m) {
    const auto devices = cluster.machine_type(m).tree().devices();
    std::vector<std::uint32_t> out;
    for (DeviceKind k : {DeviceKind::Gpu, DeviceKind::Nic})
        for (std::uint32_t i = 0; i < devices.size(); ++i)
            if (devices[i].kind == k) out.push_back(i);
    return out;
}

} // namespace nettopo
