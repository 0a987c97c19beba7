// The two real clusters of ../shared/data/clusters assembled from their
// per-host hwloc exports and their InfiniBand dumps (ibnetdiscover -p), and
// hand-made assemblies for every rule of matching hosts with a fabric.
//
// Hop counts checked here were read off the dumps by hand, with the -p
// report's columns ($4 = this port's GUID, $8 = "SW" or "CA" for the peer,
// $11 = the peer's GUID):
//   grep -v '^DR' ib-subnet-0.txt | awk '$4 == G && $8 == "SW" {print $11}' | sort | uniq -c
// lists the switches a switch G is cabled to, with the number of cables.
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/assemble/detail/check_report.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/real_data.hpp"
#include "testkit/temp_dir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace nettopo;
using Catch::Contains;
using Catch::StartsWith;

namespace {

using test::assemble_real_cluster;
using test::have_real_cluster;
using test::real_cluster_dir;
using test::TempDir;

std::uint32_t hops(const Cluster& c, std::string_view a, std::string_view b) {
    NetworkSearch search(c.network());
    const auto h = search.hops(c.vertex(c.require_machine(a)), c.vertex(c.require_machine(b)));
    REQUIRE(h);
    return *h;
}

const Link& link_between(const Cluster& c, VertexId a, VertexId b) {
    for (const Link& l : c.network().links())
        if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) return l;
    FAIL("no link between " << c.vertex_name(a) << " and " << c.vertex_name(b));
    throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("avakas: 276 hwloc exports (264 diffs) and a QLogic director fabric", "[real-clusters]") {
    if (!have_real_cluster("avakas")) return;
    const Assembly a = assemble_real_cluster("avakas");
    const Cluster& c = a.cluster;
    INFO(c.num_machines() << " machines, " << c.num_switches() << " switches, " << c.num_net_links()
                          << " links, " << c.num_pes() << " PEs");
    // 281 channel adapters in the dump (grep -c "^CA"), 5 without an hwloc
    // export; 25 switch chips; 425 cabled node pairs, less the 5 left out.
    CHECK(c.num_machines() == 276);
    CHECK(c.num_switches() == 25);
    CHECK(c.num_net_links() == 420);
    CHECK(c.num_pes() == 3464);
    CHECK(c.num_types() == 9);
    REQUIRE(a.issues.size() == 1);
    CHECK(a.issues[0].names == std::vector<std::string>{"avakas-master1", "avakas-master2",
                                                        "fhnode01", "fhnode02", "fhnode03"});
    // A two-level director: hosts 2 hops apart on one leaf chip, else 4.
    const HopDistribution d = machine_hop_distribution(c);
    CHECK(d.pairs_at_hops == std::vector<std::uint64_t>{0, 0, 4494, 0, 71406});
    CHECK(d.unreachable_pairs == 0);
    // Every host named in the fabric that has a file gets its real topology.
    for (std::uint32_t m = 0; m < c.num_machines(); ++m)
        CHECK_THAT(c.machine_type(MachineId(m)).description(), Contains("hwloc:"));
    CHECK(connected_components(c.network()).count == 1);
    // node179 and node177 hang off the same leaf chip (SW lid 18, GUID
    // 0x00066a00ec002dd9): host, leaf, host.
    CHECK(hops(c, "node179", "node177") == 2);
    // node213 is on leaf 0x00066a00ec002def; both leaves are cabled to the
    // same 9 spine chips (2 cables each): host, leaf, spine, leaf, host.
    CHECK(hops(c, "node179", "node213") == 4);
    const Link& trunk = link_between(c, c.vertex(*c.find_switch("S-00066a00ec002dd9")),
                                     c.vertex(*c.find_switch("S-00066a00eb002cb2")));
    CHECK(trunk.multiplicity == 2);
    CHECK(trunk.bandwidth_gbps == 32); // 4x QDR
    const Link& host_link = link_between(c, c.vertex(c.require_machine("node179")),
                                         c.vertex(*c.find_switch("S-00066a00ec002dd9")));
    CHECK(host_link.multiplicity == 1);
    CHECK(host_link.latency_ns == LinkClasses::defaults()[LinkClass::HostSwitch].latency_ns);
}

TEST_CASE("plafrim: 122 hosts of several families on Voltaire switches", "[real-clusters]") {
    if (!have_real_cluster("plafrim")) return;
    const Assembly a = assemble_real_cluster("plafrim");
    const Cluster& c = a.cluster;
    INFO(c.num_machines() << " machines, " << c.num_switches() << " switches, " << c.num_net_links()
                          << " links, " << c.num_pes() << " PEs, " << c.num_types() << " types");
    CHECK(c.num_machines() == 119);
    CHECK(c.num_switches() == 9);
    CHECK(c.num_net_links() == 131);
    CHECK(c.num_pes() == 1252);
    CHECK(c.num_types() == 17);
    CHECK(connected_components(c.network()).count == 1);
    REQUIRE(a.issues.size() == 2);
    CHECK(a.issues[0].names ==
          std::vector<std::string>{"mds01", "oss01", "oss02", "oss03", "oss04", "reine"});
    CHECK(a.issues[1].names == std::vector<std::string>{"fifi", "loulou", "riri"});
    // mirage001 and mirabelle001 are cabled to switch 0x0008f10500108c9e,
    // fourmi049 to 0x0008f1050010852c, and those two switches to each other
    // (one cable): 2 and 3 hops.
    CHECK(hops(c, "mirage001", "mirabelle001") == 2);
    CHECK(hops(c, "mirage001", "fourmi049") == 3);
    const HopDistribution d = machine_hop_distribution(c);
    CHECK(d.pairs_at_hops == std::vector<std::uint64_t>{0, 0, 2152, 1404, 4546, 3138, 1668, 1134});
}

TEST_CASE("assembly: hosts matched with the fabric by name", "[real-clusters]") {
    Fabric f;
    f.source = "fabric.txt";
    f.nodes = {
        {"sw0", true, "", 1}, {"a1", false, "", 2}, {"a2", false, "", 3}, {"a3", false, "", 4}};
    f.links = {{0, 1, 32, std::nullopt, 1, 2}, {0, 2, 32, 7.5, 2, 3}, {0, 3, 32, {}, 1, 4}};
    const MachineTree two = tree_from_synthetic("core:2 pu:1");
    std::vector<HostExport> hosts = {
        {"a2", two, "x/a2.xml"}, {"a1", two, "x/a1.xml"}, {"zz", two, "x/zz.xml"}};
    SECTION("matched, left out and stray hosts") {
        const Assembly a = assemble_cluster(hosts, &f, {});
        CHECK(a.cluster.num_machines() == 2);
        CHECK(a.cluster.machine_name(MachineId(0)) == "a1"); // natural order
        CHECK(a.cluster.num_types() == 1);                   // identical trees share a type
        REQUIRE(a.issues.size() == 2);
        CHECK(a.issues[0].summary() ==
              "1 host in the fabric without an hwloc export, left out: a3");
        CHECK(a.issues[0].remedy == Remedy::default_machine);
        CHECK(a.issues[0].summary("give a machine") ==
              "1 host in the fabric without an hwloc export, left out (give a machine): a3");
        CHECK_THAT(a.issues[1].summary(), Contains("zz"));
        CHECK(a.issues[1].remedy == Remedy::none);
        // the source's latency is kept, the default fills in
        const Link& l1 =
            link_between(a.cluster, a.cluster.vertex(MachineId(0)), a.cluster.vertex(SwitchId(0)));
        CHECK(l1.latency_ns == 200);
        const Link& l2 =
            link_between(a.cluster, a.cluster.vertex(MachineId(1)), a.cluster.vertex(SwitchId(0)));
        CHECK(l2.latency_ns == 7.5);
        CHECK(l2.multiplicity == 2);
    }
    SECTION("--default-machine fills in, --latency overrides the source") {
        AssembleOptions o;
        o.default_machine = "pack:1 core:4 pu:2";
        set_latency_override(o, "host-switch=42");
        const Assembly a = assemble_cluster(hosts, &f, o);
        CHECK(a.cluster.num_machines() == 3);
        CHECK(a.defaulted_hosts == std::vector<std::string>{"a3"});
        CHECK(a.cluster.machine_type(a.cluster.require_machine("a3")).num_pus() == 8);
        for (const Link& l : a.cluster.network().links()) CHECK(l.latency_ns == 42);
        REQUIRE(a.issues.size() == 1); // only the stray export
    }
    SECTION("--strict makes mismatches errors") {
        AssembleOptions o;
        o.strict = true;
        try {
            assemble_cluster(hosts, &f, o);
            FAIL("a strict assembly accepted mismatches");
        } catch (const AssemblyMismatchError& e) {
            CHECK(e.issues().size() == 2);
            CHECK_THAT(e.what(), StartsWith("the sources disagree; 1 host in the fabric without "
                                            "an hwloc export, left out: a3; "));
        }
    }
    SECTION("--hosts-only puts every host on one switch") {
        AssembleOptions o;
        o.hosts_only = true;
        const Assembly a = assemble_cluster(hosts, nullptr, o);
        CHECK(a.cluster.num_machines() == 3);
        CHECK(a.cluster.num_switches() == 1);
        CHECK(a.cluster.switch_name(SwitchId(0)) == "flat");
        CHECK(a.issues.empty());
    }
    SECTION("contradictory requests") {
        CHECK_THROWS_AS(assemble_cluster(hosts, nullptr, {}), UsageError);
        AssembleOptions o;
        o.hosts_only = true;
        CHECK_THROWS_AS(assemble_cluster(hosts, &f, o), UsageError);
        CHECK_THROWS_AS(assemble_from_files({{}, {"a.txt"}, "b.conf"}, {}), UsageError);
        CHECK_THROWS_WITH(set_latency_override(o, "local=5"),
                          StartsWith("'local=5': discovered fabrics have host-switch and "
                                     "switch-switch links only"));
    }
    SECTION("no machine left: the remedy is data") {
        try {
            assemble_cluster({}, &f, {});
            FAIL("an empty assembly was accepted");
        } catch (const UsageError& e) {
            CHECK(e.remedy() == Remedy::hosts_or_default_machine);
        }
    }
    SECTION("a fabric of switches only is bad data naming its file, whatever the options") {
        // Finding F1: it was a UsageError, without the file, suggesting a
        // default machine even when one was given.
        Fabric switches;
        switches.source = "switches.txt";
        switches.nodes = {{"sw0", true, "", 1}, {"sw1", true, "", 2}};
        switches.links = {{0, 1, 32, {}, 1, 1}};
        AssembleOptions o;
        o.default_machine = "pu:1";
        for (const AssembleOptions& options : {AssembleOptions{}, o}) {
            try {
                assemble_cluster({}, &switches, options);
                FAIL("a fabric without hosts was accepted");
            } catch (const UsageError&) {
                FAIL("a fabric without hosts is bad usage");
            } catch (const InputError& e) {
                CHECK(std::string(e.what()) ==
                      "switches.txt: the fabric has 2 switches and no host: no machine to "
                      "assemble");
                CHECK(e.remedy() == Remedy::none);
            }
        }
    }
    SECTION("cables one end reported are a mismatch: a warning, an error when strict") {
        // Finding F3: a truncated dump was accepted silently.
        f.one_ended_cables = {"sw0[3]", "a1[1]"};
        const Assembly a = assemble_cluster(hosts, &f, {});
        REQUIRE(a.issues.size() == 3);
        CHECK(a.issues[2].summary() ==
              "2 cables of fabric.txt reported by one end only (ibnetdiscover reports both: the "
              "dump looks cut short, links may be missing): a1[1],sw0[3]");
        AssembleOptions strict;
        strict.strict = true;
        CHECK_THROWS_WITH(assemble_cluster(hosts, &f, strict),
                          Contains("2 cables of fabric.txt reported by one end only"));
    }
    SECTION("a disconnected result is refused, or reported by the check") {
        f.nodes.push_back({"sw1", true, "", 5});
        f.nodes.push_back({"a4", false, "", 6});
        f.links.push_back({4, 5, 0, {}, 1, 6});
        hosts.push_back({"a4", two, "x/a4.xml"});
        // The message names the fabric's files (finding F2), the remedy is kept.
        try {
            assemble_cluster(hosts, &f, {});
            FAIL("a disconnected assembly was accepted");
        } catch (const InputError& e) {
            CHECK_THAT(e.what(), StartsWith("fabric.txt: the network is not connected"));
            CHECK(e.remedy() == Remedy::allow_disconnected);
        }
        f.merged_sources = {"second.txt"};
        CHECK_THROWS_WITH(assemble_cluster(hosts, &f, {}),
                          StartsWith("fabric.txt, second.txt: the network is not connected"));
        AssembleOptions o;
        o.build.allow_disconnected = true;
        const Assembly a = assemble_cluster(hosts, &f, o);
        const CheckReport r = check_assembly(a, false);
        CHECK_FALSE(r.ok());
        CHECK(r.hops.unreachable_pairs == 4); // a4 <-> a1 and a4 <-> a2, both ways
        CHECK(check_assembly(a, true).num_problems() == a.issues.size());
        CHECK(check_assembly(a, true).issues.size() == a.issues.size());
    }
}

TEST_CASE("assembly: short names match fully qualified ones, ambiguity is reported",
          "[real-clusters]") {
    Fabric f;
    f.source = "fabric.txt";
    f.nodes = {{"sw0", true, "", 1},   {"a1.cluster.local", false, "", 2},
               {"a2", false, "", 3},   {"b1", false, "", 4},
               {"c1.x", false, "", 5}, {"c1.y", false, "", 6},
               {"d1", false, "", 7},   {"d1.x", false, "", 8}};
    for (std::uint32_t n = 1; n < f.nodes.size(); ++n) f.links.push_back({0, n, 32, {}, 1, n + 1});
    const MachineTree two = tree_from_synthetic("core:2 pu:1");
    const std::vector<HostExport> hosts = {
        {"a1", two, "x/a1.xml"},     {"a2.cluster.local", two, "x/a2.cluster.local.xml"},
        {"b1.x", two, "x/b1.x.xml"}, {"b1.y", two, "x/b1.y.xml"},
        {"c1", two, "x/c1.xml"},     {"d1", two, "x/d1.xml"}};
    const Assembly a = assemble_cluster(hosts, &f, {});
    // Named as the fabric names them.
    CHECK(a.cluster.num_machines() == 3);
    CHECK(a.cluster.machine_name(MachineId(0)) == "a1.cluster.local");
    CHECK(a.cluster.machine_name(MachineId(1)) == "a2");
    CHECK(a.cluster.machine_name(MachineId(2)) == "d1"); // exactly; d1.x matches it loosely
    REQUIRE(a.issues.size() == 2);
    CHECK(a.issues[0].summary() ==
          "4 hosts in the fabric whose short or fully qualified name matches several hwloc "
          "exports, or an export another host matches, left out: b1,c1.x,c1.y,d1.x");
    CHECK(a.issues[1].names == std::vector<std::string>{"b1.x", "b1.y", "c1"});
}

TEST_CASE("assembly: plafrim's exports under fully qualified names", "[real-clusters]") {
    // The real exports copied as HOST.plafrim.local.xml and named after their
    // files: the same cluster as plafrim's own names give.
    if (!have_real_cluster("plafrim")) return;
    const TempDir tmp("nettopo-fqdn-");
    for (const auto& e :
         std::filesystem::directory_iterator(real_cluster_dir("plafrim") + "/hwloc"))
        std::filesystem::copy_file(e.path(),
                                   tmp.path / (e.path().stem().string() + ".plafrim.local.xml"));
    AssembleOptions o;
    o.host_naming = HostNaming::file_name;
    ClusterSources s;
    s.hosts = {tmp.path.string()};
    s.ibnetdiscover = {real_cluster_dir("plafrim") + "/ib-subnet-0.txt"};
    const Assembly fqdn = assemble_from_files(s, o);
    const Assembly plain = assemble_real_cluster("plafrim");
    CHECK(fqdn.cluster.num_machines() == plain.cluster.num_machines());
    CHECK(fqdn.cluster.num_pes() == plain.cluster.num_pes());
    CHECK(fqdn.cluster.num_types() == plain.cluster.num_types());
    for (std::uint32_t m = 0; m < plain.cluster.num_machines(); ++m)
        CHECK(fqdn.cluster.machine_name(MachineId(m)) == plain.cluster.machine_name(MachineId(m)));
    REQUIRE(fqdn.issues.size() == plain.issues.size());
    CHECK(fqdn.issues[0].names == plain.issues[0].names);
    CHECK(fqdn.issues[1].names == std::vector<std::string>{"fifi.plafrim.local",
                                                           "loulou.plafrim.local",
                                                           "riri.plafrim.local"});
    // dancharia's mlx4_0 is an Ethernet (RoCE) port, in no InfiniBand
    // subnet: the one note, whatever the exports are called.
    REQUIRE(fqdn.notes.size() == 1);
    CHECK(fqdn.notes[0].names == std::vector<std::string>{"dancharia:mlx4_0"});
}

TEST_CASE("assembly: restricted and renamed exports are notes, not mismatches", "[real-clusters]") {
    const std::string hagrid = NETTOPO_SHARED_DATA "/hwloc-xml/hagrid-restricted.xml";
    if (!have_real_cluster("avakas")) return;
    const TempDir tmp("nettopo-notes-");
    std::filesystem::copy_file(hagrid, tmp.path / "hagrid.xml");
    for (const char* name : {"node001.xml", "node002.xml"})
        std::filesystem::copy_file(real_cluster_dir("avakas") + "/hwloc/node001.xml",
                                   tmp.path / name);
    ClusterSources s;
    s.hosts = {tmp.path.string()};
    AssembleOptions o;
    o.hosts_only = true;
    o.strict = true; // notes are not mismatches
    const Assembly a = assemble_from_files(s, o);
    CHECK(a.issues.empty());
    REQUIRE(a.notes.size() == 2);
    CHECK(a.notes[0].summary() ==
          "1 hwloc export restricted to a job's PUs, modelled whole: hagrid");
    CHECK(a.notes[0].remedy == Remedy::allowed_only);
    CHECK(a.notes[1].summary() == "2 hwloc exports claiming a HostName another export claims "
                                  "too, named after their files: node[001-002]");
    CHECK(a.notes[1].remedy == Remedy::host_naming);
    CHECK(a.cluster.machine_type(a.cluster.require_machine("hagrid")).num_pus() == 8);
    CHECK(check_assembly(a, false).notes.size() == 2);
    o.pu_scope = PuScope::allowed_only;
    const Assembly allowed = assemble_from_files(s, o);
    CHECK(allowed.cluster.machine_type(allowed.cluster.require_machine("hagrid")).num_pus() == 6);
    CHECK(allowed.notes[0].remedy == Remedy::none);
}

TEST_CASE("assembly: names no hostlist can hold are listed plainly", "[real-clusters]") {
    const AssemblyIssue issue{"host", "left out", {"odd,name", "b[1"}};
    CHECK(issue.summary() == "2 hosts left out: odd,name,b[1");
}

TEST_CASE("assembly: hosts of a fabric are end hosts, which carry no traffic", "[real-clusters]") {
    // Two switches joined only through h, a host with an adapter on each.
    Fabric f;
    f.source = "fabric.txt";
    f.nodes = {{"sw0", true, "", 1},
               {"sw1", true, "", 2},
               {"a1", false, "", 3},
               {"a2", false, "", 4},
               {"h", false, "", 5}};
    f.links = {
        {0, 2, 32, {}, 1, 3}, {1, 3, 32, {}, 1, 4}, {0, 4, 32, {}, 1, 5}, {1, 4, 32, {}, 1, 6}};
    const MachineTree one = tree_from_synthetic("core:1 pu:1");
    const std::vector<HostExport> hosts = {
        {"a1", one, "x/a1.xml"}, {"a2", one, "x/a2.xml"}, {"h", one, "x/h.xml"}};
    // Cabled together, but a1 reaches a2 only through h: not connected.
    try {
        assemble_cluster(hosts, &f, {});
        FAIL("accepted");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Contains("'a1' cannot reach 'a2'"));
    }
    AssembleOptions o;
    o.build.allow_disconnected = true;
    const Assembly a = assemble_cluster(hosts, &f, o);
    const Network& net = a.cluster.network();
    CHECK(net.num_end_hosts() == 3);
    CHECK(connected_components(net).count == 1);
    CHECK(hops(a.cluster, "h", "a2") == 2);
    const CheckReport r = check_assembly(a, false);
    REQUIRE(r.problems.size() == 1);
    CHECK_THAT(r.problems[0], Contains("'a1' cannot reach 'a2'"));
    CHECK(r.hops.unreachable_pairs == 2);
    CHECK(check_assembly(a, true).problems.empty());
    // The flat star of --hosts-only: end hosts too.
    AssembleOptions flat;
    flat.hosts_only = true;
    CHECK(assemble_cluster(hosts, nullptr, flat).cluster.network().num_end_hosts() == 3);
}

