/// \file
/// Where a machine meets the network: each cabled port of its network
/// adapters (a GPU server's eight rail NICs, a host's one HCA). A machine is
/// one network vertex carrying all its cables; its attachments say which
/// cable leaves from which adapter, so that questions can start at an
/// adapter ("dgx01:mlx5_3") or at a GPU (through its nearest adapter) and
/// rails can be told apart (fabric/rails.hpp). The attachments never
/// forward: they are a table per machine, not vertices, so every
/// machine-level answer stays what it was (the best pair of adapters).
/// \threads A value type: as safe as any std::string holder.
#pragma once

#include "nettopo/support/ids.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nettopo {

/// One cabled port of one of a machine's network adapters (Cluster::attachments).
/// \cost A value: copying copies the device name; nothing throws but std::bad_alloc.
struct Attachment {
    /// The adapter's device name: its hwloc export's (`mlx5_3`) when the
    /// machine's tree has it, else the fabric's (`mlx5_3` as rdma-core names
    /// it, `HCA-4` as older stacks do). A machine's attachments are ordered
    /// by adapter index (adapter_index: mlx5_N and HCA-(N+1) side by side),
    /// name, then port.
    std::string device;
    std::uint64_t guid = 0; ///< the adapter's node GUID; 0 when unknown
    std::uint32_t port = 0; ///< the adapter's port number; 0 when unknown
    /// The vertex its cable reaches: a switch, or another machine (a host
    /// cabled straight to a host). The machine and it share a network link.
    VertexId peer;
    bool operator==(const Attachment&) const = default; ///< all fields equal
};

/// The index of an adapter device name, the same for both conventions:
/// `mlx5_3` (the kernel's name, the number it ends with) and `HCA-4`
/// (Mellanox OFED's, numbered from 1: HCA-(N+1) is mlx5_N) are both 3.
/// Nullopt for a name without a number. O(length), throws nothing.
std::optional<std::uint32_t> adapter_index(std::string_view device);

} // namespace nettopo
