// A machine tree as an hwloc synthetic description (hwloc's "Synthetic
// topologies" documentation; topology-synthetic.c, hwloc_topology_export_synthetic,
// whose spelling we follow so that `lstopo --of synthetic` and we agree).
//
// A synthetic description gives one child count per level, so every object
// of a level must have that many children, all on the next level. NUMA nodes
// (hwloc 2) are memory children of a CPU-side object; "[NUMANode]" after a
// level's token gives each object of that level one. Sizes and indexes are
// attributes of a whole level: written only when they hold for all of it.
#include "nettopo/hwloc/synthetic_writer.hpp"

#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nettopo {

namespace {

std::string_view hwloc_name(ObjectType t) {
    switch (t) {
    case ObjectType::Package:
        return "Package";
    case ObjectType::Die:
        return "Die";
    case ObjectType::Group:
        return "Group";
    case ObjectType::NUMANode:
        return "NUMANode";
    case ObjectType::MemCache:
        return "MemCache";
    case ObjectType::L5:
        return "L5Cache";
    case ObjectType::L4:
        return "L4Cache";
    case ObjectType::L3:
        return "L3Cache";
    case ObjectType::L2:
        return "L2Cache";
    case ObjectType::L1:
        return "L1dCache";
    case ObjectType::L3i:
        return "L3iCache";
    case ObjectType::L2i:
        return "L2iCache";
    case ObjectType::L1i:
        return "L1iCache";
    case ObjectType::Core:
        return "Core";
    case ObjectType::PU:
        return "PU";
    case ObjectType::Machine:
        break;
    }
    return "Machine";
}

// "Package L#1", as lstopo names an object.
std::string object_name(const MachineTree& tree, ObjectId id) {
    return fmt::format("{} L#{}", tree.level_name(id), tree.object(id).logical_index);
}

// "indexes=a,b,c" unless the list is 0, 1, 2, ... or has an unknown index.
std::string indexes_attribute(const std::vector<std::uint32_t>& os) {
    bool identity = true;
    for (std::size_t i = 0; i < os.size(); ++i) {
        if (os[i] == unknown_os_index) return {};
        identity = identity && os[i] == i;
    }
    if (identity) return {};
    return fmt::format("indexes={}", fmt::join(os, ","));
}

std::string with_attributes(std::string token, const std::vector<std::string>& attributes) {
    std::vector<std::string> present;
    for (const std::string& a : attributes)
        if (!a.empty()) present.push_back(a);
    if (!present.empty()) token += fmt::format("({})", fmt::join(present, " "));
    return token;
}

} // namespace

