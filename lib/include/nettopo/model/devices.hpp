/// \file
/// The I/O devices of a cluster's machines (tree/io_devices.hpp) as a job
/// script asks about them: which machine has a device of that name, which
/// PEs and NUMA nodes are local to it. The rules are in
/// share/doc/gpu-nodes.md.
/// \threads Free functions over a const cluster: safe from several threads.
/// \cost find_devices is O(machines x devices x names) for a bare device
/// name, O(devices x names) with a host (find_device likewise); the others
/// are O(tree objects) at most. They throw std::bad_alloc only (find_devices
/// and find_device: see below).
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// One device of one machine.
struct MachineDevice {
    MachineId machine;   ///< the machine
    std::uint32_t index; ///< into the machine type's MachineTree::devices()
    bool operator==(const MachineDevice&) const = default; ///< same device
};

/// The devices a user names: "HOST:DEVICE" (dgx01:gpu2, dgx01:mlx5_0), or
/// a bare device name (gpu2, cuda2, mlx5_0), which names that device on
/// every machine that has one, in machine order. Empty when the text names
/// no device (a host that does not exist, a device no machine has): the
/// caller decides whether the text meant something else. Throws nothing
/// but std::bad_alloc.
std::vector<MachineDevice> find_devices(const Cluster& cluster, std::string_view text);

/// The one device `text` names (as find_devices reads it); nullopt when it
/// names none. Throws UsageError when a bare name names a device of several
/// machines ("'gpu2' names a device of 16 machines (n01, n02, ...): say
/// which, as n01:gpu2"), std::bad_alloc otherwise.
std::optional<MachineDevice> find_device(const Cluster& cluster, std::string_view text);

/// The device itself.
const IoDevice& device(const Cluster& cluster, MachineDevice d);

/// The cluster's PEs local to the device: its locality's PUs on its machine
/// (what `hwloc-calc --po -I pu os=NAME` lists, as PEs).
PeRange device_pes(const Cluster& cluster, MachineDevice d);

/// The OS indexes of PEs `pes` of one machine as a CPU list ("0-3,8", what
/// `cpuset-of` prints and taskset -c reads); a PU whose source gave no OS
/// index is written by its logical index in its machine. O(pes.count log
/// pes.count).
std::string cpu_list_of(const Cluster& cluster, PeRange pes);

/// cpu_list_of(device_pes): "98-111,210-223" for gpu2 of the SNC4 server.
std::string device_cpu_list(const Cluster& cluster, MachineDevice d);

/// The OS indexes of the NUMA nodes local to the device, ascending: those
/// whose PUs intersect the device's (hwloc-calc -I numa os=NAME).
std::vector<std::uint32_t> device_numa_nodes(const Cluster& cluster, MachineDevice d);

/// The PCI address of the device ("0000:8a:00.0"), or empty outside PCI.
std::string device_pci_bus_id(const Cluster& cluster, MachineDevice d);

/// The identities of device `d` on its machine (Cluster::identities: its
/// GUIDs, port LIDs, UUID, addresses), in the order the source gave them.
/// O(identities of the machine).
std::vector<DeviceIdentity> device_identities(const Cluster& cluster, MachineDevice d);

/// The value of device `d`'s first identity called one of `names` (in that
/// order of preference, over all its views), or empty: `{"NodeGUID"}` for an
/// adapter's GUID, `{"NVIDIAUUID", "AMDUUID", "LevelZeroUUID"}` for a GPU's
/// UUID. O(identities of the machine x names).
std::string device_identity(const Cluster& cluster, MachineDevice d,
                            std::initializer_list<std::string_view> names);

/// How far PE `p` of the device's machine is from the device: 0 for a PE
/// local to it; else the least latency between one of its local PUs and
/// `p` (share/doc/gpu-nodes.md, "Nearest"). nullopt for a PE of another
/// machine. O(NUMA nodes of the machine).
std::optional<double> device_latency(const Cluster& cluster, MachineDevice d, PeId p);

/// A device and its latency from a PE (nearest_devices).
struct NearDevice {
    MachineDevice device; ///< the device
    double latency_ns;    ///< device_latency from the PE
};

/// The devices of PE `p`'s machine, nearest first (ties in the machine's
/// device order: GPUs by number, then hwloc's order), only those of `kind`
/// when given. O(devices x NUMA nodes + devices log devices).
std::vector<NearDevice> nearest_devices(const Cluster& cluster, PeId p,
                                        std::optional<DeviceKind> kind = std::nullopt);

} // namespace nettopo
