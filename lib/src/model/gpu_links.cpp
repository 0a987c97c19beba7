#include "nettopo/model/gpu_links.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace nettopo {

namespace {

// The row of device `d` in `m`, or nullopt.
std::optional<std::size_t> row_of(const Interconnect& m, std::uint32_t d) {
    const InterconnectEndpoint want{EndpointKind::Device, d};
    const auto at = std::find(m.endpoints.begin(), m.endpoints.end(), want);
    if (at == m.endpoints.end()) return std::nullopt;
    return static_cast<std::size_t>(at - m.endpoints.begin());
}

// The first matrix of `kind` holding both devices, with their rows.
struct Rows {
    const Interconnect* matrix = nullptr;
    std::size_t a = 0, b = 0;
};
Rows rows_of(const MachineTree& tree, InterconnectKind kind, std::uint32_t a, std::uint32_t b) {
    for (const Interconnect& m : tree.interconnects()) {
        if (m.kind != kind) continue;
        const auto ra = row_of(m, a), rb = row_of(m, b);
        if (ra && rb) return {&m, *ra, *rb};
    }
    return {};
}

// hwloc's NVLink matrix names the links of each GPU to each NVSwitch port,
// never the switches' links to each other: the GPUs of one machine that
// reach switches are taken as one NVSwitch fabric (DGX-2's two baseboards
// are joined by switch-to-switch links), as nvidia-smi shows them, and a
// pair gets the smaller of its two GPUs' bandwidths to the switches.
std::optional<GpuLink> nvlink(const MachineTree& tree, std::uint32_t a, std::uint32_t b) {
    const Rows r = rows_of(tree, InterconnectKind::NvlinkBandwidth, a, b);
    if (!r.matrix) return std::nullopt;
    const Interconnect& m = *r.matrix;
    std::uint64_t to_switch_a = 0, to_switch_b = 0;
    for (std::size_t s = 0; s < m.endpoints.size(); ++s)
        if (m.endpoints[s].kind == EndpointKind::Pci) {
            to_switch_a += m.value(r.a, s);
            to_switch_b += m.value(r.b, s);
        }
    const std::uint64_t switched =
        to_switch_a > 0 && to_switch_b > 0 ? std::min(to_switch_a, to_switch_b) : 0;
    const std::uint64_t bandwidth = m.value(r.a, r.b) + switched;
    if (bandwidth == 0) return std::nullopt;
    const std::uint64_t links = (bandwidth + m.link_mbps / 2) / m.link_mbps;
    return GpuLink{GpuLinkKind::Nvlink, bandwidth,
                   static_cast<std::uint32_t>(std::clamp<std::uint64_t>(links, 1, 0xffffffffu)), 0,
                   switched > 0};
}

// XGMIBandwidth and XGMIHops are two matrices over the same GPUs.
std::optional<GpuLink> xgmi(const MachineTree& tree, std::uint32_t a, std::uint32_t b) {
    const Rows bw = rows_of(tree, InterconnectKind::XgmiBandwidth, a, b);
    const Rows hops = rows_of(tree, InterconnectKind::XgmiHops, a, b);
    const std::uint64_t bandwidth = bw.matrix ? bw.matrix->value(bw.a, bw.b) : 0;
    const std::uint64_t h = hops.matrix ? hops.matrix->value(hops.a, hops.b) : 0;
    if (bandwidth == 0 && h == 0) return std::nullopt;
    return GpuLink{GpuLinkKind::Xgmi, bandwidth, 0,
                   static_cast<std::uint32_t>(std::min<std::uint64_t>(h, 0xffffffffu)), false};
}

std::optional<GpuLink> xelink(const MachineTree& tree, std::uint32_t a, std::uint32_t b) {
    const Rows r = rows_of(tree, InterconnectKind::XelinkBandwidth, a, b);
    if (!r.matrix || r.matrix->value(r.a, r.b) == 0) return std::nullopt;
    return GpuLink{GpuLinkKind::Xelink, r.matrix->value(r.a, r.b), 0, 0, false};
}

} // namespace

std::optional<GpuLink> gpu_link(const Cluster& cluster, MachineId m, std::uint32_t a,
                                std::uint32_t b) {
    if (a == b) return std::nullopt;
    const MachineTree& tree = cluster.machine_type(m).tree();
    if (auto l = nvlink(tree, a, b)) return l;
    if (auto l = xgmi(tree, a, b)) return l;
    return xelink(tree, a, b);
}

std::string link_label(const GpuLink& link) {
    switch (link.kind) {
    case GpuLinkKind::Nvlink:
        return fmt::format("NV{}", link.links);
    case GpuLinkKind::Xgmi:
        return "XGMI";
    case GpuLinkKind::Xelink:
        break;
    }
    return "XL";
}

} // namespace nettopo
