// Exports made inside a job (allowed_cpuset smaller than the machine) are
// read whole by default and to their allowed PUs with PuScope::allowed_only;
// both counts are checked against hwloc's own tool (hwloc-info, with and
// without --disallowed) on every real export of the shared data that hwloc
// loads. Exports whose cpusets really are inconsistent (copies of real files
// broken by the test) still fail, saying so.
#include "common/child_process_sandbox.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/hwloc/host_exports.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/real_data.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

using test::read_file;
using test::TempDir;

const fs::path hwloc_xml_dir = fs::path(NETTOPO_SHARED_DATA) / "hwloc-xml";
const std::string hagrid = (hwloc_xml_dir / "hagrid-restricted.xml").string();

bool have_hwloc_info() {
    if (std::system("command -v hwloc-info >/dev/null 2>&1") == 0) return true;
    WARN("hwloc-info not installed: comparison with hwloc's tool skipped");
    return false;
}

struct HwlocInfoCounts {
    unsigned pus = 0, numa_nodes = 0;
};

// What `hwloc-info [--disallowed] -i FILE` counts ("depth 5: 8 PU (type
// #3)", "Special depth -3: 4 NUMANode (type #13)"); none when hwloc cannot
// load the file.
std::optional<HwlocInfoCounts> hwloc_info(const std::string& file, bool disallowed) {
    const std::string command =
        fmt::format("hwloc-info {}-i '{}' 2>/dev/null", disallowed ? "--disallowed " : "", file);
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
    if (pclose(pipe) != 0) return std::nullopt;
    HwlocInfoCounts c;
    static const std::regex level(R"(depth [-0-9]+:\s+([0-9]+) (PU|NUMANode) \(type)");
    for (std::sregex_iterator it(out.begin(), out.end(), level), end; it != end; ++it)
        ((*it)[2] == "PU" ? c.pus : c.numa_nodes) += std::stoul((*it)[1]);
    REQUIRE(c.pus > 0);
    return c;
}

