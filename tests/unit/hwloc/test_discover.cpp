// This machine, through nettopo and directly through hwloc, must agree.
#include "nettopo/formats/load.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"

#include <catch2/catch.hpp>
#include <hwloc.h>

using namespace nettopo;

TEST_CASE("discovering this machine matches hwloc's own view", "[discover]") {
    hwloc_topology_t topo;
    REQUIRE(hwloc_topology_init(&topo) == 0);
    REQUIRE(hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL) == 0);
    // hwloc 2.9's icache call leaves L3i out; lstopo shows it.
    REQUIRE(hwloc_topology_set_type_filter(topo, HWLOC_OBJ_L3ICACHE, HWLOC_TYPE_FILTER_KEEP_ALL) ==
            0);
    // The whole machine, whatever this process may use (its cgroup, its binding).
    REQUIRE(hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) == 0);
    REQUIRE(hwloc_topology_load(topo) == 0);
    const Cluster c = discover_cluster();
    REQUIRE(c.num_machines() == 1);
    const MachineTree& tree = c.machine_type(MachineId(0)).tree();
    const std::pair<hwloc_obj_type_t, ObjectType> types[] = {
        {HWLOC_OBJ_PU, ObjectType::PU},           {HWLOC_OBJ_CORE, ObjectType::Core},
        {HWLOC_OBJ_PACKAGE, ObjectType::Package}, {HWLOC_OBJ_L1CACHE, ObjectType::L1},
        {HWLOC_OBJ_L2CACHE, ObjectType::L2},      {HWLOC_OBJ_L3CACHE, ObjectType::L3},
        {HWLOC_OBJ_L1ICACHE, ObjectType::L1i},    {HWLOC_OBJ_NUMANODE, ObjectType::NUMANode},
    };
    for (auto [h, n] : types) {
        INFO(to_string(n));
        CHECK(tree.count(n) == static_cast<std::uint32_t>(hwloc_get_nbobjs_by_type(topo, h)));
    }
    CHECK(c.num_pes() == static_cast<std::uint32_t>(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU)));
    for (std::uint32_t i = 0; i < tree.num_pus(); ++i)
        CHECK(tree.object(tree.pu(i)).os_index ==
              hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, i)->os_index);
    CHECK_FALSE(c.machine_name(MachineId(0)).empty());
    hwloc_topology_destroy(topo);
}

TEST_CASE("this machine, allowed PUs only, is hwloc's default view", "[discover]") {
    // hwloc without HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED keeps the PUs this
    // process may use; nettopo's allowed_only keeps the same ones.
    hwloc_topology_t topo;
    REQUIRE(hwloc_topology_init(&topo) == 0);
    REQUIRE(hwloc_topology_load(topo) == 0);
    const HwlocMachine whole = discover_this_machine();
    const HwlocMachine allowed = discover_this_machine(PuScope::allowed_only);
    const auto pus = static_cast<std::uint32_t>(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU));
    CHECK(allowed.tree.num_pus() == pus);
    CHECK(whole.allowed.allowed == pus);
    CHECK(whole.allowed.machine == whole.tree.num_pus());
    CHECK(allowed.allowed.os_indexes == whole.allowed.os_indexes);
    for (std::uint32_t i = 0; i < allowed.tree.num_pus(); ++i)
        CHECK(allowed.tree.object(allowed.tree.pu(i)).os_index ==
              hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, i)->os_index);
    LoadOptions options;
    options.pu_scope = PuScope::allowed_only;
    CHECK(discover_cluster(options).num_pes() == pus);
    hwloc_topology_destroy(topo);
}
