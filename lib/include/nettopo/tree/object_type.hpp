/// \file
/// Object types of a machine tree, following hwloc 2. Only the CPU side and
/// memory (NUMA) objects are kept; I/O and Misc objects carry no proximity.
/// \threads Values and pure functions: safe from several threads at once.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nettopo {

/// The types of the objects of a machine tree, hwloc's, from the root down.
enum class ObjectType : std::uint8_t {
    Machine,
    Package,
    Die,
    Group,
    NUMANode, ///< memory child of a CPU-side object, never an ancestor of a PU
    MemCache, ///< memory-side cache, memory child like NUMANode
    L5,
    L4,
    L3,
    L2,
    L1,
    L3i,
    L2i,
    L1i,
    Core,
    PU,
};

/// Number of ObjectType values.
inline constexpr std::size_t object_type_count = static_cast<std::size_t>(ObjectType::PU) + 1;

/// Name as lstopo prints it ("Package", "L3", "PU"). O(1), throws nothing.
std::string_view to_string(ObjectType type);

/// Accepts hwloc's names and the abbreviations of hwloc synthetic descriptions,
/// case-insensitively: "pack", "socket", "l3", "L3Cache", "numa", "node", ...
/// nullopt for another word. O(length); throws only std::bad_alloc (it
/// lowers a copy of `name`).
std::optional<ObjectType> parse_object_type(std::string_view name);

/// Whether `t` is a memory object (NUMANode, MemCache), never a PU's
/// ancestor. O(1), throws nothing.
constexpr bool is_memory(ObjectType t) {
    return t == ObjectType::NUMANode || t == ObjectType::MemCache;
}
/// Whether `t` is a CPU-side cache (L5..L1i). O(1), throws nothing.
constexpr bool is_cache(ObjectType t) {
    return t >= ObjectType::L5 && t <= ObjectType::L1i;
}

/// Whether `t` is a data or unified cache (L5..L1), one a source may call a
/// data cache (MachineTree::is_data_cache). O(1), throws nothing.
constexpr bool is_data_or_unified_cache(ObjectType t) {
    return t >= ObjectType::L5 && t <= ObjectType::L1;
}

} // namespace nettopo