// Every full export of the shared data: hwloc-xml and the clusters' hosts
// (their topology diffs are not exports hwloc-info reads).
std::vector<std::string> every_real_export() {
    std::vector<std::string> files;
    for (const fs::path& dir : {hwloc_xml_dir, fs::path(NETTOPO_SHARED_DATA) / "clusters"}) {
        if (!fs::is_directory(dir)) continue;
        for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
            const std::string name = e.path().filename().string();
            if (e.is_regular_file() && name.ends_with(".xml") && !name.ends_with(".diff.xml"))
                files.push_back(e.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::size_t count_numa(const MachineTree& tree) {
    return tree.count(ObjectType::NUMANode);
}

std::string error_of(const std::string& path, PuScope scope) {
    try {
        load_hwloc_xml(path, nullptr, scope);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

// `text` with the value of the first `attribute="..."` after `anchor` replaced.
std::string replace_attribute(std::string text, const std::string& anchor,
                              const std::string& attribute, const std::string& value) {
    const auto at = text.find(anchor);
    REQUIRE(at != std::string::npos);
    const std::string key = attribute + "=\"";
    const auto start = text.find(key, at);
    REQUIRE(start != std::string::npos);
    const auto begin = start + key.size();
    text.replace(begin, text.find('"', begin) - begin, value);
    return text;
}

void write(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    REQUIRE(out);
}

} // namespace

TEST_CASE("restricted exports: PU counts whole and allowed-only are hwloc-info's", "[restricted]") {
    if (!have_hwloc_info()) return;
    const std::vector<std::string> files = every_real_export();
    REQUIRE(files.size() >= 150); // 20 machines, 12 avakas and 122 plafrim hosts
    std::size_t compared = 0, restricted = 0;
    for (const std::string& path : files) {
        INFO("file " << path);
        const auto whole = hwloc_info(path, true);
        const auto allowed = hwloc_info(path, false);
        if (!whole || !allowed) {
            WARN("hwloc 2.9 does not load " << path);
            continue;
        }
        ++compared;
        const HwlocMachine m = load_hwloc_xml(path);
        CHECK(m.tree.num_pus() == whole->pus);
        CHECK(count_numa(m.tree) == whole->numa_nodes);
        CHECK(m.allowed.machine == whole->pus);
        CHECK(m.allowed.allowed == allowed->pus);
        CHECK(m.allowed.restricted() == (allowed->pus < whole->pus));
        restricted += m.allowed.restricted();
        const HwlocMachine a = load_hwloc_xml(path, nullptr, PuScope::allowed_only);
        CHECK(a.tree.num_pus() == allowed->pus);
        CHECK(count_numa(a.tree) == allowed->numa_nodes);
        CHECK(a.allowed.allowed == m.allowed.allowed);
        CHECK(a.allowed.os_indexes == m.allowed.os_indexes);
        CHECK(a.hostname == m.hostname);
        if (!m.allowed.restricted()) CHECK(a.tree == m.tree);
    }
    CHECK(compared >= 150);
    CHECK(restricted >= 1); // hagrid-restricted.xml at least
}

TEST_CASE("restricted exports: hagrid, 6 of its 8 PUs allowed", "[restricted]") {
    REQUIRE(fs::exists(hagrid));
    const HwlocMachine whole = load_hwloc_xml(hagrid);
    CHECK(whole.tree.num_pus() == 8);
    CHECK(whole.allowed.allowed == 6);
    CHECK(whole.allowed.machine == 8);
    // allowed_cpuset="0x000000cf": PUs P#0-3 and P#6-7.
    CHECK(whole.allowed.os_indexes == "0-3,6-7");
    const HwlocMachine allowed = load_hwloc_xml(hagrid, nullptr, PuScope::allowed_only);
    CHECK(allowed.tree.num_pus() == 6);
    for (std::uint32_t i = 0; i < allowed.tree.num_pus(); ++i) {
        const std::uint32_t os = allowed.tree.object(allowed.tree.pu(i)).os_index;
        CHECK((os <= 3 || os >= 6));
    }
    // The same through load_cluster, the tools' sandbox and the host exports.
    LoadOptions options;
    CHECK(load_cluster(hagrid, options).num_pes() == 8);
    options.pu_scope = PuScope::allowed_only;
    CHECK(load_cluster(hagrid, options).num_pes() == 6);
    const ChildProcessSandbox sandbox;
    const HwlocMachine sandboxed = load_hwloc_xml(hagrid, &sandbox);
    CHECK(sandboxed.tree == whole.tree);
    CHECK(sandboxed.allowed.os_indexes == "0-3,6-7");
    CHECK(sandboxed.allowed.allowed == 6);
    CHECK(load_hwloc_xml(hagrid, &sandbox, PuScope::allowed_only).tree == allowed.tree);
    const std::vector<HostExport> hosts = load_host_exports({hagrid}, &sandbox);
    REQUIRE(hosts.size() == 1);
    CHECK(hosts[0].tree == whole.tree);
    CHECK(hosts[0].allowed.restricted());
    CHECK(load_host_exports({hagrid}, nullptr, {HostNaming::automatic, PuScope::allowed_only})[0]
              .tree == allowed.tree);
}

TEST_CASE("restricted exports: a diff of a restricted reference", "[restricted]") {
    // hwloc-diff between hagrid and a copy with another HostName; the diff
    // applies to the whole reference, the allowed part is taken afterwards.
    if (std::system("command -v hwloc-diff >/dev/null 2>&1") != 0) {
        WARN("hwloc-diff not installed: skipped");
        return;
    }
    const TempDir tmp("nettopo-restricted-diff-");
    const std::string text = read_file(hagrid);
    const std::string named = std::regex_replace(
        text, std::regex("<info name=\"Backend\""),
        "<info name=\"HostName\" value=\"hagrid1\"/>\n    <info name=\"Backend\"");
    write(tmp / "hagrid1.xml", named);
    write(tmp / "hagrid2.xml", std::regex_replace(named, std::regex("hagrid1"), "hagrid2"));
    REQUIRE(
        std::system(fmt::format("hwloc-diff --refname hagrid1.xml '{}' '{}' '{}'",
                                tmp / "hagrid1.xml", tmp / "hagrid2.xml", tmp / "hagrid2.diff.xml")
                        .c_str()) == 0);
    fs::remove(tmp.path / "hagrid2.xml");
    const std::vector<HostExport> whole = load_host_exports({tmp.path.string()});
    REQUIRE(whole.size() == 2);
    CHECK(whole[1].name == "hagrid2");
    CHECK(whole[1].tree.num_pus() == 8);
    CHECK(whole[1].allowed.os_indexes == "0-3,6-7");
    const std::vector<HostExport> allowed = load_host_exports(
        {tmp.path.string()}, nullptr, {HostNaming::automatic, PuScope::allowed_only});
    CHECK(allowed[1].tree.num_pus() == 6);
    CHECK(allowed[1].tree == allowed[0].tree);
}

TEST_CASE("restricted exports: inconsistent cpusets are still refused, saying which PUs",
          "[restricted]") {
    const TempDir tmp("nettopo-inconsistent-");
    const std::string text = read_file(hagrid);
    SECTION("a PU whose cpuset is empty: hwloc drops it, whole or allowed-only") {
        write(tmp / "x.xml", replace_attribute(text, "<object type=\"PU\" os_index=\"1\"", "cpuset",
                                               "0x00000000"));
        for (const PuScope scope : {PuScope::whole_machine, PuScope::allowed_only}) {
            const std::string e = error_of(tmp / "x.xml", scope);
            CHECK_THAT(e, StartsWith(tmp / "x.xml: hwloc kept 7 of the 8 PUs of this export, "
                                           "dropping P#1: its cpusets are inconsistent"));
        }
    }
    SECTION("an allowed cpuset holding none of the PUs: whole, but nothing allowed") {
        write(tmp / "x.xml",
              replace_attribute(text, "<object type=\"Machine\"", "allowed_cpuset", "0x00000f00"));
        const HwlocMachine m = load_hwloc_xml(tmp / "x.xml");
        CHECK(m.tree.num_pus() == 8);
        CHECK(m.allowed.allowed == 0);
        CHECK_THAT(error_of(tmp / "x.xml", PuScope::allowed_only),
                   Contains("allows none of its 8 PUs"));
    }
    SECTION("the unmodified file loads") {
        write(tmp / "x.xml", text);
        CHECK(error_of(tmp / "x.xml", PuScope::whole_machine) == "(no error)");
    }
}