TEST_CASE("a Quantum fabric: SHARP aggregation nodes are a note, not machines", "[real-clusters]") {
    const std::string path =
        std::string(NETTOPO_SHARED_DATA) + "/fabrics/dgx-superpod-small.ibnetdiscover";
    if (!std::filesystem::exists(path)) {
        WARN("skipped: no " << path);
        return;
    }
    ClusterSources s;
    s.ibnetdiscover = {path};
    AssembleOptions o;
    o.default_machine = "pu:1";
    const Assembly a = assemble_from_files(s, o);
    // grep -c '^Ca' gives 8 adapters: 4 "Mellanox Technologies Aggregation
    // Node" (one per switch, port 37) and 4 hosts (Host2_1..3, l-csi-r750-05).
    CHECK(a.cluster.num_machines() == 4);
    CHECK(a.cluster.num_switches() == 4);
    CHECK(a.issues.empty());
    REQUIRE(a.notes.size() == 1);
    CHECK(a.notes[0].summary() ==
          "4 SHARP aggregation nodes left out of the hosts, as adapters of their switches: "
          "H-248a0703005bc7c8,H-7cfe900300ac2d58,H-7cfe900300b1dff8,H-bbbbbbbbbbbbbbbb");
    // Host2_1 and l-csi-r750-05: Host2_1's switch S-2222... is cabled to
    // S-3333... which is cabled to S-4444... (l-csi-r750-05's): 4 hops.
    CHECK(hops(a.cluster, "Host2_1", "l-csi-r750-05") == 4);
    CHECK_THROWS_AS(assemble_from_files({{}, {}, "", "map.txt"}, o), UsageError);
}

