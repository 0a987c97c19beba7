/// \file
/// How a machine's GPUs and adapters reach each other, in the classes
/// NVIDIA's `nvidia-smi topo -m` prints, computed from the PCI tree
/// (share/doc/gpu-nodes.md, "The device matrix").
/// \threads Free functions over a const cluster: safe from several threads.
/// \cost O(D^2 x PCI depth) for D devices; throws std::bad_alloc only.
#pragma once

#include "nettopo/model/devices.hpp"

#include <string_view>
#include <vector>

namespace nettopo {

/// The class of the path between two devices of one machine.
enum class DeviceLink : std::uint8_t {
    Self, ///< X: the device itself
    Pix,  ///< PIX: through at most one PCIe switch (or one bridge)
    Pxb,  ///< PXB: through several PCIe switches, not the host bridge
    Phb,  ///< PHB: through a PCIe host bridge
    Node, ///< NODE: between host bridges of one NUMA node
    Sys,  ///< SYS: across NUMA nodes (the CPUs' interconnect)
};

/// "X", "PIX", "PXB", "PHB", "NODE", "SYS".
std::string_view to_string(DeviceLink l);

/// The class between devices `a` and `b` of machine `m` (indexes into its
/// type's devices()).
DeviceLink device_link(const Cluster& cluster, MachineId m, std::uint32_t a, std::uint32_t b);

/// The GPUs then the adapters of machine `m` (the devices a matrix shows), in
/// the machine's device order.
std::vector<std::uint32_t> matrix_devices(const Cluster& cluster, MachineId m);

} // namespace nettopo
