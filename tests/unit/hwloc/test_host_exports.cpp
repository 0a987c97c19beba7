// Per-host hwloc exports (load_host_exports): the real clusters of the shared
// data (avakas: 12 full exports and 264 hwloc 1.x topology diffs; plafrim:
// 122 full exports), diffs checked against hwloc's own hwloc-patch, and the
// errors of hand-made bad inputs.
#include "nettopo/hwloc/host_exports.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/temp_dir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace nettopo;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

using test::read_file;
using test::TempDir;

const fs::path avakas_dir = fs::path(NETTOPO_SHARED_DATA) / "clusters" / "avakas" / "hwloc";
const fs::path plafrim_dir = fs::path(NETTOPO_SHARED_DATA) / "clusters" / "plafrim" / "hwloc";

bool have(const fs::path& dir) {
    if (fs::is_directory(dir)) return true;
    WARN("shared data absent, skipped: " << dir.string());
    return false;
}

void write(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    REQUIRE(out);
}

std::string error_of(const std::vector<std::string>& paths,
                     HostNaming naming = HostNaming::automatic) {
    try {
        load_host_exports(paths, nullptr, {naming, PuScope::whole_machine});
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

bool have_tool(const char* tool) {
    if (std::system(fmt::format("command -v {} >/dev/null 2>&1", tool).c_str()) == 0) return true;
    WARN(tool << " not installed: comparison with hwloc's tool skipped");
    return false;
}

// hwloc-patch REF DIFF OUT, quietly; true on success.
bool hwloc_patch(const std::string& ref, const std::string& diff, const std::string& out) {
    return std::system(
               fmt::format("hwloc-patch '{}' '{}' '{}' >/dev/null 2>&1", ref, diff, out).c_str()) ==
           0;
}

const HostExport& host(const std::vector<HostExport>& hosts, const std::string& name) {
    const auto it = std::find_if(hosts.begin(), hosts.end(),
                                 [&](const HostExport& h) { return h.name == name; });
    REQUIRE(it != hosts.end());
    return *it;
}

// An hwloc 1.x diff rewritten by hand to hwloc 2's depths, for hwloc-patch
// (which applies hwloc 1.x depths as they are, and fails): I/O depths -3, -4,
// -5 become -4, -5, -6; `numa_depth` (NUMA nodes' hwloc 1.x level) becomes -3.
std::string to_v2_depths(std::string diff, int numa_depth) {
    diff = std::regex_replace(diff, std::regex("obj_depth=\"-5\""), "obj_depth=\"-6\"");
    diff = std::regex_replace(diff, std::regex("obj_depth=\"-4\""), "obj_depth=\"-5\"");
    diff = std::regex_replace(diff, std::regex("obj_depth=\"-3\""), "obj_depth=\"-4\"");
    return std::regex_replace(diff, std::regex(fmt::format("obj_depth=\"{}\"", numa_depth)),
                              "obj_depth=\"-3\"");
}

// A hand-made hwloc 2 diff against hwloc-xml/16em64t-4s2c2t.xml (as ref.xml),
// which has no HostName: it changes an info of the root.
const std::string v2_diff_of_16em64t =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<!DOCTYPE topologydiff SYSTEM \"hwloc2-diff.dtd\">\n"
    "<topologydiff refname=\"ref.xml\">\n"
    "  <diff type=\"0\" obj_depth=\"0\" obj_index=\"0\" obj_attr_type=\"2\" "
    "obj_attr_name=\"infowithvalue\" obj_attr_oldvalue=\"value\" obj_attr_newvalue=\"other\"/>\n"
    "</topologydiff>\n";

} // namespace

TEST_CASE("host exports: avakas, 12 full exports and 264 hwloc 1.x diffs", "[host-exports]") {
    if (!have(avakas_dir)) return;
    const std::vector<HostExport> hosts = load_host_exports({avakas_dir.string()});
    REQUIRE(hosts.size() == 276);

    std::set<std::string> names;
    int diffs = 0;
    for (const HostExport& h : hosts) {
        INFO(h.source);
        names.insert(h.name);
        const std::string file = fs::path(h.source).filename().string();
        const bool diff = file.ends_with(".diff.xml");
        diffs += diff;
        // Every host's HostName (changed by its diff) is its file's stem here.
        CHECK(file == h.name + (diff ? ".diff.xml" : ".xml"));
        CHECK(h.tree.num_pus() > 0);
    }
    CHECK(names.size() == 276);
    CHECK(diffs == 264);
    // Sorted by file name.
    CHECK(std::is_sorted(hosts.begin(), hosts.end(), [](const HostExport& a, const HostExport& b) {
        return a.source < b.source;
    }));

    // node003: its diff changes attributes only (HostName, cgroup, I/O
    // addresses): the tree is its reference's.
    const HwlocMachine node001 = load_hwloc_xml((avakas_dir / "node001.xml").string());
    CHECK(host(hosts, "node003").tree == node001.tree);
    CHECK(host(hosts, "node001").tree == node001.tree);
    // node015: 16 GiB instead of 24 GiB on its second NUMA node (an hwloc 1.x
    // depth-1 change, NUMA nodes being a level of hwloc 1.x's tree).
    const MachineTree& node015 = host(hosts, "node015").tree;
    REQUIRE(node015.memory().size() == 2);
    CHECK(node015.memory()[0].size_bytes == node001.tree.memory()[0].size_bytes);
    CHECK(node015.memory()[1].size_bytes == 17179869184u);
    CHECK(node001.tree.memory()[1].size_bytes == 25769803776u);
    CHECK_FALSE(node015 == node001.tree);
}

TEST_CASE("host exports: hwloc 1.x diffs give what hwloc-patch gives", "[host-exports]") {
    if (!have(avakas_dir) || !have_tool("hwloc-patch")) return;
    const std::vector<HostExport> hosts = load_host_exports({avakas_dir.string()});
    const TempDir tmp("nettopo-hosts-patch-");
    // hwloc 2.9's hwloc-patch itself refuses these diffs (their depths are
    // hwloc 1.x's): check that first, then patch with the depths rewritten
    // by hand, and compare the trees.
    const std::string ref = (avakas_dir / "node001.xml").string();
    CHECK_FALSE(hwloc_patch(ref, (avakas_dir / "node003.diff.xml").string(), tmp / "x.xml"));
    // Hosts of several references; NUMA nodes' hwloc 1.x depth in each (bigmem01:
    // Machine, Group, NUMANode).
    const std::pair<std::string, int> cases[] = {{"node003", 1}, {"node015", 1}, {"node031", 1},
                                                 {"node110", 1}, {"node245", 1}, {"bigmem02", 2},
                                                 {"phi02", 1},   {"visu06", 1}};
    for (const auto& [name, numa_depth] : cases) {
        INFO(name);
        const std::string diff = read_file(avakas_dir / (name + ".diff.xml"));
        std::smatch refname;
        REQUIRE(std::regex_search(diff, refname, std::regex("refname=\"([^\"]+)\"")));
        const std::string reference = (avakas_dir / refname[1].str()).string();
        write(tmp / "v2.diff.xml", to_v2_depths(diff, numa_depth));
        const std::string patched = tmp / (name + ".xml");
        REQUIRE(hwloc_patch(reference, tmp / "v2.diff.xml", patched));
        const HwlocMachine expected = load_hwloc_xml(patched);
        CHECK(expected.hostname == name);
        CHECK(host(hosts, name).tree == expected.tree);
    }
}

TEST_CASE("host exports: an hwloc 2 diff (hwloc-diff) gives what hwloc-patch gives",
          "[host-exports]") {
    if (!have(avakas_dir) || !have_tool("hwloc-diff") || !have_tool("hwloc-patch")) return;
    const TempDir tmp("nettopo-hosts-v2diff-");
    const std::string ref = tmp / "node001.xml";
    fs::copy_file(avakas_dir / "node001.xml", ref);
    // Another host: other HostName, less memory on its second NUMA node.
    std::string other = read_file(ref);
    other = std::regex_replace(other, std::regex("value=\"node001\""), "value=\"node900\"");
    other = std::regex_replace(other, std::regex("local_memory=\"25769803776\""),
                               "local_memory=\"8589934592\"");
    const std::string full = tmp / "full.xml";
    write(full, other);
    // The file name is not the host's: the diff's HostName wins.
    const std::string diff = tmp / "other.diff.xml";
    REQUIRE(std::system(fmt::format("hwloc-diff '{}' '{}' '{}' >/dev/null 2>&1", ref, full, diff)
                            .c_str()) == 0);
    CHECK_THAT(read_file(diff), Contains("hwloc2-diff.dtd"));
    CHECK_THAT(read_file(diff), Contains("obj_attr_type=\"0\"")); // a size change
    REQUIRE(hwloc_patch(ref, diff, tmp / "patched.out"));
    fs::remove(full);

    const std::vector<HostExport> hosts = load_host_exports({tmp.path.string()});
    REQUIRE(hosts.size() == 2);
    CHECK(hosts[0].name == "node001");
    CHECK(hosts[0].source == ref);
    CHECK(hosts[1].name == "node900");
    CHECK(hosts[1].source == diff);
    const MachineTree patched = load_hwloc_xml(tmp / "patched.out").tree;
    CHECK(hosts[1].tree == patched);
    CHECK(hosts[1].tree.memory()[1].size_bytes == 8589934592u);
    CHECK_FALSE(hosts[1].tree == hosts[0].tree);
}

TEST_CASE("host exports: plafrim, 122 full exports", "[host-exports]") {
    if (!have(plafrim_dir)) return;
    const std::vector<HostExport> hosts = load_host_exports({plafrim_dir.string()});
    REQUIRE(hosts.size() == 122);
    std::set<std::string> names;
    for (const HostExport& h : hosts) names.insert(h.name);
    CHECK(names.size() == 122);
    // The same trees and names as load_hwloc_xml, for a sample.
    for (std::size_t i = 0; i < hosts.size(); i += 17) {
        INFO(hosts[i].source);
        const HwlocMachine m = load_hwloc_xml(hosts[i].source);
        CHECK(hosts[i].name == m.hostname);
        CHECK(hosts[i].tree == m.tree);
    }
}

TEST_CASE("host exports: files and directories, names from HostName or the file",
          "[host-exports]") {
    const TempDir tmp("nettopo-hosts-names-");
    // No HostName in these exports: the file's stem names the host.
    const fs::path xml = fs::path(NETTOPO_SHARED_DATA) / "hwloc-xml";
    if (!have(xml)) return;
    fs::create_directory(tmp.path / "d");
    fs::copy_file(xml / "16em64t-4s2c2t.xml", tmp.path / "d" / "b.xml");
    fs::copy_file(xml / "16amd64-4distances.xml", tmp.path / "d" / "a.xml");
    write(tmp / "d/notes.txt", "not an export");
    write(tmp / "d/.hidden.xml", "<broken");
    fs::copy_file(xml / "16amd64-8n2c-cpusets.xml", tmp.path / "single.export");
    const std::vector<HostExport> hosts =
        load_host_exports({tmp / "single.export", (tmp.path / "d").string()});
    REQUIRE(hosts.size() == 3);
    CHECK(hosts[0].name == "single");
    CHECK(hosts[1].name == "a");
    CHECK(hosts[1].source == tmp / "d/a.xml");
    CHECK(hosts[2].name == "b");
    CHECK(hosts[2].tree == load_hwloc_xml((xml / "16em64t-4s2c2t.xml").string()).tree);

    // A diff without HostName: the file name without ".diff.xml".
    fs::copy_file(xml / "16em64t-4s2c2t.xml", tmp.path / "ref.xml");
    write(tmp / "host7.diff.xml", v2_diff_of_16em64t);
    const std::vector<HostExport> diffed = load_host_exports({tmp / "host7.diff.xml"});
    REQUIRE(diffed.size() == 1);
    CHECK(diffed[0].name == "host7");
    CHECK(diffed[0].source == tmp / "host7.diff.xml");
    CHECK(diffed[0].tree == hosts[2].tree);
}

TEST_CASE("host exports: a HostName against the rule of names is refused at its line",
          "[host-exports]") {
    // Findings D1, D2: the HostName info becomes a machine name.
    if (!have(plafrim_dir)) return;
    const TempDir tmp("nettopo-hosts-hostname-");
    const std::string bonobo = read_file(plafrim_dir / "bonobo001.xml");
    const std::string info = "name=\"HostName\" value=\"bonobo001\"";
    REQUIRE(bonobo.find(info) != std::string::npos);
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(
                                     bonobo.begin(), bonobo.begin() + bonobo.find(info), '\n'));
    const auto with = [&](const std::string& value) {
        std::string text = bonobo;
        text.replace(text.find(info), info.size(), "name=\"HostName\" value=\"" + value + "\"");
        return text;
    };
    write(tmp / "a.xml", with(std::string(255, 'h')));
    CHECK(load_host_exports({tmp / "a.xml"}).at(0).name == std::string(255, 'h'));
    write(tmp / "a.xml", with(std::string(256, 'h')));
    CHECK_THAT(error_of({tmp / "a.xml"}),
               StartsWith(fmt::format("{}:{}: HostName 'hhh", tmp / "a.xml", line)) &&
                   Contains("is 256 bytes long"));
    // A C1 control is XML (hwloc loads it), not a name; C0 ones hwloc refuses itself.
    write(tmp / "a.xml", with("bonobo\xc2\x9b"
                              "2J"));
    CHECK(error_of({tmp / "a.xml"}) ==
          fmt::format("{}:{}: HostName 'bonobo\\xc2\\x9b2J' holds the control character U+009B "
                      "at byte 7",
                      tmp / "a.xml", line));
}

