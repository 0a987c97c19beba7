// Nodes at the NUMA level on trees built by hand for each case of the rule
// (share/doc/model.md): a node is a NUMA node's locality, the PUs of its
// CPU-side parent; CPU-less NUMA nodes make none; NUMA nodes of one object
// make one; nested localities give a PU to the smallest, and a locality left
// in pieces is refused; PUs local to no NUMA node fall back to their cores,
// counted for the summary. The real exports are checked against hwloc-calc
// in tests/tools/hwloc_oracle.py.
#include "nettopo/model/machine_type.hpp"
#include "nettopo/support/error.hpp"

#include <catch2/catch.hpp>
#include <vector>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

constexpr std::uint64_t gib = 1ull << 30;

MachineType numa_type(MachineTree tree) {
    return MachineType("test", std::move(tree), NodeLevel{ObjectType::NUMANode},
                       LevelLatencies::defaults());
}

// `cores` cores of one PU each below `parent`.
void add_cores(MachineTree::Builder& b, ObjectId parent, int cores) {
    for (int c = 0; c < cores; ++c) b.add(ObjectType::PU, b.add(ObjectType::Core, parent));
}

// A Machine (with a NUMA node if `at_root`) over packages of two one-PU
// cores, each with a NUMA node where `on_package` says so.
MachineTree packages_with_memory(bool at_root, const std::vector<bool>& on_package) {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    std::uint32_t os = 0;
    if (at_root) b.add_memory(ObjectType::NUMANode, root, os++, 64 * gib);
    for (const bool memory : on_package) {
        const ObjectId pack = b.add(ObjectType::Package, root);
        if (memory) b.add_memory(ObjectType::NUMANode, pack, os++, 16 * gib);
        add_cores(b, pack, 2);
    }
    return std::move(b).finish();
}

std::vector<std::uint32_t> node_of_each_pu(const MachineType& t) {
    std::vector<std::uint32_t> v;
    for (std::uint32_t p = 0; p < t.num_pus(); ++p) v.push_back(t.node_of_pu(p));
    return v;
}

} // namespace

TEST_CASE("NUMA nodes: a memory-only Group's NUMA node makes no node (KNL SNC)", "[numa]") {
    // Package > 2 x Group{DDR} > (L3 > 2 cores, Group{MCDRAM}), as
    // 64intel64-fakeKNL-SNC4-hybrid.v1tov2.xml: the MCDRAM has no PU.
    MachineTree::Builder b;
    const ObjectId pack = b.add(ObjectType::Package, b.add(ObjectType::Machine, ObjectId()));
    std::vector<ObjectId> clusters;
    for (int k = 0; k < 2; ++k) {
        const ObjectId g = b.add(ObjectType::Group, pack);
        clusters.push_back(g);
        b.add_memory(ObjectType::NUMANode, g, static_cast<std::uint32_t>(k), gib);
        add_cores(b, b.add(ObjectType::L3, g), 2);
        b.add_memory(ObjectType::NUMANode, b.add(ObjectType::Group, g),
                     static_cast<std::uint32_t>(k + 4), 2 * gib);
    }
    const MachineType t = numa_type(std::move(b).finish());
    REQUIRE(t.num_nodes() == 2);
    CHECK(t.node_object(0) == clusters[0]);
    CHECK(t.node_object(1) == clusters[1]);
    CHECK(node_of_each_pu(t) == std::vector<std::uint32_t>{0, 0, 1, 1});
    CHECK(t.pus_outside_node_level() == 0);
}

TEST_CASE("NUMA nodes: NUMA nodes of one locality make one node", "[numa]") {
    // DDR and HBM (or MCDRAM) of one package: two NUMA nodes, one node.
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    for (std::uint32_t k = 0; k < 2; ++k) {
        const ObjectId pack = b.add(ObjectType::Package, root);
        b.add_memory(ObjectType::NUMANode, pack, k, 64 * gib);
        b.add_memory(ObjectType::NUMANode, pack, k + 2, 16 * gib);
        add_cores(b, pack, 3);
    }
    const MachineType t = numa_type(std::move(b).finish());
    CHECK(node_of_each_pu(t) == std::vector<std::uint32_t>{0, 0, 0, 1, 1, 1});
}

TEST_CASE("NUMA nodes: a PU local to nested localities goes to the smallest", "[numa]") {
    // Memory at the Machine and at the second package: the first package's
    // PUs are local to the Machine's NUMA node only.
    const MachineType t = numa_type(packages_with_memory(true, {false, true}));
    REQUIRE(t.num_nodes() == 2);
    CHECK(t.node_object(0) == ObjectId(0));
    CHECK(t.tree().object(t.node_object(1)).type == ObjectType::Package);
    CHECK(node_of_each_pu(t) == std::vector<std::uint32_t>{0, 0, 1, 1});
    CHECK(t.pus_outside_node_level() == 0);
}

TEST_CASE("NUMA nodes: a locality left in two pieces is refused, with the NUMA node named",
          "[numa]") {
    // Memory at the Machine and at the middle package of three: the Machine's
    // own PUs would be PUs 0-1 and 4-5, not one range.
    const MachineTree tree = packages_with_memory(true, {false, true, false});
    CHECK_THROWS_WITH(numa_type(tree), Contains("NUMA node L#1 (Machine L#0)") &&
                                           Contains("not one range") && Contains("PU 4 is apart"));
    // Other node levels of the same tree are fine.
    const MachineType packages("test", tree, NodeLevel{ObjectType::Package},
                               LevelLatencies::defaults());
    CHECK(packages.num_nodes() == 3);
}

TEST_CASE("NUMA nodes: PUs local to no NUMA node are nodes by core, and counted", "[numa]") {
    // As 16amd64-8n2c-cpusets.xml, whose first package's memory is offline.
    const MachineType t = numa_type(packages_with_memory(false, {false, true}));
    CHECK(node_of_each_pu(t) == std::vector<std::uint32_t>{0, 1, 2, 2});
    CHECK(t.pus_outside_node_level() == 2);
}
