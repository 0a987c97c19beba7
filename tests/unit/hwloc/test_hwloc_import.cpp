// nettopo's hwloc import checked against hwloc itself: every real XML export
// in the shared data is loaded a second time with the hwloc C API, and the
// object counts, PU order and common ancestors must agree. Also the synthetic
// path and the errors of bad synthetic descriptions.
#include "common/child_process_sandbox.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/hwloc/hwloc_sandbox.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/real_data.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <hwloc.h>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace nettopo;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

struct TopologyDeleter {
    void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using Topology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

// hwloc's own view of a topology, with lstopo's filters (default ones, plus
// instruction caches) and the whole machine (`lstopo --disallowed`, what
// nettopo reads by default); `set_source` points hwloc at the XML or
// synthetic input.
Topology hwloc_load(int (*set_source)(hwloc_topology_t, const char*), const std::string& source) {
    hwloc_topology_t t = nullptr;
    REQUIRE(hwloc_topology_init(&t) == 0);
    Topology topo(t);
    REQUIRE(hwloc_topology_set_icache_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL) == 0);
    // hwloc 2.9's icache call leaves L3i out; lstopo shows it.
    REQUIRE(hwloc_topology_set_type_filter(t, HWLOC_OBJ_L3ICACHE, HWLOC_TYPE_FILTER_KEEP_ALL) == 0);
    REQUIRE(hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) == 0);
    REQUIRE(set_source(t, source.c_str()) == 0);
    REQUIRE(hwloc_topology_load(t) == 0);
    return topo;
}
Topology hwloc_load_xml(const std::string& path) {
    return hwloc_load(hwloc_topology_set_xml, path);
}
Topology hwloc_load_synthetic(const std::string& description) {
    return hwloc_load(hwloc_topology_set_synthetic, description);
}

// Number of objects of a type. hwloc_get_nbobjs_by_type answers -1 when the
// type sits at several depths (nested Groups): then sum over those depths.
unsigned hwloc_count(hwloc_topology_t topo, hwloc_obj_type_t type) {
    const int n = hwloc_get_nbobjs_by_type(topo, type);
    if (n >= 0) return static_cast<unsigned>(n);
    REQUIRE(hwloc_get_type_depth(topo, type) == HWLOC_TYPE_DEPTH_MULTIPLE);
    unsigned total = 0;
    const int depth = hwloc_topology_get_depth(topo);
    for (int d = 0; d < depth; ++d)
        if (hwloc_get_depth_type(topo, d) == type) total += hwloc_get_nbobjs_by_depth(topo, d);
    return total;
}

// The pairing of hwloc's types with nettopo's, written out independently of
// the library's own conversion.
const std::vector<std::pair<hwloc_obj_type_t, ObjectType>>& compared_types() {
    static const std::vector<std::pair<hwloc_obj_type_t, ObjectType>> v = {
        {HWLOC_OBJ_MACHINE, ObjectType::Machine},   {HWLOC_OBJ_PACKAGE, ObjectType::Package},
        {HWLOC_OBJ_DIE, ObjectType::Die},           {HWLOC_OBJ_GROUP, ObjectType::Group},
        {HWLOC_OBJ_NUMANODE, ObjectType::NUMANode}, {HWLOC_OBJ_MEMCACHE, ObjectType::MemCache},
        {HWLOC_OBJ_L5CACHE, ObjectType::L5},        {HWLOC_OBJ_L4CACHE, ObjectType::L4},
        {HWLOC_OBJ_L3CACHE, ObjectType::L3},        {HWLOC_OBJ_L2CACHE, ObjectType::L2},
        {HWLOC_OBJ_L1CACHE, ObjectType::L1},        {HWLOC_OBJ_L3ICACHE, ObjectType::L3i},
        {HWLOC_OBJ_L2ICACHE, ObjectType::L2i},      {HWLOC_OBJ_L1ICACHE, ObjectType::L1i},
        {HWLOC_OBJ_CORE, ObjectType::Core},         {HWLOC_OBJ_PU, ObjectType::PU},
    };
    return v;
}

