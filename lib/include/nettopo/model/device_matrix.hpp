/// \file
/// How a machine's GPUs and adapters reach each other, in the classes
/// NVIDIA's `nvidia-smi topo -m` prints, computed from the PCI tree and the
/// GPU interconnects (share/doc/gpu-nodes.md, "The device matrix").
/// \threads Free functions over a const cluster: safe from several threads.
/// \cost device_link is O(PCI depth), matrix_entry O(PCI depth + matrix
/// endpoints), matrix_devices O(D) for D devices; they throw std::bad_alloc
/// only.
#pragma once

#include "nettopo/model/devices.hpp"

#include <string>
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

/// The entry of the matrix for devices `a` and `b` of machine `m`: their GPU
/// link's label ("NV6", "XGMI", "XL"; model/gpu_links.hpp) when one joins
/// them, as nvidia-smi prefers NVLink to the PCIe path, else their class
/// ("PIX", ...; "X" for a == b).
std::string matrix_entry(const Cluster& cluster, MachineId m, std::uint32_t a, std::uint32_t b);

/// The GPUs then the adapters of machine `m` (the devices a matrix shows), in
/// the machine's device order.
std::vector<std::uint32_t> matrix_devices(const Cluster& cluster, MachineId m);

} // namespace nettopo
