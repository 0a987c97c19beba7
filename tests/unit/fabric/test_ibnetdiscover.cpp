// read_ibnetdiscover: the real dumps of ../shared/data/clusters (ports report
// of ibnetdiscover -p), the same small fabric in both formats, and malformed
// inputs, each rejected at the right line.
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Contains;

namespace {

Fabric parse(const std::string& text, const std::string& source = "t.txt") {
    std::istringstream in(text);
    return read_ibnetdiscover(in, source);
}

Fabric parse_file(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    return read_ibnetdiscover(in, path);
}

std::string test_data(const std::string& name) {
    return std::string(NETTOPO_TEST_DATA) + "/ibnetdiscover/" + name;
}

const FabricNode* node(const Fabric& f, const std::string& name) {
    for (const FabricNode& n : f.nodes)
        if (n.name == name) return &n;
    return nullptr;
}

const FabricLink* link(const Fabric& f, const std::string& x, const std::string& y) {
    for (const FabricLink& l : f.links) {
        const std::string& a = f.nodes[l.a].name;
        const std::string& b = f.nodes[l.b].name;
        if ((a == x && b == y) || (a == y && b == x)) return &l;
    }
    return nullptr;
}

std::uint32_t total_multiplicity(const Fabric& f) {
    std::uint32_t m = 0;
    for (const FabricLink& l : f.links) m += l.multiplicity;
    return m;
}

std::size_t count_switches(const Fabric& f) {
    return static_cast<std::size_t>(std::count_if(f.nodes.begin(), f.nodes.end(),
                                                  [](const FabricNode& n) { return n.is_switch; }));
}

// What a Fabric says, whatever the order of nodes and links and the lines:
// equal for two formats of one fabric.
std::vector<std::string> content(const Fabric& f) {
    std::vector<std::string> out;
    for (const FabricNode& n : f.nodes)
        out.push_back(
            fmt::format("node {} {} '{}'", n.name, n.is_switch ? "switch" : "host", n.description));
    for (const FabricLink& l : f.links) {
        std::string a = f.nodes[l.a].name, b = f.nodes[l.b].name;
        if (b < a) std::swap(a, b);
        out.push_back(fmt::format("link {} {} {} x{}", a, b, l.bandwidth_gbps, l.multiplicity));
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The error of parsing text, which must be an InputError at this line of t.txt.
std::string error_at(const std::string& text, std::size_t line) {
    try {
        parse(text);
    } catch (const InputError& e) {
        INFO(e.what());
        CHECK(e.line() == line);
        CHECK_THAT(e.what(), Contains(fmt::format("t.txt:{}:", line)));
        return e.what();
    }
    FAIL("no InputError for:\n" << text);
    return {};
}

// Every connected line of a -p report ("T lid port 0xguid w s - T lid port
// 0xguid ( 'd1' - 'd2' )"), read here independently of the reader: the two
// node names (S-<guid> or the first word of the description).
std::vector<std::pair<std::string, std::string>> report_links(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::pair<std::string, std::string>> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("DR path") || line.find(" - ") == std::string::npos) continue;
        std::istringstream ts(line);
        std::string t1, lid1, p1, g1, w, s, dash, t2, lid2, p2, g2;
        ts >> t1 >> lid1 >> p1 >> g1 >> w >> s >> dash >> t2 >> lid2 >> p2 >> g2;
        const std::size_t q1 = line.find('\''), q2 = line.find('\'', q1 + 1);
        const std::size_t q3 = line.find('\'', q2 + 1), q4 = line.find('\'', q3 + 1);
        const auto name = [](const std::string& t, const std::string& g, const std::string& d) {
            return t == "SW" ? fmt::format("S-{}", g.substr(2)) : d.substr(0, d.find(' '));
        };
        out.emplace_back(name(t1, g1, line.substr(q1 + 1, q2 - q1 - 1)),
                         name(t2, g2, line.substr(q3 + 1, q4 - q3 - 1)));
    }
    return out;
}

void every_report_line_is_a_link(const Fabric& f, const std::string& path) {
    const auto lines = report_links(path);
    REQUIRE(!lines.empty());
    for (const auto& [a, b] : lines) {
        INFO(a << " - " << b);
        CHECK(link(f, a, b) != nullptr);
    }
}

} // namespace