std::optional<ObjectType> nettopo_type(hwloc_obj_type_t t) {
    for (const auto& [h, n] : compared_types())
        if (h == t) return n;
    return std::nullopt;
}

using test::real_xmls;

// Runs `check` on every real XML; an exception fails that file only, so one
// bad file does not hide the results of the others.
template <class F> void for_each_real_xml(F check) {
    const std::vector<std::string> files = real_xmls();
    REQUIRE(files.size() >= 17);
    for (const std::string& path : files) {
        INFO("file " << path);
        try {
            check(path);
        } catch (const std::exception& e) {
            FAIL_CHECK("exception on " << path << ": " << e.what());
        }
    }
}

std::string synthetic_error(const std::string& description) {
    try {
        tree_from_synthetic(description);
    } catch (const InputError& e) {
        CHECK(e.file().empty()); // documented: no location
        CHECK(e.line() == 0);
        return e.what();
    }
    FAIL("no InputError for the synthetic description '" << description << "'");
    return "";
}

} // namespace

TEST_CASE("hwloc import: object counts of every real XML equal hwloc's", "[hwloc_import]") {
    for_each_real_xml([](const std::string& path) {
        const HwlocMachine m = load_hwloc_xml(path);
        const Topology topo = hwloc_load_xml(path);
        for (const auto& [htype, ntype] : compared_types()) {
            INFO("type " << to_string(ntype));
            CHECK(m.tree.count(ntype) == hwloc_count(topo.get(), htype));
        }
        CHECK(m.tree.num_pus() == hwloc_count(topo.get(), HWLOC_OBJ_PU));
        // NUMA nodes are kept as memory objects, never in the CPU tree.
        const auto numa_in_memory =
            std::count_if(m.tree.memory().begin(), m.tree.memory().end(),
                          [](const MemoryObject& o) { return o.type == ObjectType::NUMANode; });
        CHECK(static_cast<unsigned>(numa_in_memory) == hwloc_count(topo.get(), HWLOC_OBJ_NUMANODE));
        for (const TreeObject& o : m.tree.objects()) CHECK_FALSE(is_memory(o.type));
        // The hostname is the Machine object's HostName info.
        const char* host = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo.get()), "HostName");
        CHECK(m.hostname == std::string(host ? host : ""));
    });
}

TEST_CASE("hwloc import: PU order is hwloc's logical order", "[hwloc_import]") {
    for_each_real_xml([](const std::string& path) {
        const HwlocMachine m = load_hwloc_xml(path);
        const Topology topo = hwloc_load_xml(path);
        const unsigned pus = hwloc_count(topo.get(), HWLOC_OBJ_PU);
        REQUIRE(m.tree.num_pus() == pus);
        REQUIRE(pus > 0);
        for (unsigned i = 0; i < pus; ++i) {
            const hwloc_obj_t pu = hwloc_get_obj_by_type(topo.get(), HWLOC_OBJ_PU, i);
            REQUIRE(pu != nullptr);
            const TreeObject& o = m.tree.object(m.tree.pu(i));
            INFO("PU " << i);
            CHECK(o.type == ObjectType::PU);
            CHECK(o.os_index == pu->os_index);
            CHECK(o.logical_index == i);
            CHECK(o.first_pu == i);
            CHECK(o.pu_count == 1);
        }
    });
}

