/// \file
/// GPUs and network adapters for machines no discovery saw: what the words
/// `gpu:N` and `nic:N` of a synthetic description ask for ("pack:2 numa:1
/// core:56 pu:2 gpu:8 nic:8"), so that generated and described GPU clusters
/// answer the questions real ones do (devices, cpuset-of, nearest-device,
/// device-matrix, distribute --gpus-per-rank).
///
/// The rule (share/doc/gpu-nodes.md, "Generated and described machines"):
/// the devices of each kind are spread in blocks over the machine's
/// localities (device_localities), device i of N on locality floor(i·k/N) of
/// k; on each locality its j-th GPU and j-th adapter share a PCIe switch,
/// and each such pair has a host bridge of its own, as on a DGX H100. GPUs
/// are gpu0.. and adapters mlx5_0.. (rdma-core's names), both in PCI order.
///
/// \threads Pure functions of their arguments: safe from several threads at once.
/// \cost device_localities is O(objects + memory objects · log); with_generated_devices
/// O(objects + devices²) (the tree's own check of device names), allocating the
/// new tree. Both throw std::bad_alloc; with_generated_devices also InputError
/// as it says.
#pragma once

#include "nettopo/support/ids.hpp"
#include "nettopo/tree/machine_tree.hpp"

#include <cstdint>
#include <vector>

namespace nettopo {

/// How many devices of each kind a machine is given.
struct DeviceCounts {
    std::uint32_t gpus = 0; ///< GPUs (`gpu:N`)
    std::uint32_t nics = 0; ///< network adapters (`nic:N`)

    /// Both counts equal.
    bool operator==(const DeviceCounts&) const = default;
};

/// The most devices of one kind a generated machine takes: four times the
/// largest GPU servers sold (16 GPUs, 16 adapter ports), far below what would
/// exhaust PCI addresses (a domain per 15 switches).
inline constexpr std::uint32_t max_generated_devices = 64;

/// The CPU-side objects generated devices hang from, in the tree's order:
/// the objects the machine's NUMA nodes hang from when there are several
/// (the innermost, when one holds another; none without PUs), else its
/// packages when there are several, else the Machine itself. hwloc adds one
/// NUMA node for the whole machine to a description without a NUMA level, so
/// "pack:2 core:8 pu:2" spreads over its packages and "pack:2 numa:2 core:4
/// pu:2" over its four NUMA nodes. Costs what the file's comment says.
std::vector<ObjectId> device_localities(const MachineTree& tree);

/// `tree` with `counts` devices added as the file's comment says: its
/// objects, memory and NUMA distances unchanged. InputError when a count
/// passes max_generated_devices, or when `tree` has devices already (the
/// generated names would meet discovered ones). With no device asked for,
/// the tree is returned as it is.
MachineTree with_generated_devices(const MachineTree& tree, DeviceCounts counts);

} // namespace nettopo
