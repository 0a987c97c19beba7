#include "hwloc/interconnect_convert.hpp"

#include <algorithm>
#include <optional>

namespace nettopo::detail {

std::vector<HwlocMatrix> hwloc_matrices(hwloc_topology_t topo) {
    std::vector<HwlocMatrix> out;
    for (InterconnectKind kind :
         {InterconnectKind::NvlinkBandwidth, InterconnectKind::XgmiBandwidth,
          InterconnectKind::XgmiHops, InterconnectKind::XelinkBandwidth}) {
        const std::string name(to_string(kind));
        unsigned nr = 1;
        hwloc_distances_s* d = nullptr;
        if (hwloc_distances_get_by_name(topo, name.c_str(), &nr, &d, 0) != 0 || nr == 0 || !d)
            continue;
        HwlocMatrix m{
            kind, std::vector<hwloc_obj_t>(d->objs, d->objs + d->nbobjs),
            std::vector<std::uint64_t>(d->values, d->values + std::size_t{d->nbobjs} * d->nbobjs)};
        hwloc_distances_release(topo, d);
        out.push_back(std::move(m));
    }
    return out;
}

std::string hwloc_release_of(hwloc_topology_t topo) {
    const char* v = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "hwlocVersion");
    return v ? v : "";
}

// hwloc's nvml backend adds, for each active link, a bandwidth chosen by
// the link's NVLink version (nvmlDeviceGetNvLinkVersion), which no export
// records (hwloc/topology-nvml.c): version 1 (P100) 20000 MB/s; versions 2
// to 6 (V100, A100, H100) 25000; version 7 (Blackwell, hwloc >= 2.12)
// 50000. hwloc 2.9.0 alone counted 50000 for versions 3 and 4 (A100), which
// 2.9.1 took back. The version follows from the GPU's model.
std::uint64_t nvlink_link_mbps(std::string_view model, std::string_view release) {
    const auto has = [&](std::string_view word) {
        return model.find(word) != std::string_view::npos;
    };
    if (has("P100")) return 20000;
    if (has("B100") || has("B200") || has("B300")) return 50000; // GB200, GB300 included
    if (release.starts_with("2.9.0") && !has("V100")) return 50000;
    return 25000;
}

namespace {

// The endpoint hwloc's object `o` is, or nullopt when nettopo keeps it not.
std::optional<InterconnectEndpoint> endpoint_of(hwloc_obj_t o, const KeptIo& kept) {
    if (o->type == HWLOC_OBJ_OS_DEVICE) {
        const auto at = kept.devices.find(o);
        if (at != kept.devices.end()) return InterconnectEndpoint{EndpointKind::Device, at->second};
    } else if (o->type == HWLOC_OBJ_PCI_DEVICE || o->type == HWLOC_OBJ_BRIDGE) {
        const auto at = kept.pci.find(o);
        if (at != kept.pci.end()) return InterconnectEndpoint{EndpointKind::Pci, at->second};
    } else if (const auto at = kept.cpu.find(o); at != kept.cpu.end()) {
        return InterconnectEndpoint{EndpointKind::Cpu, at->second.value};
    }
    return std::nullopt;
}

} // namespace

void add_interconnects(MachineTree::Builder& builder, const std::vector<HwlocMatrix>& matrices,
                       const KeptIo& kept, std::string_view release) {
    for (const HwlocMatrix& h : matrices) {
        // Rows of objects nettopo does not keep (a LevelZero sub-device, an
        // OS device of no kept device) go, and so does a second row of one
        // endpoint (two views of one GPU): the first stays.
        Interconnect m{h.kind, {}, {}, 0};
        std::vector<std::size_t> rows;
        for (std::size_t i = 0; i < h.objects.size(); ++i) {
            const auto e = endpoint_of(h.objects[i], kept);
            if (!e || std::find(m.endpoints.begin(), m.endpoints.end(), *e) != m.endpoints.end())
                continue;
            m.endpoints.push_back(*e);
            rows.push_back(i);
        }
        const auto device = std::find_if(m.endpoints.begin(), m.endpoints.end(),
                                         [](auto e) { return e.kind == EndpointKind::Device; });
        if (rows.size() < 2 || device == m.endpoints.end()) continue;
        for (std::size_t i : rows)
            for (std::size_t j : rows) m.values.push_back(h.values[i * h.objects.size() + j]);
        if (h.kind == InterconnectKind::NvlinkBandwidth)
            m.link_mbps = nvlink_link_mbps(kept.models[device->index], release);
        builder.add_interconnect(std::move(m));
    }
}

} // namespace nettopo::detail