// Numbers checked by hand on the dumps, with D the dump without its trace
// lines, i.e. D = `grep -v '^DR path' ib-subnet-0.txt`, and C its connected
// port lines, C = `grep -v '^DR path' ib-subnet-0.txt | grep ' - '`:
//  - physical links (pairs of (guid, port) ends), and how many are seen from
//    one end only:
//      C | awk '{a=$4":"$3; b=$11":"$10; k=(a<b)?a" "b:b" "a; c[k]++}
//               END{for(k in c){n++; if(c[k]==1) one++}; print n, one+0}'
//    avakas: 569 0 (1138 connected lines), plafrim: 201 0 (402 lines)
//  - switches: C | awk '$1=="SW"{print $4} $8=="SW"{print $11}' | sort -u | wc -l
//    avakas 25, plafrim 9 (the unconnected-port lines, D | grep -v ' - ',
//    name no other node: checked with comm against the connected ones)
//  - hosts, node pairs (links) and cables per pair, with names as the reader
//    makes them (S-<guid>, first word of a CA description):
//      C | awk -F"'" '{split($0,t," "); split($2,w1," "); split($4,w2," ");
//        n1=(t[1]=="SW")?"S-"substr(t[4],3):w1[1]; n2=(t[8]=="SW")?"S-"substr(t[11],3):w2[1];
//        if(t[1]=="CA")h[n1]=1; if(t[8]=="CA")h[n2]=1; a=t[4]":"t[3]; b=t[11]":"t[10];
//        k=(a<b)?a" "b:b" "a; if(!(k in s)){s[k]=1; p=(n1<n2)?n1" "n2:n2" "n1; m[p]++}}
//        END{for(x in h)nh++; for(p in m){np++; tot+=m[p]}; print nh, np, tot}'
//    avakas: 281 hosts, 425 links, 569 cables; plafrim: 125 hosts, 137 links, 201 cables
//    (no host has two HCAs in either dump: the CA descriptions are all distinct)
//  - the speeds: C | awk '{print $5, $6}' | sort | uniq -c
TEST_CASE("ibnetdiscover: the avakas dump", "[ibnetdiscover]") {
    const std::string path = std::string(NETTOPO_SHARED_DATA) + "/clusters/avakas/ib-subnet-0.txt";
    if (!std::filesystem::exists(path)) {
        WARN("skipped: no " << path);
        return;
    }
    const Fabric f = parse_file(path);
    CHECK(f.source == path);
    CHECK(count_switches(f) == 25);
    CHECK(f.nodes.size() - count_switches(f) == 281);
    CHECK(f.links.size() == 425);
    CHECK(total_multiplicity(f) == 569);
    // grep -n "node179 HCA" ib-subnet-0.txt: lines 835 and 1116, 4x QDR to
    // SW 0x00066a00ec002dd9 port 18; line 835 is the first mention of both.
    const FabricLink* l = link(f, "node179", "S-00066a00ec002dd9");
    REQUIRE(l);
    CHECK(l->bandwidth_gbps == 32);
    CHECK(l->multiplicity == 1);
    CHECK(l->line == 835);
    const FabricNode* n = node(f, "node179");
    REQUIRE(n);
    CHECK(!n->is_switch);
    CHECK(n->description == "node179 HCA-1");
    CHECK(n->line == 835);
    const FabricNode* sw = node(f, "S-00066a00ec002dd9");
    REQUIRE(sw);
    CHECK(sw->is_switch);
    CHECK(sw->description == "QLogic 12800-180 GUID=0x00066a00e8001310 L112");
    // C | awk '$4=="0x00066a00eb002cd9" && $11=="0x00066a00ec002da5"' | wc -l: 2
    // (ports 17 and 14 of the spine S205B to ports 36 and 33 of the leaf L116)
    const FabricLink* trunk = link(f, "S-00066a00eb002cd9", "S-00066a00ec002da5");
    REQUIRE(trunk);
    CHECK(trunk->multiplicity == 2);
    CHECK(trunk->bandwidth_gbps == 32);
    // C | grep DDR: node008 alone is 4x DDR (16 Gbit/s), on port 6 of S-00066a00ec002e04.
    const FabricLink* ddr = link(f, "node008", "S-00066a00ec002e04");
    REQUIRE(ddr);
    CHECK(ddr->bandwidth_gbps == 16);
    every_report_line_is_a_link(f, path);
}

