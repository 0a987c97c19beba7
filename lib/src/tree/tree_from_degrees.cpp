// The machine trees of the CombinACMP thesis (seed 001, chapter 5): given
// per-level degrees g1..gn, the Machine root has g1 children, each of them
// g2, and so on; the objects of the last level are PUs, the others Groups.
// Degree-1 levels stay objects, as on the lstopo gallery machines they model.
#include "nettopo/support/error.hpp"
#include "nettopo/tree/lca.hpp"

#include <fmt/format.h>

namespace nettopo {

namespace {
void add_below(MachineTree::Builder& b, ObjectId parent, std::span<const std::uint32_t> degrees) {
    const ObjectType type = degrees.size() == 1 ? ObjectType::PU : ObjectType::Group;
    for (std::uint32_t k = 0; k < degrees[0]; ++k) {
        const ObjectId child = b.add(type, parent);
        if (degrees.size() > 1) add_below(b, child, degrees.subspan(1));
    }
}
} // namespace

MachineTree tree_from_degrees(std::span<const std::uint32_t> degrees) {
    constexpr std::uint64_t max_objects = std::uint64_t(1) << 24;
    if (degrees.empty()) throw UsageError("a tree from degrees needs at least one degree");
    if (degrees.size() > max_tree_depth)
        throw UsageError(fmt::format("a tree from degrees has at most {} levels", max_tree_depth));
    std::uint64_t level = 1, total = 1;
    for (std::uint32_t g : degrees) {
        if (g == 0) throw UsageError("tree degrees must be at least 1");
        level *= g;
        total += level;
        if (total > max_objects)
            throw UsageError(
                fmt::format("a tree from degrees has at most {} objects", max_objects));
    }
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    add_below(b, root, degrees);
    return std::move(b).finish();
}

} // namespace nettopo