TEST_CASE("assembly: a truncated export is left out unless strict", "[real-clusters]") {
    // plafrim's real exports copied, one of them cut at 3000 bytes (as a copy
    // interrupted, or a disk full while exporting): the others still make the
    // cluster, the cut one is an issue naming its file and line, and its host
    // is one of those without an export (or takes the default machine).
    if (!have_real_cluster("plafrim")) return;
    const TempDir tmp("nettopo-truncated-");
    for (const auto& e :
         std::filesystem::directory_iterator(real_cluster_dir("plafrim") + "/hwloc"))
        std::filesystem::copy_file(e.path(), tmp.path / e.path().filename());
    {
        std::string text = test::read_file(tmp / "bonobo005.xml");
        REQUIRE(text.size() > 3000);
        std::ofstream(tmp / "bonobo005.xml", std::ios::trunc) << text.substr(0, 3000);
    }
    ClusterSources s;
    s.hosts = {tmp.path.string()};
    s.ibnetdiscover = {real_cluster_dir("plafrim") + "/ib-subnet-0.txt"};
    const Assembly whole = assemble_real_cluster("plafrim");
    const Assembly a = assemble_from_files(s, {});
    CHECK(a.cluster.num_machines() == whole.cluster.num_machines() - 1);
    CHECK_FALSE(a.cluster.find_machine("bonobo005"));
    REQUIRE(a.issues.size() == 3);
    CHECK(a.issues[0].names.front() == "bonobo005"); // now without an export
    CHECK(a.issues[2].names == std::vector<std::string>{"bonobo005"});
    CHECK_THAT(a.issues[2].what,
               Catch::Contains("that does not read, left out (" + (tmp / "bonobo005.xml") + ":"));
    CHECK_THAT(a.issues[2].what, Catch::Contains("malformed XML"));

    AssembleOptions defaulted;
    defaulted.default_machine = "pu:1";
    const Assembly d = assemble_from_files(s, defaulted);
    CHECK(d.cluster.find_machine("bonobo005"));
    CHECK(std::find(d.defaulted_hosts.begin(), d.defaulted_hosts.end(), "bonobo005") !=
          d.defaulted_hosts.end());

    AssembleOptions strict;
    strict.strict = true;
    try {
        assemble_from_files(s, strict);
        FAIL("a truncated export was accepted under strict");
    } catch (const InputError& e) {
        CHECK(e.file() == tmp / "bonobo005.xml");
        CHECK(e.line() > 0);
    }
}