TEST_CASE("ibnetdiscover: the plafrim dump", "[ibnetdiscover]") {
    const std::string path = std::string(NETTOPO_SHARED_DATA) + "/clusters/plafrim/ib-subnet-0.txt";
    if (!std::filesystem::exists(path)) {
        WARN("skipped: no " << path);
        return;
    }
    const Fabric f = parse_file(path);
    CHECK(count_switches(f) == 9);
    CHECK(f.nodes.size() - count_switches(f) == 125);
    CHECK(f.links.size() == 137);
    CHECK(total_multiplicity(f) == 201);
    // C | awk '$4=="0x0008f105001084fa" && $11=="0x0008f10500108548"' | wc -l: 9,
    // all 4x QDR (and 9 more lines the other way round).
    const FabricLink* trunk = link(f, "S-0008f105001084fa", "S-0008f10500108548");
    REQUIRE(trunk);
    CHECK(trunk->multiplicity == 9);
    CHECK(trunk->bandwidth_gbps == 32);
    // C | awk '$4=="0x0008f10500108500" && $11=="0x0008f10500108524"': 9 cables,
    // port 7 runs at 4x SDR, the 8 others at 4x QDR: the lowest speed is kept.
    const FabricLink* slow = link(f, "S-0008f10500108500", "S-0008f10500108524");
    REQUIRE(slow);
    CHECK(slow->multiplicity == 9);
    CHECK(slow->bandwidth_gbps == 8);
    // C | grep dancharia: 'dancharia HCA-2', 4x DDR on port 27 of S-0008f10500108c9e.
    const FabricLink* ddr = link(f, "dancharia", "S-0008f10500108c9e");
    REQUIRE(ddr);
    CHECK(ddr->bandwidth_gbps == 16);
    CHECK(node(f, "dancharia")->description == "dancharia HCA-2");
    // C | grep "oss01 HCA": 4x SDR (8 Gbit/s) on port 22 of S-0002c9020040b0e0.
    const FabricLink* sdr = link(f, "oss01", "S-0002c9020040b0e0");
    REQUIRE(sdr);
    CHECK(sdr->bandwidth_gbps == 8);
    CHECK(node(f, "S-0002c9020040b0e0")->description == "Infiniscale-IV Mellanox Technologies");
    every_report_line_is_a_link(f, path);
}

