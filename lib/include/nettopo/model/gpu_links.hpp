/// \file
/// Which GPU interconnect joins two devices of a machine (NVLink, AMD's XGMI,
/// Intel's XeLink), read from hwloc's matrices the machine's tree keeps
/// (tree/gpu_interconnect.hpp), and its label as nvidia-smi topo -m and
/// rocm-smi --showtopo print it. The rules (links counted from bandwidths,
/// NVSwitches) are in share/doc/gpu-nodes.md, "GPU interconnects".
/// \threads Free functions over const values: safe from several threads.
/// \cost gpu_link is O(endpoints of the machine's matrices); link_label is
/// O(1). They throw std::bad_alloc only (gpu_link: nothing).
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace nettopo {

/// The interconnect of a GPU link.
enum class GpuLinkKind : std::uint8_t {
    Nvlink, ///< NVIDIA NVLink, direct or through NVSwitches
    Xgmi,   ///< AMD Infinity Fabric (XGMI)
    Xelink, ///< Intel Xe Link
};

/// How two devices of one machine are linked.
struct GpuLink {
    GpuLinkKind kind; ///< the interconnect
    /// hwloc's unidirectional bandwidth between them, links summed (through
    /// NVSwitches: the smaller of the two GPUs' bandwidths to the switches);
    /// 0 when the machine gives only hops (XGMIHops without XGMIBandwidth).
    std::uint64_t bandwidth_mbps;
    /// NVLink: the links (nvidia-smi's NV<n>), the bandwidth over one link's
    /// (Interconnect::link_mbps), rounded, at least 1; 0 for the others.
    std::uint32_t links;
    /// XGMI: hwloc's XGMIHops (1 for a direct link); 0 when not given.
    std::uint32_t hops;
    /// NVLink through NVSwitches (DGX-2, HGX boards) rather than direct.
    bool through_switch;
    bool operator==(const GpuLink&) const = default; ///< all fields equal
};

/// The link between devices `a` and `b` of machine `m` (indexes into its
/// type's devices()), nullopt when no matrix of the machine joins them, or
/// when a == b. NVLink is looked at first, then XGMI, then XeLink.
/// Precondition: a and b in range.
std::optional<GpuLink> gpu_link(const Cluster& cluster, MachineId m, std::uint32_t a,
                                std::uint32_t b);

/// The label of the matrix entry: "NV<links>" ("NV6"), "XGMI" (rocm-smi's
/// link type), "XL" (Xe Link).
std::string link_label(const GpuLink& link);

} // namespace nettopo