TEST_CASE("hwloc import: common ancestors of random PU pairs match hwloc's", "[hwloc_import]") {
    std::mt19937_64 rng(20240611);
    for_each_real_xml([&](const std::string& path) {
        const HwlocMachine m = load_hwloc_xml(path);
        const Topology topo = hwloc_load_xml(path);
        const unsigned pus = hwloc_count(topo.get(), HWLOC_OBJ_PU);
        REQUIRE(m.tree.num_pus() == pus);
        std::uniform_int_distribution<unsigned> pick(0, pus - 1);
        for (int k = 0; k < 200; ++k) {
            const unsigned a = pick(rng), b = pick(rng);
            INFO("PUs " << a << " and " << b);
            const hwloc_obj_t ha = hwloc_get_obj_by_type(topo.get(), HWLOC_OBJ_PU, a);
            const hwloc_obj_t hb = hwloc_get_obj_by_type(topo.get(), HWLOC_OBJ_PU, b);
            REQUIRE(ha != nullptr);
            REQUIRE(hb != nullptr);
            const hwloc_obj_t hanc = hwloc_get_common_ancestor_obj(topo.get(), ha, hb);
            REQUIRE(hanc != nullptr);
            const auto expected_type = nettopo_type(hanc->type);
            REQUIRE(expected_type.has_value());

            const ObjectId anc = m.tree.common_ancestor(m.tree.pu(a), m.tree.pu(b));
            const TreeObject& o = m.tree.object(anc);
            CHECK(o.type == *expected_type);
            CHECK(o.pu_count == static_cast<unsigned>(hwloc_bitmap_weight(hanc->cpuset)));
            const hwloc_obj_t first = hwloc_get_next_obj_inside_cpuset_by_type(
                topo.get(), hanc->cpuset, HWLOC_OBJ_PU, nullptr);
            REQUIRE(first != nullptr);
            CHECK(o.first_pu == first->logical_index);
            CHECK(o.os_index ==
                  (hanc->os_index == HWLOC_UNKNOWN_INDEX ? unknown_os_index : hanc->os_index));
            CHECK(o.logical_index == hanc->logical_index);
            CHECK(o.level_depth == static_cast<unsigned>(hanc->depth));
        }
    });
}

namespace {
// hwloc's CPU-side objects in pre-order, the order of nettopo's objects.
void hwloc_preorder(hwloc_obj_t o, std::vector<hwloc_obj_t>& out) {
    out.push_back(o);
    for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling) hwloc_preorder(c, out);
}
} // namespace

TEST_CASE("hwloc import: every object's level, logical index and level name are hwloc's",
          "[hwloc_import]") {
    for_each_real_xml([](const std::string& path) {
        const HwlocMachine m = load_hwloc_xml(path);
        const Topology topo = hwloc_load_xml(path);
        std::vector<hwloc_obj_t> objs;
        hwloc_preorder(hwloc_get_root_obj(topo.get()), objs);
        REQUIRE(objs.size() == m.tree.num_objects());
        REQUIRE(m.tree.num_levels() == static_cast<unsigned>(hwloc_topology_get_depth(topo.get())));
        for (std::size_t i = 0; i < objs.size(); ++i) {
            const ObjectId id(static_cast<std::uint32_t>(i));
            const TreeObject& o = m.tree.object(id);
            INFO("hwloc's " << hwloc_obj_type_string(objs[i]->type) << " L#"
                            << objs[i]->logical_index << " at depth " << objs[i]->depth);
            CHECK(nettopo_type(objs[i]->type) == o.type);
            CHECK(o.level_depth == static_cast<unsigned>(objs[i]->depth));
            CHECK(o.logical_index == objs[i]->logical_index);
            if (o.type == ObjectType::Group)
                CHECK(m.tree.level_name(id) ==
                      "Group" + std::to_string(objs[i]->attr->group.depth));
        }
        // Memory objects: NUMA nodes by their os index, memory-side caches in order.
        std::vector<const MemoryObject*> caches;
        for (const MemoryObject& mem : m.tree.memory()) {
            if (mem.type == ObjectType::MemCache) {
                caches.push_back(&mem);
                continue;
            }
            const hwloc_obj_t numa = hwloc_get_numanode_obj_by_os_index(topo.get(), mem.os_index);
            REQUIRE(numa != nullptr);
            CHECK(mem.logical_index == numa->logical_index);
        }
        for (const MemoryObject* mem : caches) {
            const hwloc_obj_t c =
                hwloc_get_obj_by_type(topo.get(), HWLOC_OBJ_MEMCACHE, mem->logical_index);
            REQUIRE(c != nullptr);
            CHECK(mem->size_bytes == c->attr->cache.size);
        }
    });
}