TEST_CASE("host exports: errors name the file", "[host-exports]") {
    if (!have(avakas_dir)) return;
    const TempDir tmp("nettopo-hosts-errors-");
    const std::string node003 = read_file(avakas_dir / "node003.diff.xml");

    SECTION("a diff whose reference is missing") {
        write(tmp / "node003.diff.xml", node003);
        const std::string e = error_of({tmp / "node003.diff.xml"});
        CHECK_THAT(e, StartsWith(tmp / "node003.diff.xml: "));
        CHECK_THAT(e, Contains(tmp / "node001.xml"));
        CHECK_THAT(e, Contains("missing"));
    }
    SECTION("a diff without a refname") {
        write(tmp / "x.diff.xml",
              std::regex_replace(node003, std::regex(" refname=\"node001.xml\""), ""));
        CHECK_THAT(error_of({tmp / "x.diff.xml"}), Contains("has no refname"));
    }
    SECTION("a diff that does not apply: a wrong old value") {
        fs::copy_file(avakas_dir / "node001.xml", tmp.path / "node001.xml");
        // The second change expects HostName node001; say node999.
        write(tmp / "node003.diff.xml",
              std::regex_replace(node003, std::regex("obj_attr_oldvalue=\"node001\""),
                                 "obj_attr_oldvalue=\"node999\""));
        const std::string e = error_of({tmp.path.string()});
        CHECK_THAT(e, StartsWith(tmp / "node003.diff.xml: cannot be applied to its reference " +
                                 tmp / "node001.xml"));
        CHECK_THAT(e, Contains("change 2 of 9"));
    }
    SECTION("a diff whose reference is a diff") {
        write(tmp / "node001.xml", node003);
        write(tmp / "node003.diff.xml", node003);
        CHECK_THAT(error_of({tmp / "node003.diff.xml"}), Contains("is itself a topology diff"));
    }
    SECTION("two files of one host, by the export's rule") {
        fs::copy_file(avakas_dir / "node001.xml", tmp.path / "a.xml");
        fs::copy_file(avakas_dir / "node001.xml", tmp.path / "b.xml");
        const std::string e = error_of({tmp.path.string()}, HostNaming::export_name);
        CHECK_THAT(e, StartsWith(tmp / "b.xml: host 'node001' is described twice"));
        CHECK_THAT(e, Contains(tmp / "a.xml"));
    }
    SECTION("two files of one host whose names are one host too") {
        fs::create_directory(tmp.path / "1");
        fs::create_directory(tmp.path / "2");
        fs::copy_file(avakas_dir / "node001.xml", tmp.path / "1/node007.xml");
        fs::copy_file(avakas_dir / "node001.xml", tmp.path / "2/node007.xml");
        const std::string e = error_of({tmp / "1", tmp / "2"});
        CHECK_THAT(e, StartsWith(tmp / "2/node007.xml: host 'node001' is described twice: here "
                                       "and in " +
                                 tmp / "1/node007.xml"));
        CHECK_THAT(e, Contains("both file names name 'node007'"));
        // By their files: node007 twice.
        CHECK_THAT(error_of({tmp / "1", tmp / "2"}, HostNaming::file_name),
                   StartsWith(tmp / "2/node007.xml: host 'node007' is described twice"));
    }
    SECTION("two files of one host, one file name no host name") {
        fs::copy_file(avakas_dir / "node001.xml", tmp.path / "node001.xml");
        fs::copy_file(avakas_dir / "node001.xml", tmp.path / "_copy.xml");
        const std::string e = error_of({tmp.path.string()});
        CHECK_THAT(e, StartsWith(tmp / "_copy.xml: host 'node001' is described twice: here and "
                                       "in " +
                                 tmp / "node001.xml"));
        CHECK_THAT(e, Contains("the file name '_copy' is no host name"));
    }
    SECTION("a diff and a full export of one host") {
        fs::copy_file(avakas_dir / "node001.xml", tmp.path / "node001.xml");
        write(tmp / "node003.diff.xml", node003);
        write(tmp / "node003.xml",
              std::regex_replace(read_file(avakas_dir / "node001.xml"),
                                 std::regex("value=\"node001\""), "value=\"node003\""));
        const std::string e = error_of({tmp.path.string()});
        CHECK_THAT(e, Contains("host 'node003' is described twice"));
        CHECK_THAT(e, Contains(tmp / "node003.diff.xml"));
        CHECK_THAT(e, Contains(tmp / "node003.xml"));
    }
    SECTION("a directory without .xml files") {
        write(tmp / "notes.txt", "nothing");
        CHECK(error_of({tmp.path.string()}) ==
              fmt::format("{}: no .xml file in this directory", tmp.path.string()));
    }
    SECTION("a missing file") {
        CHECK_THAT(error_of({tmp / "nothere.xml"}), StartsWith(tmp / "nothere.xml: cannot read"));
    }
    SECTION("malformed XML in a directory: the file and the line") {
        fs::copy_file(avakas_dir / "node001.xml", tmp.path / "a.xml");
        write(tmp / "b.xml", "<?xml version=\"1.0\"?>\n<topology>\n  <object type=\"Machine\">\n"
                             "  </objet>\n</topology>\n");
        CHECK_THAT(error_of({tmp.path.string()}), StartsWith(tmp / "b.xml:4: malformed XML"));
    }
    SECTION("an XML document of another kind") {
        write(tmp / "c.xml", "<nettopo version=\"2\"/>\n");
        CHECK_THAT(error_of({tmp.path.string()}),
                   StartsWith(tmp / "c.xml: unrecognised XML document <nettopo>"));
    }
    SECTION("an export whose PUs hwloc drops, as a reference too") {
        // PU 0 with an empty cpuset: hwloc drops it (see test_hwloc_import).
        std::string text =
            read_file(fs::path(NETTOPO_SHARED_DATA) / "hwloc-xml/16em64t-4s2c2t.xml");
        const std::string pu0 = "<object type=\"PU\" os_index=\"0\" cpuset=\"";
        const auto at = text.find(pu0);
        REQUIRE(at != std::string::npos);
        const auto value = at + pu0.size();
        text.replace(value, text.find('"', value) - value, "0x00000000");
        write(tmp / "ref.xml", text);
        CHECK_THAT(error_of({tmp / "ref.xml"}),
                   StartsWith(tmp / "ref.xml: hwloc kept 15 of the 16 PUs"));
        write(tmp / "host7.diff.xml", v2_diff_of_16em64t);
        CHECK_THAT(error_of({tmp / "host7.diff.xml"}),
                   StartsWith(tmp / "ref.xml: hwloc kept 15 of the 16 PUs"));
    }
}