std::string synthetic_description(const MachineTree& tree) {
    const std::uint32_t levels = tree.num_levels();
    const auto objects = tree.objects();

    // Children per object, checked level by level.
    std::vector<std::uint32_t> arity(levels, 0);
    std::vector<std::optional<ObjectId>> first(levels); // the object that set arity[d]
    for (std::uint32_t i = 0; i < objects.size(); ++i) {
        const ObjectId id(i);
        const TreeObject& o = objects[i];
        if (o.type == ObjectType::PU) continue;
        const auto kids = tree.children(id);
        for (const ObjectId k : kids)
            if (tree.object(k).level_depth != o.level_depth + 1)
                throw InputError(fmt::format(
                    "no hwloc synthetic description gives this machine: the children of {} are "
                    "on different levels ({} is at depth {}, not {}); a synthetic description "
                    "needs every branch to have the same levels",
                    object_name(tree, id), object_name(tree, k), tree.object(k).level_depth,
                    o.level_depth + 1));
        if (kids.empty())
            throw InputError(fmt::format("no hwloc synthetic description gives this machine: {} "
                                         "has no PU below it",
                                         object_name(tree, id)));
        const std::uint32_t d = o.level_depth + 1;
        const auto n = static_cast<std::uint32_t>(kids.size());
        if (!first[d]) {
            first[d] = id;
            arity[d] = n;
        } else if (arity[d] != n) {
            throw InputError(fmt::format(
                "no hwloc synthetic description gives this machine: {} has {} {} below it and "
                "{} has {}; a synthetic description gives one count per level",
                object_name(tree, *first[d]), arity[d], tree.level_name_at(d),
                object_name(tree, id), n));
        }
    }

    // NUMA nodes per object, by the level of the object they hang from.
    std::vector<std::uint32_t> numa_count(objects.size(), 0);
    for (const MemoryObject& m : tree.memory()) {
        if (m.type == ObjectType::MemCache)
            throw InputError("no hwloc synthetic description gives this machine: it has "
                             "memory-side caches, which hwloc's synthetic descriptions do not "
                             "hold");
        ++numa_count[m.parent.value];
    }
    std::vector<std::uint32_t> numa_per_object(levels, 0);
    std::vector<std::optional<ObjectId>> level_first(levels); // logical index 0
    for (std::uint32_t i = 0; i < objects.size(); ++i) {
        const std::uint32_t d = objects[i].level_depth;
        if (!level_first[d]) {
            level_first[d] = ObjectId(i);
            numa_per_object[d] = numa_count[i];
        } else if (numa_per_object[d] != numa_count[i]) {
            throw InputError(fmt::format(
                "no hwloc synthetic description gives this machine: {} has {} NUMA nodes and "
                "{} has {}; a synthetic description gives the objects of a level the same "
                "memory",
                object_name(tree, *level_first[d]), numa_per_object[d],
                object_name(tree, ObjectId(i)), numa_count[i]));
        }
    }

    // Sizes are those of the level's first object and of its NUMA nodes, as
    // hwloc's export writes them (the objects of a real level may differ by a
    // few pages of memory; a synthetic description has one size per level).
    std::vector<std::vector<std::uint64_t>> numa_sizes(objects.size());
    std::vector<const MemoryObject*> numa_nodes;
    for (const MemoryObject& m : tree.memory()) {
        numa_sizes[m.parent.value].push_back(m.size_bytes);
        numa_nodes.push_back(&m);
    }
    std::sort(numa_nodes.begin(), numa_nodes.end(),
              [](const MemoryObject* a, const MemoryObject* b) {
                  return a->logical_index < b->logical_index;
              });

    // The OS indexes of every NUMA node, in logical order, go on the first
    // NUMA token (hwloc reads them so, whatever level the token is on).
    std::string numa_indexes;
    {
        std::vector<std::uint32_t> os;
        for (const MemoryObject* m : numa_nodes) os.push_back(m->os_index);
        numa_indexes = indexes_attribute(os);
    }
    std::vector<std::string> tokens;
    const auto memory_tokens = [&](std::uint32_t d) {
        for (std::uint32_t k = 0; k < numa_per_object[d]; ++k) {
            const std::uint64_t size = numa_sizes[level_first[d]->value][k];
            tokens.push_back(fmt::format(
                "[{}]", with_attributes("NUMANode", {size ? fmt::format("memory={}", size) : "",
                                                     std::exchange(numa_indexes, {})})));
        }
    };
    memory_tokens(0);
    for (std::uint32_t d = 1; d < levels; ++d) {
        const ObjectType type = tree.level_type(d);
        std::string size;
        if (const std::uint64_t bytes = tree.object(*level_first[d]).size_bytes;
            is_cache(type) && bytes)
            size = fmt::format("size={}", bytes);
        std::string indexes;
        if (type == ObjectType::PU) {
            std::vector<std::uint32_t> os;
            for (std::uint32_t p = 0; p < tree.num_pus(); ++p)
                os.push_back(tree.object(tree.pu(p)).os_index);
            indexes = indexes_attribute(os);
        }
        tokens.push_back(
            with_attributes(fmt::format("{}:{}", hwloc_name(type), arity[d]), {size, indexes}));
        memory_tokens(d);
    }
    return fmt::format("{}", fmt::join(tokens, " "));
}

} // namespace nettopo