TEST_CASE("ibnetdiscover: one small fabric in both formats", "[ibnetdiscover]") {
    const Fabric topo = parse_file(test_data("small-topology.txt"));
    const Fabric ports = parse_file(test_data("small-ports.txt"));
    CHECK(content(topo) == content(ports));
    for (const Fabric* f : {&topo, &ports}) {
        INFO(f->source);
        CHECK(f->nodes.size() == 5);
        CHECK(count_switches(*f) == 2);
        CHECK(f->links.size() == 5);
        CHECK(total_multiplicity(*f) == 6);
        const FabricLink* trunk = link(*f, "S-0008f105001094d2", "S-0002c90300a1b2c0");
        REQUIRE(trunk);
        CHECK(trunk->multiplicity == 2);
        CHECK(trunk->bandwidth_gbps == 32);
        // node03 has two HCAs, one on each switch: one host, both links.
        REQUIRE(node(*f, "node03"));
        CHECK(node(*f, "node03")->description == "node03 HCA-2");
        REQUIRE(link(*f, "node03", "S-0008f105001094d2"));
        REQUIRE(link(*f, "node03", "S-0002c90300a1b2c0"));
        CHECK(link(*f, "node03", "S-0002c90300a1b2c0")->bandwidth_gbps == Approx(4 * 13.64));
        CHECK(link(*f, "node01", "S-0008f105001094d2")->bandwidth_gbps == 32);
        REQUIRE(node(*f, "S-0002c90300a1b2c0"));
        CHECK(node(*f, "S-0002c90300a1b2c0")->description == "MF0;switch-b:SX6036/U1");
        CHECK(node(*f, "S-0008f105001094d2")->description == "Voltaire 4036 # v4036-A");
    }
    // Where each is first declared: the first switch block (line 16) and the
    // port line that first names node03 (line 19) in the topology file; the
    // first CA line in the report.
    CHECK(node(topo, "S-0008f105001094d2")->line == 16);
    CHECK(node(topo, "node03")->line == 19);
    CHECK(link(topo, "S-0008f105001094d2", "S-0002c90300a1b2c0")->line == 20);
    CHECK(node(ports, "node01")->line == 12);
    CHECK(link(ports, "S-0008f105001094d2", "S-0002c90300a1b2c0")->line == 13);
}

