#include "hwloc/io_convert.hpp"

#include "hwloc/interconnect_convert.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nettopo::detail {

namespace {

std::string info(hwloc_obj_t o, const char* name) {
    const char* v = hwloc_obj_get_info_by_name(o, name);
    return v ? v : "";
}

// The compute runtimes whose devices make a PCI function a GPU, by the
// prefix of hwloc's OS device names; their index numbers the GPUs, in this
// order of preference (share/doc/gpu-nodes.md).
constexpr std::string_view runtimes[] = {"cuda", "nvml", "rsmi", "ze", "opencl"};

std::optional<std::size_t> runtime_of(hwloc_obj_t os) {
    if (os->attr->osdev.type != HWLOC_OBJ_OSDEV_GPU &&
        os->attr->osdev.type != HWLOC_OBJ_OSDEV_COPROC)
        return std::nullopt;
    const std::string_view name = os->name ? os->name : "";
    for (std::size_t r = 0; r < std::size(runtimes); ++r)
        if (name.starts_with(runtimes[r]) && name.size() > runtimes[r].size()) {
            // OpenCL devices of other kinds than GPUs (a CPU device) are not GPUs.
            if (runtimes[r] == "opencl" && info(os, "OpenCLDeviceType") != "" &&
                info(os, "OpenCLDeviceType") != "GPU")
                return std::nullopt;
            return r;
        }
    return std::nullopt;
}

// The number after a runtime's prefix ("cuda3" -> 3; "opencl0d3" -> none).
std::optional<std::uint32_t> runtime_index(std::string_view name, std::string_view prefix) {
    if (!name.starts_with(prefix)) return std::nullopt;
    std::uint32_t v = 0;
    const char* b = name.data() + prefix.size();
    const char* e = name.data() + name.size();
    const auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e) return std::nullopt;
    return v;
}

struct PendingGpu {
    IoDevice device;
    std::vector<std::string> runtime_names; // one per runtime, "" if absent
    std::vector<hwloc_obj_t> objects;       // hwloc's OS devices of this GPU
};

class IoWalk {
public:
    IoWalk(MachineTree::Builder& b, const std::unordered_map<hwloc_obj_t, ObjectId>& ids)
        : b_(b), ids_(ids) {}

    void cpu_object(hwloc_obj_t o) {
        const ObjectId loc = ids_.at(o);
        std::vector<hwloc_obj_t> loose;
        for (hwloc_obj_t c = o->io_first_child; c; c = c->next_sibling)
            if (c->type == HWLOC_OBJ_OS_DEVICE)
                loose.push_back(c);
            else
                io_object(c, no_pci, loc);
        loose_devices(loose, loc);
        for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling)
            if (ids_.count(c)) cpu_object(c);
    }

    // Only the PCI objects on the way to a kept device, or to an endpoint
    // of an interconnect matrix (`endpoints`: an NVSwitch), enter the tree,
    // parents first, renumbered. Returns where hwloc's objects went.
    KeptIo finish(const std::vector<hwloc_obj_t>& endpoints) {
        number_gpus();
        std::vector<std::uint8_t> needed(pci_.size(), 0);
        const auto need = [&](std::uint32_t p) {
            for (; p != no_pci && !needed[p]; p = pci_[p].parent) needed[p] = 1;
        };
        for (const PendingGpu& g : gpus_) need(g.device.pci);
        for (const IoDevice& d : others_) need(d.pci);
        for (hwloc_obj_t o : endpoints)
            if (const auto at = pci_index_.find(o); at != pci_index_.end()) need(at->second);
        KeptIo kept{{}, {}, ids_, {}, {}};
        std::vector<std::uint32_t> renumber(pci_.size(), no_pci);
        for (std::uint32_t i = 0; i < pci_.size(); ++i) {
            if (!needed[i]) continue;
            PciObject p = pci_[i];
            if (p.parent != no_pci) p.parent = renumber[p.parent];
            renumber[i] = b_.add_pci(p);
        }
        for (const auto& [o, i] : pci_index_)
            if (needed[i]) kept.pci.emplace(o, renumber[i]);
        const auto moved = [&](IoDevice d, const std::vector<hwloc_obj_t>& objects) {
            if (d.pci != no_pci) d.pci = renumber[d.pci];
            const auto index = static_cast<std::uint32_t>(kept.models.size());
            for (hwloc_obj_t o : objects) {
                kept.devices.emplace(o, index);
                for (unsigned k = 0; k < o->infos_count; ++k)
                    if (o->name && o->infos[k].name && o->infos[k].value &&
                        is_identity_info(o->infos[k].name))
                        kept.identities.push_back(
                            {index, o->name, o->infos[k].name, o->infos[k].value});
            }
            kept.models.push_back(d.model);
            b_.add_device(std::move(d));
        };
        for (PendingGpu& g : gpus_) moved(std::move(g.device), g.objects);
        for (std::size_t k = 0; k < others_.size(); ++k)
            moved(std::move(others_[k]), other_objects_[k]);
        return kept;
    }

