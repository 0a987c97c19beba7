/// \file
/// The I/O side of one machine: GPUs, network adapters and other devices,
/// and the PCI tree that attaches them to the CPU side. They belong to the
/// machine's tree (its structure, shared by identical hosts); what differs
/// from host to host (GUIDs, UUIDs, addresses) is not kept here.
///
/// What a device is, how GPUs are numbered and what "local" means are in
/// share/doc/gpu-nodes.md.
/// \threads Plain values: const use from several threads at once is safe.
/// \cost Every function here is O(1) or O(length of its text) and throws
/// nothing but std::bad_alloc (device_kind_from: nothing).
#pragma once

#include "nettopo/support/ids.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// No PCI object (a device hwloc found outside the PCI tree).
inline constexpr std::uint32_t no_pci = 0xffffffffu;

/// What a PCI object of the I/O tree is. The host bridges are the roots of
/// the PCI tree below a CPU-side object; a PCIe switch is an upstream bridge
/// with downstream-port bridges below it.
enum class PciKind : std::uint8_t {
    HostBridge, ///< the root of a PCI hierarchy (hwloc: a bridge whose upstream is the host)
    Bridge,     ///< a PCI-to-PCI bridge (a switch's upstream or downstream port)
    Device,     ///< a PCI function (GPU, adapter, disk controller...)
};

/// One object of the PCI tree, in hwloc's order (parents first).
struct PciObject {
    PciKind kind;                ///< what it is
    std::uint32_t parent;        ///< index of its PCI parent, no_pci for a host bridge
    ObjectId locality;           ///< the CPU-side object this hierarchy hangs from
    std::uint32_t domain = 0;    ///< PCI domain (0000)
    std::uint8_t bus = 0;        ///< bus number
    std::uint8_t dev = 0;        ///< device number
    std::uint8_t func = 0;       ///< function number
    std::uint16_t vendor_id = 0; ///< PCI vendor id (0x10de NVIDIA, 0x15b3 Mellanox...)
    std::uint16_t device_id = 0; ///< PCI device id
    // No PCI class: one adapter model reports 0x0c06 or 0x0280 with its
    // port's mode (seen on the shared plafrim exports), which would split
    // identical hosts into machine types for nothing a query uses.
    bool operator==(const PciObject&) const = default; ///< all fields equal
};

/// "0000:8a:00.0", as lspci -D and hwloc print a PCI address.
std::string pci_bus_id(const PciObject& p);

/// What a device is for a job script.
enum class DeviceKind : std::uint8_t {
    Gpu,     ///< a GPU a compute runtime enumerates (CUDA, NVML, RSMI, LevelZero, OpenCL)
    Nic,     ///< a network adapter (OpenFabrics, Ethernet, IPoIB, Slingshot)
    Storage, ///< a block device (disk, NVMe)
    Other,   ///< anything else hwloc reports (DMA engines, co-processors that are not GPUs)
};

/// "gpu", "nic", "storage", "other".
std::string_view to_string(DeviceKind k);
/// The kind a word names ("gpu", "nic", "storage", "other"), or nullopt.
std::optional<DeviceKind> device_kind_from(std::string_view word);

/// One device: the views hwloc gives of one PCI function (CUDA, NVML and
/// OpenCL names of one GPU; the OpenFabrics device and the network
/// interfaces of one adapter port), or one partition of it (each `rsmi`
/// device of an MI300A in CPX mode is a GPU).
struct IoDevice {
    DeviceKind kind;                ///< what it is
    std::string name;               ///< unique in the machine: gpu2, mlx5_0, eno1, nvme0n1
    std::vector<std::string> names; ///< every name hwloc gave it (cuda2, nvml2, opencl0d2...)
    std::uint32_t pci = no_pci;     ///< index into MachineTree::pci(), or no_pci
    ObjectId locality;              ///< the CPU-side object whose PUs are local to it
    std::string vendor;             ///< "NVIDIA Corporation", or empty
    std::string model;              ///< "NVIDIA H100 80GB HBM3", or empty
    std::string subtype;            ///< the backends or link, e.g. "CUDA,NVML", "InfiniBand"
    bool operator==(const IoDevice&) const = default; ///< all fields equal
};

/// What tells one host's device from the same device of an identical host
/// (the adapter's GUIDs and port LIDs, a GPU's UUID and serial number, an
/// interface's address): hwloc's info of one of the device's OS devices. The
/// device belongs to the machine's type; its identities belong to the machine
/// (Cluster::identities).
struct DeviceIdentity {
    std::uint32_t device = 0; ///< index into the machine tree's devices()
    std::string view;         ///< the OS device hwloc gave it on: mlx5_0, ib0, nvml2
    std::string name;         ///< hwloc's info name: NodeGUID, Port1LID, Address, NVIDIAUUID
    std::string value;        ///< as hwloc gives it: "043f:7203:00ae:a282"
    bool operator==(const DeviceIdentity&) const = default; ///< all fields equal
};

/// Whether hwloc's info `name` of an OS device is an identity nettopo keeps:
/// NodeGUID, SysImageGUID, Port<N>LID, Port<N>LMC, Port<N>State (OpenFabrics),
/// Address (network interfaces), NVIDIAUUID, NVIDIASerial, AMDUUID,
/// AMDSerial, LevelZeroUUID, LevelZeroSerialNumber (GPUs).
bool is_identity_info(std::string_view name);

/// What is wrong with an identity's texts, or empty: an empty view or name,
/// a view that breaks the rule of names, a name or value that is not UTF-8
/// or holds a control character. O(length of its texts).
std::string identity_problem(const DeviceIdentity& identity);

} // namespace nettopo
