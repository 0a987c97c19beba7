/// \file
/// Strong identifier types. Every entity of a cluster is addressed by a dense
/// 32-bit index into flat arrays; the tag keeps a PE index from being passed
/// where a machine index is expected.
/// \cost Ids are values: every call is O(1), constexpr where it can be, and
/// throws nothing.
/// \threads Values with no shared state: safe from several threads at once.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace nettopo {

/// A dense 32-bit index tagged with what it indexes (PeId, MachineId, ...).
template <class Tag> struct Id {
    using rep = std::uint32_t; ///< the index's type
    /// The value of a default-made id, which names nothing.
    static constexpr rep invalid_value = std::numeric_limits<rep>::max();

    rep value = invalid_value; ///< the index

    /// An invalid id.
    constexpr Id() = default;
    /// The id of index `v` (no range check: the cluster's require_* check).
    constexpr explicit Id(rep v) : value(v) {}
    /// Whether the id names something (is not invalid_value).
    constexpr bool valid() const { return value != invalid_value; }
    /// Ordered by index.
    constexpr auto operator<=>(const Id&) const = default;
};

using PeId = Id<struct PeTag>;           ///< a PU, numbered over the whole cluster
using MachineId = Id<struct MachineTag>; ///< a host
using SwitchId = Id<struct SwitchTag>;   ///< a network switch (not a host)
using NodeId = Id<struct NodeTag>;       ///< a node: the PUs below one object of the node level
using VertexId = Id<struct VertexTag>;   ///< a network vertex: machines first, then switches
using TypeId = Id<struct TypeTag>;       ///< a machine type (one shared tree)
using ObjectId = Id<struct ObjectTag>;   ///< an object inside one machine tree
using TaskId = Id<struct TaskTag>;       ///< a migratable task of an application being balanced

/// Largest count any id type can hold: ids run 0..max_id_count-1 and the
/// all-ones value is reserved for "invalid".
inline constexpr std::uint64_t max_id_count = Id<void>::invalid_value;

} // namespace nettopo

/// Ids hash to their index.
template <class Tag> struct std::hash<nettopo::Id<Tag>> {
    /// The index.
    std::size_t operator()(nettopo::Id<Tag> id) const noexcept { return id.value; }
};