TEST_CASE("ibnetdiscover: details of both formats", "[ibnetdiscover]") {
    SECTION("a link reported by one end only is kept") {
        const Fabric f = parse("SW 1 3 0x0000000000000001 4x EDR - CA 5 1 0x00000000000000a1 "
                               "( 'sw one' - 'hostA mlx5_0' )\n");
        REQUIRE(f.nodes.size() == 2);
        REQUIRE(f.links.size() == 1);
        CHECK(f.links[0].bandwidth_gbps == 100);
        CHECK(f.nodes[0].name == "S-0000000000000001");
        CHECK(f.nodes[1].name == "hostA");
        CHECK(f.nodes[1].description == "hostA mlx5_0");
    }
    SECTION("a CA without a description is named H-<guid>, unknown speeds give 0") {
        const Fabric f = parse("SW 1 3 0x00000000000000FF ?? ??? - CA 5 1 0x00000000000000a1 "
                               "( 'sw' - '' )\r\n"
                               "CA 5 1 0x00000000000000a1 ?? ??? - SW 1 3 0x00000000000000ff "
                               "( '' - 'sw' )\r\n");
        REQUIRE(f.nodes.size() == 2);
        CHECK(f.nodes[1].name == "H-00000000000000a1");
        CHECK(f.nodes[1].description.empty());
        REQUIRE(f.links.size() == 1);
        CHECK(f.links[0].bandwidth_gbps == 0);
    }
    SECTION("the known speed of one end replaces the unknown one of the other") {
        const Fabric f = parse("SW 1 3 0x01 4x ??? - SW 2 4 0x02 ( 'a' - 'b' )\n"
                               "SW 2 4 0x02 12x HDR - SW 1 3 0x01 ( 'b' - 'a' )\n");
        REQUIRE(f.links.size() == 1);
        CHECK(f.links[0].bandwidth_gbps == 600);
    }
    SECTION("widths and speeds") {
        const auto gbps = [](const std::string& ws) {
            const Fabric f = parse(fmt::format("SW 1 1 0x01 {} - SW 2 1 0x02 ( 'a' - 'b' )", ws));
            return f.links.at(0).bandwidth_gbps;
        };
        CHECK(gbps("1x SDR") == 2);
        CHECK(gbps("2x DDR") == 8);
        CHECK(gbps("4x FDR10") == 40);
        CHECK(gbps("8x NDR") == 800);
        CHECK(gbps("12x XDR") == 2400);
        CHECK(gbps("4x FDR") == Approx(54.56));
    }
    SECTION("parallel cables of different speeds: the lowest") {
        const Fabric f = parse("SW 1 1 0x01 4x EDR - SW 2 1 0x02 ( 'a' - 'b' )\n"
                               "SW 1 2 0x01 4x HDR - SW 2 2 0x02 ( 'a' - 'b' )\n"
                               "SW 1 3 0x01 4x FDR - SW 2 3 0x02 ( 'a' - 'b' )\n");
        REQUIRE(f.links.size() == 1);
        CHECK(f.links[0].multiplicity == 3);
        CHECK(f.links[0].bandwidth_gbps == Approx(54.56));
    }
    SECTION("routers are switches named R-<guid>; grouping lines are skipped") {
        const Fabric f =
            parse("Chassis 1 (guid 0x8f105001094d2)\n"
                  "\n"
                  "# Spine Nodes\n"
                  "vendid=0x2c9\n"
                  "rtguid=0x10\n"
                  "Rt\t2 \"R-0000000000000010\"\t\t# \"router r1\"\n"
                  "[1](11) \t\"S-0000000000000020\"[7][ext 3]\t\t# lid 3 lmc 0 \"leaf\" "
                  "lid 9 4xHDR s=4 w=2 v=4\n"
                  "Non-Chassis Nodes\n"
                  "Hostname: gw\n");
        REQUIRE(f.nodes.size() == 2);
        CHECK(f.nodes[0].name == "R-0000000000000010");
        CHECK(f.nodes[0].is_switch);
        CHECK(f.nodes[0].description == "router r1");
        CHECK(f.nodes[1].name == "S-0000000000000020");
        CHECK(f.nodes[1].description == "leaf");
        REQUIRE(f.links.size() == 1);
        CHECK(f.links[0].bandwidth_gbps == 200);
    }
    SECTION("a description with quotes and the words the format uses") {
        const Fabric f =
            parse("Switch\t36 \"S-0000000000000001\"\t\t# \"top \"lid 4\" base port 0\" "
                  "base port 0 lid 1 lmc 0\n"
                  "[2]\t\"H-0000000000000002\"[1](3) \t\t# \"n7 \"x\" lid 2 4xQDR\" lid "
                  "5 4xQDR\n");
        REQUIRE(f.nodes.size() == 2);
        CHECK(f.nodes[0].description == "top \"lid 4\" base port 0");
        CHECK(f.nodes[1].name == "n7");
        CHECK(f.nodes[1].description == "n7 \"x\" lid 2 4xQDR");
        CHECK(f.links.at(0).bandwidth_gbps == 32);
    }
    SECTION("a cable looped back to its own node is dropped") {
        const Fabric f = parse("SW 1 1 0x01 4x QDR - SW 1 2 0x01 ( 'a' - 'a' )\n"
                               "SW 1 3 0x01 4x QDR - SW 2 1 0x02 ( 'a' - 'b' )\n");
        CHECK(f.nodes.size() == 2);
        CHECK(f.links.size() == 1);
    }
    SECTION("a 100k-line dump: every cable once") {
        // 10 leaf switches of 36 ports: 18 hosts and 18 uplinks each, to 18
        // spines, every link reported from both ends: 10*36*2 lines per round.
        std::string text;
        std::size_t lines = 0;
        for (int round = 0; lines < 100000; ++round) {
            for (int leaf = 0; leaf < 10; ++leaf) {
                const unsigned lg = 0x1000 + round * 100 + leaf;
                for (int p = 1; p <= 18; ++p) {
                    const unsigned hg = 0x100000 + round * 1000 + leaf * 20 + p;
                    const std::string h = fmt::format("h{}-{}-{}", round, leaf, p);
                    text += fmt::format("SW 1 {} 0x{:016x} 4x EDR - CA 2 1 0x{:016x} ( 'leaf' - "
                                        "'{} HCA-1' )\n",
                                        p, lg, hg, h);
                    text += fmt::format("CA 2 1 0x{:016x} 4x EDR - SW 1 {} 0x{:016x} ( '{} "
                                        "HCA-1' - 'leaf' )\n",
                                        hg, p, lg, h);
                    const unsigned sg = 0x9000 + round * 100 + p;
                    text += fmt::format("SW 1 {} 0x{:016x} 4x EDR - SW 3 {} 0x{:016x} ( 'leaf' - "
                                        "'spine' )\n",
                                        18 + p, lg, leaf + 1, sg);
                    text += fmt::format("SW 3 {} 0x{:016x} 4x EDR - SW 1 {} 0x{:016x} ( 'spine' - "
                                        "'leaf' )\n",
                                        leaf + 1, sg, 18 + p, lg);
                    lines += 4;
                }
            }
        }
        // Timing is the benchmarks' business, not a unit test's: here only
        // that every cable of a large dump is kept once.
        const Fabric f = parse(text);
        CHECK(f.links.size() == lines / 2);
        CHECK(f.nodes.size() == lines / 4 + lines / 4 / 18 / 10 * (10 + 18));
    }
}

