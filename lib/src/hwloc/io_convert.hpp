// The I/O side of an hwloc topology (PCI tree, GPUs, network adapters...)
// into a MachineTree::Builder, after its CPU side: the rules of
// share/doc/gpu-nodes.md (what a device is, how GPUs are numbered).
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <hwloc.h>
#include <unordered_map>
#include <vector>

namespace nettopo::detail {

// `cpu_ids`: the tree's id of every CPU-side hwloc object added. Returns
// the kept devices' identities (what differs between identical hosts), by
// device, each device's OS devices in hwloc's order.
std::vector<DeviceIdentity> add_io(MachineTree::Builder& builder, hwloc_topology_t topo,
                                   const std::unordered_map<hwloc_obj_t, ObjectId>& cpu_ids);

} // namespace nettopo::detail