TEST_CASE("hwloc import: a real XML as a one-machine cluster", "[hwloc_import]") {
    std::size_t with_hostname = 0, files = 0;
    for_each_real_xml([&](const std::string& path) {
        ++files;
        const Topology topo = hwloc_load_xml(path);
        const char* host = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo.get()), "HostName");
        with_hostname += host != nullptr;
        const Cluster c = load_cluster(path);
        CHECK(detect_input_kind(path) == InputKind::HwlocXml);
        REQUIRE(c.num_machines() == 1);
        CHECK(c.num_switches() == 0);
        CHECK(c.num_net_links() == 0);
        CHECK(c.num_pes() == hwloc_count(topo.get(), HWLOC_OBJ_PU));
        const std::string expected = host ? std::string(host) : fs::path(path).stem().string();
        CHECK(c.machine_name(MachineId(0)) == expected);
        CHECK(c.name() == expected);
        CHECK(c.pes_of_machine(MachineId(0)).count == c.num_pes());
        const MachineType& t = c.machine_type(MachineId(0));
        CHECK(t.description() == "hwloc:" + fs::path(path).filename().string());
        // Same tree as load_hwloc_xml.
        CHECK(t.tree() == load_hwloc_xml(path).tree);
        // Every PE's local PU is its index (one machine).
        for (std::uint32_t p = 0; p < c.num_pes(); ++p) CHECK(c.local_pu(PeId(p)) == p);
    });
    // Both naming rules are exercised: some exports carry a HostName, some do not.
    CHECK(with_hostname > 0);
    CHECK(with_hostname < files);
}

TEST_CASE("hwloc import: CPU-less NUMA nodes under PU-less Groups", "[hwloc_import]") {
    // 16amd64-8n2c-cpusets.xml: two Groups hold only a CPU-less NUMA node
    // (cpuset 0x0). hwloc loads it; so must nettopo, keeping every PU and
    // every NUMA node (memory with no local PU is still memory).
    const std::string path =
        (fs::path(NETTOPO_SHARED_DATA) / "hwloc-xml" / "16amd64-8n2c-cpusets.xml").string();
    REQUIRE(fs::exists(path));
    const Topology topo = hwloc_load_xml(path);
    REQUIRE(hwloc_count(topo.get(), HWLOC_OBJ_PU) == 10);
    REQUIRE(hwloc_count(topo.get(), HWLOC_OBJ_NUMANODE) == 5);
    HwlocMachine m;
    REQUIRE_NOTHROW(m = load_hwloc_xml(path));
    CHECK(m.tree.num_pus() == 10);
    CHECK(m.tree.count(ObjectType::NUMANode) == 5);
    CHECK(m.tree.count(ObjectType::Package) == 6);
    CHECK(m.tree.count(ObjectType::Core) == 10);
    // The two PU-less Groups are kept, as hwloc keeps them, each holding its
    // CPU-less NUMA node; every other object has PUs.
    CHECK(m.tree.count(ObjectType::Group) ==
          static_cast<std::uint32_t>(hwloc_count(topo.get(), HWLOC_OBJ_GROUP)));
    int pu_less = 0;
    for (std::size_t i = 0; i < m.tree.num_objects(); ++i) {
        const TreeObject& o = m.tree.object(ObjectId(static_cast<std::uint32_t>(i)));
        if (o.pu_count > 0) continue;
        ++pu_less;
        CHECK(o.type == ObjectType::Group);
        int numa = 0;
        for (const MemoryObject& mem : m.tree.memory())
            numa += mem.parent.value == i && mem.type == ObjectType::NUMANode;
        CHECK(numa == 1);
    }
    CHECK(pu_less == 2);
}

