#include "nettopo/tree/object_type.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace nettopo {

namespace {
constexpr std::array<std::string_view, object_type_count> names = {
    "Machine", "Package", "Die", "Group", "NUMANode", "MemCache", "L5",   "L4",
    "L3",      "L2",      "L1",  "L3i",   "L2i",      "L1i",      "Core", "PU"};

struct Alias {
    std::string_view name;
    ObjectType type;
};
// hwloc's type names and the abbreviations its synthetic parser accepts.
constexpr Alias aliases[] = {
    {"machine", ObjectType::Machine},
    {"package", ObjectType::Package},
    {"pack", ObjectType::Package},
    {"socket", ObjectType::Package},
    {"die", ObjectType::Die},
    {"group", ObjectType::Group},
    {"numanode", ObjectType::NUMANode},
    {"numa", ObjectType::NUMANode},
    {"node", ObjectType::NUMANode},
    {"memcache", ObjectType::MemCache},
    {"l5", ObjectType::L5},
    {"l5cache", ObjectType::L5},
    {"l4", ObjectType::L4},
    {"l4cache", ObjectType::L4},
    {"l3", ObjectType::L3},
    {"l3cache", ObjectType::L3},
    {"l3d", ObjectType::L3},
    {"l3dcache", ObjectType::L3},
    {"l2", ObjectType::L2},
    {"l2cache", ObjectType::L2},
    {"l2d", ObjectType::L2},
    {"l2dcache", ObjectType::L2},
    {"l1", ObjectType::L1},
    {"l1cache", ObjectType::L1},
    {"l1d", ObjectType::L1},
    {"l1dcache", ObjectType::L1},
    {"l3i", ObjectType::L3i},
    {"l3icache", ObjectType::L3i},
    {"l2i", ObjectType::L2i},
    {"l2icache", ObjectType::L2i},
    {"l1i", ObjectType::L1i},
    {"l1icache", ObjectType::L1i},
    {"core", ObjectType::Core},
    {"pu", ObjectType::PU},
};
} // namespace

std::string_view to_string(ObjectType type) {
    return names[static_cast<std::size_t>(type)];
}

std::optional<ObjectType> parse_object_type(std::string_view name) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const Alias& a : aliases)
        if (a.name == lower) return a.type;
    return std::nullopt;
}

} // namespace nettopo