TEST_CASE("host exports: exports claiming one HostName are named after their files",
          "[host-exports]") {
    if (!have(avakas_dir) || !have(plafrim_dir)) return;
    // An export copied to other hosts keeps the HostName it was made on
    // (node001); the files name the hosts.
    const TempDir tmp("nettopo-hosts-claims-");
    for (const char* name : {"node001.xml", "node002.xml", "node010.xml"})
        fs::copy_file(avakas_dir / "node001.xml", tmp.path / name);
    fs::copy_file(plafrim_dir / "fourmi001.xml", tmp.path / "fourmi001.xml");
    const std::vector<HostExport> hosts = load_host_exports({tmp.path.string()});
    REQUIRE(hosts.size() == 4);
    CHECK(hosts[0].name == "fourmi001");
    CHECK_FALSE(hosts[0].renamed);
    for (std::size_t i = 1; i < 4; ++i) {
        CHECK(hosts[i].name == fs::path(hosts[i].source).stem().string());
        CHECK(hosts[i].export_hostname == "node001");
        CHECK(hosts[i].renamed);
        CHECK(hosts[i].tree == hosts[1].tree);
    }
    // --host-name file: the same names, none said to be renamed.
    const std::vector<HostExport> by_file =
        load_host_exports({tmp.path.string()}, nullptr, {HostNaming::file_name, {}});
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(by_file[i].name == hosts[i].name);
        CHECK_FALSE(by_file[i].renamed);
    }
    CHECK_THAT(error_of({tmp.path.string()}, HostNaming::export_name),
               Contains("host 'node001' is described twice"));
}

TEST_CASE("host exports: the real clusters' files are named as their exports", "[host-exports]") {
    // Every real export says the HostName its file is named after: the three
    // rules agree on them.
    for (const fs::path& dir : {avakas_dir, plafrim_dir}) {
        if (!have(dir)) continue;
        INFO(dir.string());
        const std::vector<HostExport> automatic = load_host_exports({dir.string()});
        for (const HostNaming naming : {HostNaming::export_name, HostNaming::file_name}) {
            const std::vector<HostExport> hosts =
                load_host_exports({dir.string()}, nullptr, {naming, {}});
            REQUIRE(hosts.size() == automatic.size());
            for (std::size_t i = 0; i < hosts.size(); ++i) {
                CHECK(hosts[i].name == automatic[i].name);
                CHECK_FALSE(automatic[i].renamed);
                CHECK_FALSE(automatic[i].allowed.restricted());
            }
        }
    }
}
