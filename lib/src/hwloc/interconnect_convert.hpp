// hwloc's GPU interconnect matrices (NVLinkBandwidth, XGMIBandwidth,
// XGMIHops, XeLinkBandwidth) into the machine tree, over the devices the I/O
// walk kept (io_convert.cpp): the rules of share/doc/gpu-nodes.md, "GPU
// interconnects".
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <cstdint>
#include <hwloc.h>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nettopo::detail {

// One matrix as hwloc gives it: its objects and values, row-major.
struct HwlocMatrix {
    InterconnectKind kind;
    std::vector<hwloc_obj_t> objects;
    std::vector<std::uint64_t> values;
};

// The first matrix of each kind hwloc holds for `topo` (hwloc has already
// left out the objects an export names but does not have).
std::vector<HwlocMatrix> hwloc_matrices(hwloc_topology_t topo);

// Where the I/O walk put hwloc's objects.
struct KeptIo {
    std::unordered_map<hwloc_obj_t, std::uint32_t> devices; // OS device -> kept device
    std::unordered_map<hwloc_obj_t, std::uint32_t> pci;     // PCI object -> kept PCI object
    const std::unordered_map<hwloc_obj_t, ObjectId>& cpu;   // CPU-side object -> tree object
    std::vector<std::string> models;                        // each kept device's model
    std::vector<DeviceIdentity> identities; // the kept devices' identities, by device
};

// The release of hwloc that wrote the matrices: the export's "hwlocVersion"
// (hwloc adds its own on a live discovery), "" when unknown.
std::string hwloc_release_of(hwloc_topology_t topo);

// The bandwidth hwloc's nvml backend counted for one NVLink link of a GPU
// of model `model`, by hwloc release `release` (gpu-nodes.md): 20000,
// 25000 or 50000 MB/s.
std::uint64_t nvlink_link_mbps(std::string_view model, std::string_view release);

// Adds each matrix over the endpoints nettopo kept; one that keeps no device
// or fewer than two endpoints is left out.
void add_interconnects(MachineTree::Builder& builder, const std::vector<HwlocMatrix>& matrices,
                       const KeptIo& kept, std::string_view release);

} // namespace nettopo::detail