private:
    void io_object(hwloc_obj_t o, std::uint32_t parent, ObjectId loc) {
        if (o->type == HWLOC_OBJ_BRIDGE) {
            PciObject p{o->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST ? PciKind::HostBridge
                                                                               : PciKind::Bridge,
                        parent, loc};
            if (p.kind == PciKind::HostBridge) {
                p.domain = o->attr->bridge.downstream.pci.domain;
                p.bus = o->attr->bridge.downstream.pci.secondary_bus;
            } else {
                set_address(p, o->attr->bridge.upstream.pci);
            }
            const std::uint32_t id = add_pci(p, o);
            for (hwloc_obj_t c = o->io_first_child; c; c = c->next_sibling) io_object(c, id, loc);
        } else if (o->type == HWLOC_OBJ_PCI_DEVICE) {
            PciObject p{PciKind::Device, parent, loc};
            set_address(p, o->attr->pcidev);
            const std::uint32_t id = add_pci(p, o);
            std::vector<hwloc_obj_t> os;
            for (hwloc_obj_t c = o->io_first_child; c; c = c->next_sibling)
                if (c->type == HWLOC_OBJ_OS_DEVICE)
                    os.push_back(c);
                else
                    io_object(c, id, loc);
            if (!os.empty()) devices_of(os, id, o, loc);
        } else if (o->type == HWLOC_OBJ_OS_DEVICE) {
            devices_of({o}, no_pci, nullptr, loc);
        }
    }

    // OS devices hanging from a CPU-side object, with no PCI function to
    // say which views are one device (hwloc without its PCI discovery). CUDA
    // numbers GPUs fastest first and NVML in PCI order, so cuda1 and nvml1
    // need not be one GPU: only the first runtime present (runtimes' order)
    // makes GPUs, one per device; the other runtimes' views are left out
    // rather than joined by guess, and each adapter is a device of its own
    // (share/doc/gpu-nodes.md, "What a device is").
    void loose_devices(const std::vector<hwloc_obj_t>& os, ObjectId loc) {
        std::optional<std::size_t> first;
        for (hwloc_obj_t o : os)
            if (const auto r = runtime_of(o)) first = std::min(*r, first.value_or(*r));
        for (hwloc_obj_t o : os) {
            const auto r = runtime_of(o);
            if (!r || r == first) devices_of({o}, no_pci, nullptr, loc);
        }
    }

    std::uint32_t add_pci(const PciObject& p, hwloc_obj_t o) {
        pci_.push_back(p);
        pci_index_.emplace(o, static_cast<std::uint32_t>(pci_.size() - 1));
        return static_cast<std::uint32_t>(pci_.size() - 1);
    }

    static void set_address(PciObject& p, const hwloc_obj_attr_u::hwloc_pcidev_attr_s& a) {
        p.domain = a.domain;
        p.bus = a.bus;
        p.dev = a.dev;
        p.func = a.func;
        p.vendor_id = a.vendor_id;
        p.device_id = a.device_id;
    }

    // The devices of one PCI function (or one OS device outside PCI).
    void devices_of(const std::vector<hwloc_obj_t>& os, std::uint32_t pci, hwloc_obj_t pcidev,
                    ObjectId loc) {
        std::vector<std::vector<hwloc_obj_t>> by_runtime(std::size(runtimes));
        std::vector<hwloc_obj_t> rest;
        for (hwloc_obj_t o : os)
            if (const auto r = runtime_of(o))
                by_runtime[*r].push_back(o);
            else
                rest.push_back(o);
        std::size_t partitions = 0;
        for (const auto& v : by_runtime) partitions = std::max(partitions, v.size());
        const std::string pci_vendor = pcidev ? info(pcidev, "PCIVendor") : "";
        const std::string pci_model = pcidev ? info(pcidev, "PCIDevice") : "";
        if (partitions > 0) {
            // One GPU per partition: the i-th device of each runtime on this
            // function; other views (DRM card, render node) go with the first.
            for (std::size_t i = 0; i < partitions; ++i) {
                PendingGpu g{IoDevice{DeviceKind::Gpu, "", {}, pci, loc, "", "", ""},
                             std::vector<std::string>(std::size(runtimes)),
                             {}};
                std::string backends;
                for (std::size_t r = 0; r < std::size(runtimes); ++r) {
                    if (i >= by_runtime[r].size()) continue;
                    hwloc_obj_t o = by_runtime[r][i];
                    g.device.names.push_back(o->name);
                    g.objects.push_back(o);
                    g.runtime_names[r] = o->name;
                    if (g.device.vendor.empty()) g.device.vendor = info(o, "GPUVendor");
                    if (g.device.model.empty()) g.device.model = info(o, "GPUModel");
                    const std::string backend = info(o, "Backend");
                    if (!backend.empty()) backends += (backends.empty() ? "" : ",") + backend;
                }
                if (i == 0)
                    for (hwloc_obj_t o : rest) {
                        g.device.names.push_back(o->name);
                        g.objects.push_back(o);
                    }
                if (g.device.vendor.empty()) g.device.vendor = pci_vendor;
                if (g.device.model.empty()) g.device.model = pci_model;
                g.device.subtype = backends;
                gpus_.push_back(std::move(g));
            }
            return;
        }
        IoDevice d{DeviceKind::Other, "", {}, pci, loc, pci_vendor, pci_model, ""};
        bool fabric = false, network = false;
        for (hwloc_obj_t o : rest) {
            fabric |= o->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS;
            network |= o->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK;
        }
        // Disks, DMA engines and display-only devices are not kept: they
        // differ from host to host of one model (a disk more, a controller
        // on another function) and would split identical compute hosts into
        // machine types, while no job asks where they are
        // (share/doc/gpu-nodes.md).
        if (!fabric && !network) return;
        d.kind = DeviceKind::Nic;
        // The name a user knows the device by: the OpenFabrics device
        // (mlx5_0, hfi1_0) before its network interfaces (ib0).
        std::stable_sort(rest.begin(), rest.end(), [](hwloc_obj_t x, hwloc_obj_t y) {
            return (x->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS) >
                   (y->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS);
        });
        for (hwloc_obj_t o : rest)
            if (o->name) d.names.push_back(o->name);
        if (d.names.empty()) return;
        d.name = d.names.front();
        d.subtype = fabric ? "OpenFabrics" : "Network";
        others_.push_back(std::move(d));
        other_objects_.push_back(rest);
    }

    // gpuN follows the first runtime that numbers every GPU uniquely (cudaN,
    // nvmlN, rsmiN, zeN), else hwloc's PCI order.
    void number_gpus() {
        for (std::size_t r = 0; r + 1 < std::size(runtimes); ++r) {
            std::vector<std::uint32_t> index;
            for (const PendingGpu& g : gpus_)
                if (auto i = runtime_index(g.runtime_names[r], runtimes[r])) index.push_back(*i);
            std::vector<std::uint32_t> sorted = index;
            std::sort(sorted.begin(), sorted.end());
            if (index.size() != gpus_.size() || gpus_.empty() ||
                std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
                continue;
            for (std::size_t k = 0; k < gpus_.size(); ++k)
                gpus_[k].device.name = "gpu" + std::to_string(index[k]);
            std::stable_sort(gpus_.begin(), gpus_.end(),
                             [&](const PendingGpu& x, const PendingGpu& y) {
                                 return *runtime_index(x.runtime_names[r], runtimes[r]) <
                                        *runtime_index(y.runtime_names[r], runtimes[r]);
                             });
            return;
        }
        for (std::size_t k = 0; k < gpus_.size(); ++k)
            gpus_[k].device.name = "gpu" + std::to_string(k);
    }

    MachineTree::Builder& b_;
    const std::unordered_map<hwloc_obj_t, ObjectId>& ids_;
    std::vector<PciObject> pci_; // every PCI object met, hwloc's order
    std::unordered_map<hwloc_obj_t, std::uint32_t> pci_index_; // hwloc's object -> pci_ index
    std::vector<PendingGpu> gpus_;
    std::vector<IoDevice> others_;
    std::vector<std::vector<hwloc_obj_t>> other_objects_; // hwloc's OS devices of others_[k]
};

} // namespace

std::vector<DeviceIdentity> add_io(MachineTree::Builder& builder, hwloc_topology_t topo,
                                   const std::unordered_map<hwloc_obj_t, ObjectId>& cpu_ids) {
    IoWalk walk(builder, cpu_ids);
    walk.cpu_object(hwloc_get_root_obj(topo));
    const std::vector<HwlocMatrix> matrices = hwloc_matrices(topo);
    std::vector<hwloc_obj_t> endpoints;
    for (const HwlocMatrix& m : matrices)
        endpoints.insert(endpoints.end(), m.objects.begin(), m.objects.end());
    KeptIo kept = walk.finish(endpoints);
    add_interconnects(builder, matrices, kept, hwloc_release_of(topo));
    return std::move(kept.identities);
}

} // namespace nettopo::detail
