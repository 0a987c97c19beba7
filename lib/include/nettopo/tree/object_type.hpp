// Object types of a machine tree, following hwloc 2. Only the CPU side and
// memory (NUMA) objects are kept; I/O and Misc objects carry no proximity.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nettopo {

enum class ObjectType : std::uint8_t {
    Machine,
    Package,
    Die,
    Group,
    NUMANode, // memory child of a CPU-side object, never an ancestor of a PU
    MemCache, // memory-side cache, memory child like NUMANode
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

inline constexpr std::size_t object_type_count = static_cast<std::size_t>(ObjectType::PU) + 1;

// Name as lstopo prints it ("Package", "L3", "PU").
std::string_view to_string(ObjectType type);

// Accepts hwloc's names and the abbreviations of hwloc synthetic descriptions,
// case-insensitively: "pack", "socket", "l3", "L3Cache", "numa", "node", ...
std::optional<ObjectType> parse_object_type(std::string_view name);

constexpr bool is_memory(ObjectType t) {
    return t == ObjectType::NUMANode || t == ObjectType::MemCache;
}
constexpr bool is_cache(ObjectType t) {
    return t >= ObjectType::L5 && t <= ObjectType::L1i;
}

} // namespace nettopo
