// synthetic_description: a machine tree as an hwloc synthetic description.
// The slow twin is hwloc itself: what is written, read back by
// tree_from_synthetic (hwloc's parser), must be the same tree, object for
// object (types, levels, sizes, OS indexes, NUMA nodes); trees no
// description gives are refused with the object that breaks the symmetry.
// The comparison with `lstopo --of synthetic` is tools.export_oracle.
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/hwloc/synthetic_writer.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/real_data.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

using namespace nettopo;
using Catch::Contains;

namespace {

std::string refusal(const MachineTree& tree) {
    try {
        synthetic_description(tree);
    } catch (const InputError& e) {
        return e.what();
    }
    FAIL("written although no synthetic description gives it");
    return {};
}

} // namespace

TEST_CASE("synthetic_description: hwloc reads back the same tree", "[synthetic_writer]") {
    for (const char* d : {"pu:1", "core:3 pu:1", "pack:2 l3:1(size=32MB) core:4 pu:2",
                          "pack:2 [numa(memory=1GB)] l3:1 core:4 pu:2",
                          "[numa] group:2 pack:2 [numa] [numa] core:2 pu:2",
                          "pack:2 l2:2 l1d:1 l1i:1 core:1 pu:4(indexes=0,8,1,9,2,10,3,11,4,12,5,"
                          "13,6,14,7,15)",
                          "die:2 [numa(indexes=1,0)] core:2 pu:1"}) {
        INFO(d);
        const MachineTree tree = tree_from_synthetic(d);
        const std::string written = synthetic_description(tree);
        INFO(written);
        CHECK(tree_from_synthetic(written) == tree);
        CHECK(synthetic_description(tree_from_synthetic(written)) == written);
    }
    // hwloc's own spelling, sizes in bytes, indexes where they are not 0, 1, ...
    CHECK(synthetic_description(tree_from_synthetic("pack:2 l3:1(size=32MB) core:4 pu:2")) ==
          "[NUMANode(memory=1073741824)] Package:2 L3Cache:1(size=32000000) Core:4 PU:2");
    CHECK(synthetic_description(tree_from_synthetic("die:2 [numa(indexes=1,0)] core:2 pu:1")) ==
          "Die:2 [NUMANode(indexes=1,0)] Core:2 PU:1");
}

TEST_CASE("synthetic_description: every symmetric real machine reads back the same",
          "[synthetic_writer]") {
    int written = 0;
    for (const std::string& path : test::real_xmls()) {
        INFO(path);
        const MachineTree tree = load_hwloc_xml(path).tree;
        std::string text;
        try {
            text = synthetic_description(tree);
        } catch (const InputError& e) {
            CHECK_THAT(e.what(), Contains("no hwloc synthetic description gives this machine"));
            continue;
        }
        INFO(text);
        const MachineTree back = tree_from_synthetic(text);
        // Sizes are the level's first object's (hwloc writes one per level),
        // so only the structure and the indexes must match everywhere.
        CHECK(back.num_levels() == tree.num_levels());
        for (std::uint32_t d = 0; d < tree.num_levels(); ++d) {
            CHECK(back.level_type(d) == tree.level_type(d));
            CHECK(back.level_size(d) == tree.level_size(d));
        }
        REQUIRE(back.num_pus() == tree.num_pus());
        for (std::uint32_t p = 0; p < tree.num_pus(); ++p)
            CHECK(back.object(back.pu(p)).os_index == tree.object(tree.pu(p)).os_index);
        REQUIRE(back.memory().size() == tree.memory().size());
        ++written;
    }
    CHECK(written >= 12); // of the 21 real machines, the symmetric ones
}

TEST_CASE("synthetic_description refuses asymmetric machines, naming the object",
          "[synthetic_writer]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(NETTOPO_SHARED_DATA) / "hwloc-xml";
    // Packages with 2 and 1 L2 (hwloc: "Cannot output assymetric topology").
    CHECK_THAT(refusal(load_hwloc_xml(dir / "16amd64-8n2c-cpusets.xml").tree),
               Contains("Package L#0 has 2 L2 below it and Package L#2 has 1"));
    // An offline PU: a core with one PU among cores of two.
    CHECK_THAT(refusal(load_hwloc_xml(dir / "16em64t-4s2c2t-offlines.xml").tree),
               Contains("Core L#0 has 1 PU below it and Core L#1 has 2"));
    // A hybrid CPU: P-cores with an L2 each, E-cores sharing one.
    CHECK_THAT(refusal(load_hwloc_xml(dir / "Intel-ArrowLake-CoreUltra5-225U.v3as2.xml").tree),
               Contains("are on different levels"));
}