TEST_CASE("hwloc import: synthetic descriptions", "[hwloc_import]") {
    const std::string desc = "pack:2 l3:1 core:4 pu:2";
    const MachineTree t = tree_from_synthetic(desc);
    CHECK(t.count(ObjectType::Machine) == 1);
    CHECK(t.count(ObjectType::Package) == 2);
    CHECK(t.count(ObjectType::L3) == 2);
    CHECK(t.count(ObjectType::Core) == 8);
    CHECK(t.count(ObjectType::PU) == 16);
    CHECK(t.num_pus() == 16);
    CHECK(t.count(ObjectType::L2) == 0);
    CHECK(t.count(ObjectType::Die) == 0);
    CHECK(t.num_objects() == 1 + 2 + 2 + 8 + 16);

    // The same counts as hwloc's own synthetic topology.
    const Topology topo = hwloc_load_synthetic(desc);
    for (const auto& [htype, ntype] : compared_types()) {
        INFO("type " << to_string(ntype));
        CHECK(t.count(ntype) == hwloc_count(topo.get(), htype));
    }
    CHECK(t.count(ObjectType::NUMANode) >= 1);

    // Shape: PUs in order, meeting levels.
    for (std::uint32_t i = 0; i < 16; ++i) CHECK(t.object(t.pu(i)).os_index == i);
    auto meet = [&](std::uint32_t a, std::uint32_t b) {
        return t.object(t.common_ancestor(t.pu(a), t.pu(b))).type;
    };
    CHECK(meet(0, 0) == ObjectType::PU);
    CHECK(meet(0, 1) == ObjectType::Core);
    CHECK(meet(0, 2) == ObjectType::L3);
    CHECK(meet(3, 7) == ObjectType::L3);
    CHECK(meet(7, 8) == ObjectType::Machine);
    CHECK(meet(15, 0) == ObjectType::Machine);
    const TreeObject& l3 = t.object(t.common_ancestor(t.pu(9), t.pu(14)));
    CHECK(l3.type == ObjectType::L3);
    CHECK(l3.first_pu == 8);
    CHECK(l3.pu_count == 8);
    CHECK(l3.logical_index == 1);
}

TEST_CASE("hwloc import: bad synthetic descriptions name the bad token", "[hwloc_import]") {
    CHECK_THROWS_AS(tree_from_synthetic("pack:2 core:x pu:1"), InputError);
    CHECK_THROWS_AS(tree_from_synthetic("bogus:2 pu:1"), InputError);
    CHECK_THROWS_AS(tree_from_synthetic("pack:2 core:2"), InputError);
    CHECK_THROWS_AS(tree_from_synthetic(""), InputError);
    CHECK_THROWS_AS(tree_from_synthetic("pack:0 pu:1"), InputError);

    const std::string bad_count = synthetic_error("pack:2 core:x pu:1");
    CHECK_THAT(bad_count, Contains("'x'"));
    CHECK_THAT(bad_count, Contains("core"));

    const std::string bad_type = synthetic_error("bogus:2 pu:1");
    CHECK_THAT(bad_type, Contains("'bogus'"));

    const std::string no_pu = synthetic_error("pack:2 core:2");
    CHECK_THAT(no_pu, Contains("pu:"));
    CHECK_THAT(no_pu, Contains("pack:2 core:2"));

    const std::string empty = synthetic_error("");
    CHECK_THAT(empty, Contains("empty"));

    const std::string zero = synthetic_error("pack:0 pu:1");
    CHECK_THAT(zero, Contains("'0'"));
    CHECK_THAT(zero, Contains("pack"));
}

