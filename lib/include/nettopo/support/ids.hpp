// Strong identifier types. Every entity of a cluster is addressed by a dense
// 32-bit index into flat arrays; the tag keeps a PE index from being passed
// where a machine index is expected.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace nettopo {

template <class Tag> struct Id {
    using rep = std::uint32_t;
    static constexpr rep invalid_value = std::numeric_limits<rep>::max();

    rep value = invalid_value;

    constexpr Id() = default;
    constexpr explicit Id(rep v) : value(v) {}
    constexpr bool valid() const { return value != invalid_value; }
    constexpr auto operator<=>(const Id&) const = default;
};

using PeId = Id<struct PeTag>;           // a PU, numbered over the whole cluster
using MachineId = Id<struct MachineTag>; // a host
using SwitchId = Id<struct SwitchTag>;   // a network switch (not a host)
using NodeId = Id<struct NodeTag>;       // a node: the PUs below one object of the node level
using VertexId = Id<struct VertexTag>;   // a network vertex: machines first, then switches
using TypeId = Id<struct TypeTag>;       // a machine type (one shared tree)
using ObjectId = Id<struct ObjectTag>;   // an object inside one machine tree
using TaskId = Id<struct TaskTag>;       // a migratable task of an application being balanced

// Largest count any id type can hold: ids run 0..max_id_count-1 and the
// all-ones value is reserved for "invalid".
inline constexpr std::uint64_t max_id_count = Id<void>::invalid_value;

} // namespace nettopo

template <class Tag> struct std::hash<nettopo::Id<Tag>> {
    std::size_t operator()(nettopo::Id<Tag> id) const noexcept { return id.value; }
};
