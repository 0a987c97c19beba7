// The exports hwloc 2.9 is known to crash on (hwloc_xml_check.cpp) are
// refused before hwloc reads them, so that a library user without a sandbox
// gets an InputError naming the file and line, not a crash; nothing that
// hwloc reads well is refused. Each refused variation below makes
// `lstopo -i` die with SIGSEGV.
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/real_data.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace nettopo;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

using test::TempDir;

const std::string crasher = NETTOPO_TEST_DATA "/hwloc-crasher.xml";

void write(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    REQUIRE(out);
}

// A version 2 export of one Machine: the attributes of its element, and its
// children.
std::string export_v2(const std::string& machine, const std::string& children) {
    return "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n<object type=\"Machine\" " +
           machine + ">" + children + "</object></topology>\n";
}
std::string object(const std::string& attributes) {
    return "<object " + attributes + "/>";
}
const std::string full_machine =
    R"(os_index="0" cpuset="0x3" complete_cpuset="0x3" allowed_cpuset="0x3" )"
    R"(nodeset="0x1" complete_nodeset="0x1" allowed_nodeset="0x1")";
const std::string full_numa =
    R"(type="NUMANode" os_index="0" cpuset="0x3" complete_cpuset="0x3" nodeset="0x1" )"
    R"(complete_nodeset="0x1")";
const std::string two_pus =
    R"(<object type="PU" os_index="0" cpuset="0x1" complete_cpuset="0x1"/>)"
    R"(<object type="PU" os_index="1" cpuset="0x2" complete_cpuset="0x2"/>)";

} // namespace

TEST_CASE("hwloc crashers: the exports hwloc 2.9 crashes on are refused before hwloc reads them",
          "[hwloc_crashers]") {
    // tests/data/hwloc-crasher.xml: its NUMA node has a nodeset but no
    // complete_nodeset; hwloc 2.9 (and lstopo) die on it with SIGSEGV.
    try {
        load_hwloc_xml(crasher);
        FAIL("no InputError");
    } catch (const InputError& e) {
        CHECK(e.file() == crasher);
        CHECK(e.line() == 3);
        CHECK_THAT(e.what(), Contains("NUMANode P#0 has a nodeset but no complete_nodeset"));
        CHECK_THAT(e.what(), Contains("hwloc 2.9 crashes reading it"));
    }
    // Each rule on a variation of a good export.
    const TempDir tmp("nettopo-crashers-");
    const auto error_of = [&](const std::string& text) -> std::string {
        write(tmp / "x.xml", text);
        try {
            load_hwloc_xml(tmp / "x.xml");
        } catch (const InputError& e) {
            return e.what();
        }
        return "(loaded)";
    };
    const auto without = [](std::string attributes, const std::string& attribute) {
        const auto at = attributes.find(" " + attribute + "=");
        REQUIRE(at != std::string::npos);
        attributes.erase(at, attributes.find('"', attributes.find('"', at) + 1) + 1 - at);
        return attributes;
    };
    CHECK(error_of(export_v2(full_machine, object(full_numa) + two_pus)) == "(loaded)");
    CHECK_THAT(
        error_of(export_v2(full_machine, object(without(full_numa, "complete_nodeset")) + two_pus)),
        Contains("x.xml:3: NUMANode P#0 has a nodeset but no complete_nodeset"));
    CHECK_THAT(
        error_of(export_v2(without(full_machine, "complete_cpuset"), object(full_numa) + two_pus)),
        Contains("x.xml:3: the root object Machine P#0 has a cpuset but no complete_cpuset"));
    CHECK_THAT(
        error_of(export_v2(without(full_machine, "complete_nodeset"), object(full_numa) + two_pus)),
        Contains("x.xml:3: the root object Machine P#0 has a nodeset but no complete_nodeset"));
    // hwloc's spellings of the type: any case, a prefix, "node".
    for (const char* type : {"numanode", "NUMA", "node"}) {
        INFO(type);
        std::string numa = without(full_numa, "complete_nodeset");
        numa.replace(numa.find("NUMANode"), 8, type);
        CHECK_THAT(error_of(export_v2(full_machine, object(numa) + two_pus)),
                   Contains("but no complete_nodeset"));
    }
    // A NUMA node below a Group (memory objects hang off any CPU-side object).
    CHECK_THAT(error_of(export_v2(full_machine,
                                  R"(<object type="Group" cpuset="0x3" complete_cpuset="0x3" )"
                                  R"(nodeset="0x1" complete_nodeset="0x1">)" +
                                      object(without(full_numa, "complete_nodeset")) + two_pus +
                                      "</object>")),
               Contains("x.xml:3: NUMANode P#0 has a nodeset but no complete_nodeset"));

    // Not refused: what hwloc reads well, or reports as an error itself.
    // A missing complete_ set where hwloc fills it in: an only child's
    // complete_cpuset, a NUMA node's complete_cpuset, a Core's sets.
    CHECK(error_of(export_v2(full_machine, object(full_numa) + object(R"(type="PU" os_index="0" )"
                                                                      R"(cpuset="0x1")"))) ==
          "(loaded)");
    CHECK(error_of(export_v2(full_machine, object(without(full_numa, "complete_cpuset")) +
                                               two_pus)) == "(loaded)");
    CHECK(error_of(export_v2(full_machine,
                             object(full_numa) +
                                 R"(<object type="Core" os_index="0" cpuset="0x3" nodeset="0x1">)" +
                                 two_pus + "</object>")) == "(loaded)");
    // A root without complete_nodeset and no NUMA node: hwloc adds one.
    CHECK(error_of(export_v2(without(full_machine, "complete_nodeset"), two_pus)) == "(loaded)");
    // hwloc 1.x exports: hwloc checks the twins itself.
    std::string v1 =
        export_v2(full_machine, object(without(full_numa, "complete_nodeset")) + two_pus);
    v1.replace(v1.find("<topology version=\"2.0\">"), 24, "<topology>");
    CHECK_THAT(error_of(v1), Contains("hwloc cannot load this XML export"));
    // A NUMA node without any nodeset: hwloc says so.
    CHECK_THAT(error_of(export_v2(
                   full_machine,
                   object(without(without(full_numa, "complete_nodeset"), "nodeset")) + two_pus)),
               Contains("hwloc cannot load this XML export"));
}

TEST_CASE("hwloc crashers: no real export is refused as one", "[hwloc_crashers]") {
    std::vector<std::string> files = test::real_xmls();
    for (const char* cluster : {"avakas", "plafrim"}) {
        const fs::path dir = fs::path(test::real_cluster_dir(cluster)) / "hwloc";
        if (!fs::is_directory(dir)) continue;
        for (const fs::directory_entry& e : fs::directory_iterator(dir))
            if (!e.path().string().ends_with(".diff.xml")) files.push_back(e.path().string());
    }
    for (const std::string& f : files) {
        INFO(f);
        try {
            load_hwloc_xml(f);
        } catch (const InputError& e) {
            CHECK_THAT(e.what(), !Contains("crashes reading it"));
        }
    }
}