TEST_CASE("hwloc import: an export that crashes hwloc is an error, not a crash", "[hwloc_import]") {
    // A NUMA node with a nodeset but no complete_nodeset: hwloc 2.9's XML
    // importer (and lstopo) die on it with SIGSEGV. The library refuses it
    // before hwloc reads it, in this process; with the tools' sandbox too.
    const std::string path = NETTOPO_TEST_DATA "/hwloc-crasher.xml";
    REQUIRE(fs::exists(path));
    const ChildProcessSandbox tools_sandbox;
    for (const HwlocSandbox* sandbox : {static_cast<const HwlocSandbox*>(nullptr),
                                        static_cast<const HwlocSandbox*>(&tools_sandbox)}) {
        LoadOptions options;
        options.hwloc_sandbox = sandbox;
        std::string message;
        try {
            load_cluster(path, options);
        } catch (const InputError& e) {
            message = e.what();
        }
        CHECK_THAT(message, Catch::Matchers::StartsWith(
                                path + ":3: NUMANode P#0 has a nodeset but no complete_nodeset"));
    }
    // One nothing refuses before hwloc (hwloc-crasher-siblings.xml) is a
    // crash of the tools' sandbox's child, reported.
    const std::string siblings = NETTOPO_TEST_DATA "/hwloc-crasher-siblings.xml";
    LoadOptions options;
    options.hwloc_sandbox = &tools_sandbox;
    std::string message;
    try {
        load_cluster(siblings, options);
    } catch (const InputError& e) {
        message = e.what();
    }
    CHECK_THAT(message, Catch::Matchers::StartsWith(siblings + ": hwloc crashed reading this"));
    // The process is still fine: a good export loads afterwards.
    CHECK(load_cluster(NETTOPO_SHARED_DATA "/hwloc-xml/16em64t-4s2c2t.xml").num_pes() == 16);
}

TEST_CASE("hwloc import: an export whose PUs hwloc drops is refused", "[hwloc_import]") {
    // PU 0 with an empty cpuset contradicts its parents: hwloc prints a banner
    // and drops it. A machine silently missing a PU would mislead placement.
    const std::string real = NETTOPO_SHARED_DATA "/hwloc-xml/16em64t-4s2c2t.xml";
    std::ifstream in(real);
    REQUIRE(in);
    std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const std::string pu0 = "<object type=\"PU\" os_index=\"0\" cpuset=\"";
    const auto at = text.find(pu0);
    REQUIRE(at != std::string::npos);
    const auto value = at + pu0.size();
    text.replace(value, text.find('"', value) - value, "0x00000000");
    const fs::path path = fs::temp_directory_path() / "nettopo-test-pu0.xml";
    std::ofstream(path) << text;
    std::string message;
    try {
        load_cluster(path.string());
    } catch (const InputError& e) {
        message = e.what();
    }
    fs::remove(path);
    CHECK_THAT(message, Catch::Matchers::Contains("hwloc kept 15 of the 16 PUs of this export"));
}

TEST_CASE("hwloc import: nested Groups are numbered per level, as lstopo shows them",
          "[hwloc_import]") {
    // lstopo: Group0 L#0 > Group1 L#0 > Group2 L#0, L#1; PUs 0 and 2 meet in Group1 L#0.
    const Cluster c = load_cluster(NETTOPO_SHARED_DATA "/hwloc-xml/16-2gr2gr2n2c+misc.xml");
    const auto anc = c.common_ancestor(PeId(0), PeId(2));
    REQUIRE(anc.has_value());
    const MachineTree& tree = c.machine_type(anc->machine).tree();
    CHECK(tree.level_name(anc->object) == "Group1");
    CHECK(anc->logical_index == 0);
    const auto deeper = c.common_ancestor(PeId(2), PeId(3));
    REQUIRE(deeper.has_value());
    CHECK(tree.level_name(deeper->object) == "Group2");
    CHECK(deeper->logical_index == 1);
    CHECK(tree.level_name(tree.pu(0)) == "PU");
}

TEST_CASE("real data: the exports of open issues still fail as reported", "[hwloc_import]") {
    // When one of these passes, its issue is fixed: take it off
    // xmls_of_open_issues() so every real-data test covers it again.
    const std::string dir = NETTOPO_SHARED_DATA "/hwloc-xml/";
    REQUIRE(test::xmls_of_open_issues().empty()); // issue 13 fixed both
    // Every export of the directory is covered by real_xmls() again.
    std::size_t exports = 0;
    for (const auto& e : fs::directory_iterator(dir)) exports += e.path().extension() == ".xml";
    CHECK(test::real_xmls().size() == exports);
}