TEST_CASE("ibnetdiscover: malformed inputs", "[ibnetdiscover]") {
    const std::string ok = "SW 1 1 0x01 4x QDR - SW 2 1 0x02 ( 'a' - 'b' )\n";
    SECTION("ports report") {
        CHECK_THAT(error_at(ok + "Switch 36 \"S-01\"\n", 2), Contains("unrecognised line"));
        CHECK_THAT(error_at(ok + "\nSW 1 2 0x0g 4x QDR - SW 2 2 0x02 ( 'a' - 'b' )\n", 3),
                   Contains("bad GUID '0x0g'"));
        CHECK_THAT(
            error_at(ok + "SW 1 2 0x01 4x QDR - SW 2 2 0x12345678901234567 ( 'a' - 'b' )\n", 2),
            Contains("bad GUID"));
        CHECK_THAT(error_at(ok + "SW 1 0 0x01 4x QDR - SW 2 2 0x02 ( 'a' - 'b' )\n", 2),
                   Contains("bad port number '0'"));
        CHECK_THAT(error_at(ok + "SW 1 2 0x01 4x QDR - SW 2 x 0x02 ( 'a' - 'b' )\n", 2),
                   Contains("bad port number 'x'"));
        CHECK_THAT(error_at(ok + "SW 1 2 0x01 4x QXR - SW 2 2 0x02 ( 'a' - 'b' )\n", 2),
                   Contains("unknown link speed 'QXR'"));
        CHECK_THAT(error_at(ok + "SW 1 2 0x01 3x QDR - SW 2 2 0x02 ( 'a' - 'b' )\n", 2),
                   Contains("unknown link width '3x'"));
        CHECK_THAT(error_at(ok + "SW 1 2 0x01 4x QDR - XX 2 2 0x02 ( 'a' - 'b' )\n", 2),
                   Contains("unknown node type 'XX'"));
        CHECK_THAT(error_at(ok + "SW 1 2 0x01 4x QDR - SW 2 2 0x02 ( 'a' )\n", 2),
                   Contains("( '<description>' - '<peer description>' )"));
        CHECK_THAT(error_at(ok + "SW 1 2 0x01 4x QDR\n", 2), Contains("expected '-"));
        // Port 1 of 0x02 is linked to 0x01 port 1 (line 1), not to 0x03.
        CHECK_THAT(error_at(ok + "SW 3 1 0x03 4x QDR - SW 2 1 0x02 ( 'c' - 'b' )\n", 2),
                   Contains("S-0000000000000002[1] is linked to S-0000000000000001[1] (line 1)"));
        CHECK_THAT(error_at(ok + "SW 1 1 0x01 4x QDR - SW 3 1 0x03 ( 'a' - 'c' )\n", 2),
                   Contains("port S-0000000000000001[1] is reported linked to "
                            "S-0000000000000003[1] here but to S-0000000000000002[1] at line 1"));
        CHECK_THAT(
            error_at(ok + "CA 2 5 0x02 4x QDR - SW 9 1 0x09 ( 'b' - 'z' )\n", 2),
            Contains("GUID 0000000000000002 is a channel adapter here but a switch at line 1"));
        CHECK_THAT(error_at(ok + "SW 1 7 0x01 4x QDR - SW 1 7 0x01 ( 'a' - 'a' )\n", 2),
                   Contains("linked to itself"));
    }
    SECTION("topology file") {
        const std::string head =
            "# comment\n"
            "vendid=0x8f1\n"
            "switchguid=0x8f105001094d2(8f105001094d2)\n"
            "Switch\t36 \"S-0008f105001094d2\"\t\t# \"sw\" enhanced port 0 lid 1 "
            "lmc 0\n";
        const std::string port =
            "[1]\t\"H-0000000000000005\"[1](6) \t\t# \"n1 HCA-1\" lid 5 4xQDR\n";
        CHECK(parse(head + port).links.size() == 1);
        CHECK_THAT(error_at("#\n\n" + port, 3), Contains("port line before any node header"));
        CHECK_THAT(error_at(head + "vendid=0x2c9\n" + port, 6),
                   Contains("port line before any node header"));
        CHECK_THAT(error_at(head + "[1]\t\"H-00000000000g0005\"[1] # \"n\" lid 5 4xQDR\n", 5),
                   Contains("bad GUID in node name"));
        CHECK_THAT(error_at(head + "[1]\t\"X-0000000000000005\"[1] # \"n\" lid 5 4xQDR\n", 5),
                   Contains("bad node name"));
        CHECK_THAT(error_at(head + "[x]\t\"H-0000000000000005\"[1] # \"n\" lid 5 4xQDR\n", 5),
                   Contains("bad port number 'x'"));
        CHECK_THAT(error_at(head + "[300]\t\"H-0000000000000005\"[1] # \"n\" lid 5 4xQDR\n", 5),
                   Contains("bad port number '300'"));
        CHECK_THAT(error_at(head + "[1]\t\"H-0000000000000005\"[1] # \"n\" lid 5 4xQXR\n", 5),
                   Contains("unknown link speed 'QXR'"));
        CHECK_THAT(error_at(head + "[1]\t\"H-0000000000000005\"[1] # \"n\" lid 5 5xQDR\n", 5),
                   Contains("unknown link width '5x'"));
        CHECK_THAT(error_at(head + "[1]\t\"H-0000000000000005\"[1] # \"n\" 4xQDR\n", 5),
                   Contains("lid <lid> <width><speed>"));
        CHECK_THAT(error_at("switchguid=0xZZ(1)\n", 1), Contains("bad GUID '0xZZ'"));
        CHECK_THAT(error_at(head + "Ca\t2 \"S-0000000000000005\"\t\t# \"n1\"\n", 5),
                   Contains("expected a name \"H-<guid>\""));
        CHECK_THAT(error_at(head + "Hello world\n", 5), Contains("unrecognised line"));
        CHECK_THAT(error_at(head + port + "Ca\t2 \"H-0008f105001094d2\"\t\t# \"n1\"\n", 6),
                   Contains("is a channel adapter here but a switch at line 4"));
        // The CA side says its port 1 goes to port 2 of the switch, which said
        // its port 1 goes there (line 5).
        CHECK_THAT(error_at(head + port +
                                "Ca\t2 \"H-0000000000000005\"\t\t# \"n1 HCA-1\"\n"
                                "[1](6) \t\"S-0008f105001094d2\"[2]\t\t# lid 5 lmc 0 \"sw\" lid 1 "
                                "4xQDR\n",
                            7),
                   Contains("here but to S-0008f105001094d2[1] at line 5"));
    }
    SECTION("no node at all") {
        for (const std::string text : {"", "# nothing\n\n", "DR path slid 0; dlid 0; 0 -> x\n"}) {
            try {
                parse(text);
                FAIL("no error");
            } catch (const InputError& e) {
                CHECK_THAT(e.what(), Contains("t.txt: no InfiniBand node"));
            }
        }
    }
}
