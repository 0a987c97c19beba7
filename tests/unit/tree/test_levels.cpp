// hwloc's numbering of levels on uneven trees: random trees of every
// CPU-side type, in hwloc's order but skipping levels per branch (hybrid
// CPUs, Groups on some packages only), are written as hwloc exports and
// loaded by hwloc itself; every object's level depth, logical index and
// level name must be hwloc's. The real exports are compared the same way in
// test_hwloc_import.cpp and, through the tools, in tests/tools/hwloc_oracle.py.
#include "nettopo-bench/lca_hwloc.hpp"
#include "nettopo/tree/machine_tree.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <hwloc.h>
#include <random>
#include <string>
#include <vector>

using namespace nettopo;

namespace {

// CPU-side types from the top down as hwloc orders them (Machine and Group
// apart): a child is of a later type than its nearest non-Group ancestor.
const std::vector<ObjectType> type_order = {ObjectType::Package, ObjectType::Die,  ObjectType::L5,
                                            ObjectType::L4,      ObjectType::L3,   ObjectType::L3i,
                                            ObjectType::L2,      ObjectType::L2i,  ObjectType::L1,
                                            ObjectType::L1i,     ObjectType::Core, ObjectType::PU};

MachineTree random_typed_tree(std::mt19937_64& rng) {
    MachineTree::Builder b;
    std::uniform_int_distribution<std::uint32_t> kids(1, 3);
    std::bernoulli_distribution group(0.15);
    std::uint32_t budget = 400;
    // `next`: index in type_order of the first type allowed below.
    auto grow = [&](auto&& self, ObjectId parent, std::size_t next, std::uint32_t depth) -> void {
        const std::uint32_t k = kids(rng);
        for (std::uint32_t i = 0; i < k; ++i) {
            const bool leaf = depth >= 12 || budget == 0;
            if (budget) --budget;
            if (!leaf && group(rng)) {
                self(self, b.add(ObjectType::Group, parent), next, depth + 1);
                continue;
            }
            // Skip up to three types: branches of one tree differ in depth.
            std::uniform_int_distribution<std::size_t> skip(0, 3);
            const std::size_t t =
                leaf ? type_order.size() - 1 : std::min(next + skip(rng), type_order.size() - 1);
            const ObjectId c = b.add(type_order[t], parent);
            if (type_order[t] != ObjectType::PU) self(self, c, t + 1, depth + 1);
        }
    };
    grow(grow, b.add(ObjectType::Machine, ObjectId()), 0, 0);
    return std::move(b).finish();
}

// hwloc's CPU-side objects in pre-order, as nettopo stores its objects.
void preorder(hwloc_obj_t o, std::vector<hwloc_obj_t>& out) {
    out.push_back(o);
    for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling) preorder(c, out);
}

// False when hwloc reshaped the tree on loading: hwloc 2.9 removes a level
// of Groups whose objects are the only children of a level of another type,
// dont_merge or not (hwloc_filter_levels_keep_structure tests the parent
// level's type for the child level), so that tree cannot be compared.
bool require_hwloc_numbering(const MachineTree& tree) {
    const detail::HwlocLcaTopology h = detail::load_hwloc_for_lca(tree, "");
    hwloc_topology_t topo = h.topology.get();
    std::vector<hwloc_obj_t> objs;
    preorder(hwloc_get_root_obj(topo), objs);
    if (objs.size() != tree.num_objects()) return false;
    REQUIRE(tree.num_levels() == static_cast<std::uint32_t>(hwloc_topology_get_depth(topo)));
    for (std::uint32_t d = 0; d < tree.num_levels(); ++d)
        CHECK(tree.level_size(d) == static_cast<std::uint32_t>(hwloc_get_nbobjs_by_depth(topo, d)));
    for (std::uint32_t i = 0; i < objs.size(); ++i) {
        const TreeObject& o = tree.object(ObjectId(i));
        INFO("object " << i << ", hwloc's " << hwloc_obj_type_string(objs[i]->type) << " L#"
                       << objs[i]->logical_index << " at depth " << objs[i]->depth);
        REQUIRE(o.level_depth == static_cast<std::uint32_t>(objs[i]->depth));
        REQUIRE(o.logical_index == objs[i]->logical_index);
        REQUIRE(tree.level_type(o.level_depth) == o.type);
        if (o.type == ObjectType::Group)
            REQUIRE(tree.level_name(ObjectId(i)) ==
                    fmt::format("Group{}", objs[i]->attr->group.depth));
    }
    return true;
}

} // namespace

TEST_CASE("levels: random uneven trees are numbered as hwloc numbers them", "[tree][levels]") {
    std::mt19937_64 rng(2026);
    int compared = 0, several_levels_of_a_type = 0;
    for (int k = 0; k < 300; ++k) {
        const MachineTree tree = random_typed_tree(rng);
        INFO("tree " << k << ": " << tree.num_objects() << " objects, " << tree.num_levels()
                     << " levels");
        if (!require_hwloc_numbering(tree)) continue;
        ++compared;
        // hwloc puts one type at several depths on such trees (an L2 below a
        // Group and another beside it): the case a per-type count gets wrong.
        for (std::uint32_t d = 1; d < tree.num_levels(); ++d)
            for (std::uint32_t e = 1; e < d; ++e)
                if (tree.level_type(d) == tree.level_type(e) &&
                    tree.level_type(d) != ObjectType::Group) {
                    ++several_levels_of_a_type;
                    d = e = tree.num_levels();
                }
    }
    CHECK(compared >= 250);
    CHECK(several_levels_of_a_type >= 10);
}

TEST_CASE("levels: a hybrid CPU's PUs share one level and one numbering", "[tree][levels]") {
    // Machine > L3 > {L2 > Core > 2 PUs, Core > PU}: the second core has no L2
    // of its own (hwloc would show it below the L3 directly).
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    const ObjectId l3 = b.add(ObjectType::L3, root);
    const ObjectId l2 = b.add(ObjectType::L2, l3);
    const ObjectId c0 = b.add(ObjectType::Core, l2);
    b.add(ObjectType::PU, c0);
    b.add(ObjectType::PU, c0);
    const ObjectId c1 = b.add(ObjectType::Core, l3);
    b.add(ObjectType::PU, c1);
    const MachineTree tree = std::move(b).finish();
    const TreeObject& pu = tree.object(tree.pu(2));
    CHECK(pu.depth == 3);       // its own ancestors: Core, L3, Machine
    CHECK(pu.level_depth == 4); // hwloc's: Machine 0, L3 1, L2 2, Core 3, PU 4
    CHECK(pu.logical_index == 2);
    CHECK(tree.object(c1).logical_index == 1);
    CHECK(tree.level_name_at(2) == "L2");
    CHECK(require_hwloc_numbering(tree));
}
