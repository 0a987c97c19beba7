// read_ibnetdiscover: the real dumps of ../shared/data/clusters (ports report
// of ibnetdiscover -p), the same small fabric in both formats, and malformed
// inputs, each rejected at the right line; which adapters are hosts; the
// node-name map; several subnets merged.
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Contains;

namespace {

Fabric parse(const std::string& text, const std::string& source = "t.txt",
             const NodeNameMap* map = nullptr) {
    std::istringstream in(text);
    // These tests name switches as ibnetdiscover does (S-<guid>); the names
    // descriptions give have their own test case.
    return read_ibnetdiscover(in, source, {map, SwitchNaming::guid});
}

NodeNameMap map_of(const std::string& text) {
    std::istringstream in(text);
    return read_node_name_map(in, "map.txt");
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string shared_fabric(const std::string& name) {
    return std::string(NETTOPO_SHARED_DATA) + "/fabrics/" + name;
}

Fabric parse_file(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    return read_ibnetdiscover(in, path, {nullptr, SwitchNaming::guid});
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
    CHECK(f.one_ended_cables.empty()); // 569 cables, 0 seen from one end (awk above)
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
    CHECK(f.one_ended_cables.empty()); // 201 cables, 0 seen from one end (awk above)
}

// The cables of a ports report (-p) seen from one end only, counted as the
// awk above does: the (GUID:port) pairs that one connected line gives.
std::size_t one_ended_by_text(const std::string& text) {
    std::map<std::string, int> seen;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("DR") || line.find(" - ") == std::string::npos) continue;
        std::istringstream words(line);
        std::vector<std::string> t(11);
        for (std::string& w : t) words >> w;
        const std::string a = t[3] + ":" + t[2], b = t[10] + ":" + t[9];
        ++seen[std::min(a, b) + " " + std::max(a, b)];
    }
    return static_cast<std::size_t>(
        std::count_if(seen.begin(), seen.end(), [](const auto& kv) { return kv.second == 1; }));
}

TEST_CASE("ibnetdiscover: a dump cut short reports its one-ended cables", "[ibnetdiscover]") {
    // Finding F3: plafrim's dump cut at 90 % of its lines was read silently.
    const std::string path = std::string(NETTOPO_SHARED_DATA) + "/clusters/plafrim/ib-subnet-0.txt";
    if (!std::filesystem::exists(path)) {
        WARN("skipped: no " << path);
        return;
    }
    const std::string text = read_text(path);
    REQUIRE(one_ended_by_text(text) == 0);
    const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    for (const std::size_t percent : {50, 90, 99}) {
        INFO(percent << " %");
        std::size_t end = 0;
        for (std::size_t n = 0; n < lines * percent / 100; ++n) end = text.find('\n', end) + 1;
        const std::string cut = text.substr(0, end);
        const Fabric f = parse(cut);
        CHECK(f.one_ended_cables.size() == one_ended_by_text(cut));
        CHECK(!f.one_ended_cables.empty());
    }
    // A cable reported twice by the same end is still one-ended.
    const std::string once = "SW 1 3 0x0000000000000001 4x EDR - CA 5 1 0x00000000000000a1 "
                             "( 'sw one' - 'hostA mlx5_0' )\n";
    CHECK(parse(once + once).one_ended_cables == std::vector<std::string>{"S-0000000000000001[3]"});
    CHECK(parse(once + "CA 5 1 0x00000000000000a1 4x EDR - SW 1 3 0x0000000000000001 "
                       "( 'hostA mlx5_0' - 'sw one' )\n")
              .one_ended_cables.empty());
}

TEST_CASE("ibnetdiscover: one small fabric in both formats", "[ibnetdiscover]") {
    const Fabric topo = parse_file(test_data("small-topology.txt"));
    const Fabric ports = parse_file(test_data("small-ports.txt"));
    CHECK(content(topo) == content(ports));
    for (const Fabric* f : {&topo, &ports}) {
        INFO(f->source);
        CHECK(f->one_ended_cables.empty());
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
        // '"x"' is no device name: the description names no host.
        CHECK(f.nodes[1].name == "H-0000000000000002");
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

// What is a host (share/doc/clusters.md): descriptions that name one, SHARP
// aggregation nodes, vendor strings, system images, node GUIDs.
TEST_CASE("ibnetdiscover: which adapters are hosts", "[ibnetdiscover]") {
    SECTION("a host word then a device name names the host") {
        const Fabric f = parse("SW 1 1 0x01 4x EDR - CA 2 1 0xa1 ( 's' - 'hostA mlx5_0' )\n"
                               "SW 1 2 0x01 4x EDR - CA 3 1 0xa2 ( 's' - 'n-1.x qib0' )\n"
                               "SW 1 3 0x01 4x EDR - CA 4 1 0xa3 ( 's' - 'Host2_1 hfi1_0' )\n"
                               "SW 1 4 0x01 4x EDR - CA 5 1 0xa4 ( 's' - 'n9 HCA-3 (spare)' )\n"
                               "SW 1 5 0x01 4x EDR - CA 6 1 0xa5 ( 's' - 'n9 HCA-4' )\n");
        std::vector<std::string> names;
        for (const FabricNode& n : f.nodes)
            if (!n.is_switch) names.push_back(n.name);
        CHECK(names == std::vector<std::string>{"hostA", "n-1.x", "Host2_1", "n9"});
        // n9's two adapters: one host, both GUIDs, a link each (one switch: x2)
        REQUIRE(node(f, "n9"));
        CHECK(node(f, "n9")->guids == std::vector<std::uint64_t>{0xa4, 0xa5});
        CHECK(link(f, "n9", "S-0000000000000001")->multiplicity == 2);
    }
    SECTION("vendor strings and empty descriptions: a host per adapter, never merged") {
        const Fabric f = parse(
            "SW 1 1 0x01 4x QDR - CA 2 1 0xa1 ( 's' - 'MT25408 ConnectX Mellanox Technologies' )\n"
            "SW 1 2 0x01 4x QDR - CA 3 1 0xa2 ( 's' - 'MT25408 ConnectX Mellanox Technologies' )\n"
            "SW 1 3 0x01 4x QDR - CA 4 1 0xa3 ( 's' - '' )\n"
            "SW 1 4 0x01 4x QDR - CA 5 1 0xa4 ( 's' - 'node7' )\n");
        REQUIRE(f.nodes.size() == 5);
        for (const char* h : {"H-00000000000000a1", "H-00000000000000a2", "H-00000000000000a3",
                              "H-00000000000000a4"}) {
            INFO(h);
            REQUIRE(node(f, h));
            CHECK(!node(f, h)->is_switch);
            CHECK(link(f, h, "S-0000000000000001"));
        }
        CHECK(node(f, "H-00000000000000a1")->description ==
              "MT25408 ConnectX Mellanox Technologies");
    }
    SECTION("SHARP aggregation nodes are left out with their cables") {
        const Fabric f = parse(
            "SW 1 1 0x01 4x HDR - CA 2 1 0xa1 ( 's' - 'Mellanox Technologies Aggregation Node' )\n"
            "SW 1 2 0x01 4x HDR - CA 3 1 0xa2 ( 's' - 'w1 mlx5_0' )\n"
            "SW 4 9 0x04 4x HDR - CA 5 1 0xa5 ( 't' - ' Mellanox Technologies Aggregation Node ' "
            ")\n"
            "SW 4 8 0x04 4x HDR - SW 1 3 0x01 ( 't' - 's' )\n");
        CHECK(f.nodes.size() == 3);
        CHECK(f.links.size() == 2);
        CHECK(f.switch_adapters ==
              std::vector<std::string>{"H-00000000000000a1", "H-00000000000000a5"});
    }
    SECTION("the adapters of one system image: with the host one of them names") {
        const std::string blocks =
            "vendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x10\nswitchguid=0x10(10)\n"
            "Switch\t41 \"S-0000000000000010\"\t# \"leaf\" base port 0 lid 1 lmc 0\n"
            "[1]\t\"H-00000000000000a1\"[1](a1)\t# \"gpu1 HCA-1\" lid 2 4xHDR\n"
            "[2]\t\"H-00000000000000a2\"[1](a2)\t# \"MT4123 ConnectX6 Mellanox "
            "Technologies\" lid 3 4xHDR\n"
            "[3]\t\"H-00000000000000b2\"[1](b2)\t# \"MT4123 ConnectX6\" lid 4 4xHDR\n"
            "[4]\t\"H-00000000000000b1\"[1](b1)\t# \"MT4123 ConnectX6\" lid 5 4xHDR\n"
            "[5]\t\"H-00000000000000c1\"[1](c1)\t# \"MT4123 ConnectX6\" lid 6 4xHDR\n"
            "\nvendid=0x2c9\ndevid=0x101b\nsysimgguid=0xa0\ncaguid=0xa1\n"
            "Ca\t1 \"H-00000000000000a1\"\t# \"gpu1 HCA-1\"\n"
            "[1](a1)\t\"S-0000000000000010\"[1]\t# lid 2 lmc 0 \"leaf\" lid 1 4xHDR\n"
            "\nvendid=0x2c9\ndevid=0x101b\nsysimgguid=0xa0\ncaguid=0xa2\n"
            "Ca\t1 \"H-00000000000000a2\"\t# \"MT4123 ConnectX6 Mellanox Technologies\"\n"
            "[1](a2)\t\"S-0000000000000010\"[2]\t# lid 3 lmc 0 \"leaf\" lid 1 4xHDR\n"
            "\nvendid=0x2c9\nsysimgguid=0xb0\ncaguid=0xb2\n"
            "Ca\t1 \"H-00000000000000b2\"\t# \"MT4123 ConnectX6\"\n"
            "\nvendid=0x2c9\nsysimgguid=0xb0\ncaguid=0xb1\n"
            "Ca\t1 \"H-00000000000000b1\"\t# \"MT4123 ConnectX6\"\n"
            "\nvendid=0x2c9\ncaguid=0xc1\n"
            "Ca\t1 \"H-00000000000000c1\"\t# \"MT4123 ConnectX6\"\n";
        const Fabric f = parse(blocks);
        // a2 joins gpu1 (its system image's named host); b1 and b2 are one
        // host named after the lower GUID; c1 (no system image) alone.
        REQUIRE(f.nodes.size() == 4);
        REQUIRE(node(f, "gpu1"));
        CHECK(node(f, "gpu1")->guids == std::vector<std::uint64_t>{0xa1, 0xa2});
        CHECK(link(f, "gpu1", "S-0000000000000010")->multiplicity == 2);
        REQUIRE(node(f, "H-00000000000000b1"));
        CHECK(node(f, "H-00000000000000b1")->guids == std::vector<std::uint64_t>{0xb1, 0xb2});
        CHECK(link(f, "H-00000000000000b1", "S-0000000000000010")->multiplicity == 2);
        CHECK(node(f, "H-00000000000000c1"));
    }
    SECTION("the -p report's adapters are their node GUIDs, from the DR path lines") {
        // The two test files with every host description replaced by a vendor
        // string: the hosts are H-<node GUID> in both formats, though the
        // report prints port GUIDs (node GUID + 1).
        const auto anonymous = [](std::string text) {
            for (const char* d : {"node01 HCA-1", "node02 HCA-1", "node03 HCA-1", "node03 HCA-2"})
                for (std::size_t at = text.find(d); at != std::string::npos; at = text.find(d))
                    text.replace(at, std::string_view(d).size(), "MT26428 ConnectX");
            return text;
        };
        const Fabric topo = parse(anonymous(read_text(test_data("small-topology.txt"))));
        const Fabric ports = parse(anonymous(read_text(test_data("small-ports.txt"))));
        CHECK(content(topo) == content(ports));
        CHECK(node(ports, "H-0002c9030002e6d0")); // the initiator, route "0"
        CHECK(node(ports, "H-0002c90300b3c4d0")); // route 0,1,35,1
        CHECK(ports.nodes.size() == 6);
        // Without the trace lines, the report's GUIDs are all it has.
        std::string no_trace;
        std::istringstream in(anonymous(read_text(test_data("small-ports.txt"))));
        for (std::string l; std::getline(in, l);)
            if (!l.starts_with("DR path")) no_trace += l + "\n";
        CHECK(node(parse(no_trace), "H-0002c9030002e6d1"));
    }
    SECTION("the rdma-core man page's example: four vendor-string adapters, four hosts") {
        const std::string path = shared_fabric("rdma-core-man-example.ibnetdiscover");
        if (!std::filesystem::exists(path)) {
            WARN("skipped: no " << path);
            return;
        }
        // grep -c '^Ca' gives 4 adapters, all "MT23108 InfiniHost Mellanox
        // Technologies"; H-0008f10403960558 has ports 1 and 2 cabled to ports
        // 12 and 8 of S-005442ba00003080.
        const Fabric f = parse_file(path);
        CHECK(count_switches(f) == 2);
        CHECK(f.nodes.size() - count_switches(f) == 4);
        const FabricLink* two = link(f, "H-0008f10403960558", "S-005442ba00003080");
        REQUIRE(two);
        CHECK(two->multiplicity == 2);
        CHECK(two->bandwidth_gbps == 2); // the lower: port 1 is 1xSDR
    }
}

TEST_CASE("ibnetdiscover: older output without width and speed", "[ibnetdiscover]") {
    const Fabric topo = parse("Switch\t24 \"S-005442ba00003080\"\t# \"ISR9024 Voltaire\" base "
                              "port 0 lid 6 lmc 0\n"
                              "[22]\t\"H-0008f10403961354\"[1](8f10403961355)\t# \"n1 HCA-1\" "
                              "lid 4\n");
    REQUIRE(topo.links.size() == 1);
    CHECK(topo.links[0].bandwidth_gbps == 0);
    const Fabric ports = parse("CA 4 1 0x01 - SW 6 22 0x02 ( 'n1 HCA-1' - 'sw' )\n"
                               "SW 6 23 0x02 'sw'\n");
    REQUIRE(ports.links.size() == 1);
    CHECK(ports.links[0].bandwidth_gbps == 0);
}

TEST_CASE("ibnetdiscover: names from a node-name map", "[ibnetdiscover]") {
    NodeNameMap map;
    map.names = {{0x01, "leaf-1"},
                 {0x02, "IB1 (Rack 11 spine 1) ISR9288"},
                 {0x03, "dup"},
                 {0x04, "dup"},
                 {0xa1, "gpu7 mlx5_0"},
                 {0xa2, "gpu7"},
                 {0xa3, "spare adapter 3"},
                 {0xa5, "leaf-1"}};
    const Fabric f = parse("SW 1 1 0x01 4x EDR - CA 2 1 0xa1 ( 's1' - 'x mlx5_0' )\n"
                           "SW 1 2 0x01 4x EDR - CA 3 1 0xa2 ( 's1' - '' )\n"
                           "SW 1 3 0x01 4x EDR - CA 4 1 0xa3 ( 's1' - 'y mlx5_0' )\n"
                           "SW 1 4 0x01 4x EDR - SW 5 1 0x02 ( 's1' - 's2' )\n"
                           "SW 1 5 0x01 4x EDR - SW 6 1 0x03 ( 's1' - 's3' )\n"
                           "SW 1 6 0x01 4x EDR - SW 7 1 0x04 ( 's1' - 's4' )\n"
                           "SW 1 7 0x01 4x EDR - CA 8 1 0xa5 ( 's1' - 'z mlx5_0' )\n",
                           "t.txt", &map);
    // A map's host name ('gpu7 mlx5_0' or one word 'gpu7'); a map's name that
    // names no host: H-<guid>, described by the map; unmapped: the description.
    REQUIRE(node(f, "gpu7"));
    CHECK(node(f, "gpu7")->guids == std::vector<std::uint64_t>{0xa1, 0xa2});
    REQUIRE(node(f, "H-00000000000000a3"));
    CHECK(node(f, "H-00000000000000a3")->description == "spare adapter 3");
    // Switches: a one-word name no other node has; else S-<guid> described by
    // the map. 'leaf-1' is the host 0xa5's name too: the host keeps it.
    REQUIRE(node(f, "leaf-1"));
    CHECK(!node(f, "leaf-1")->is_switch);
    CHECK(node(f, "S-0000000000000001"));
    REQUIRE(node(f, "S-0000000000000002"));
    CHECK(node(f, "S-0000000000000002")->description == "IB1 (Rack 11 spine 1) ISR9288");
    CHECK(node(f, "S-0000000000000003"));
    CHECK(node(f, "S-0000000000000004"));
    map.names[0x03] = "spine-3";
    const Fabric g = parse("SW 1 5 0x01 4x EDR - SW 6 1 0x03 ( 's1' - 's3' )\n", "t.txt", &map);
    CHECK(node(g, "leaf-1"));
    CHECK(node(g, "spine-3"));
    CHECK(link(g, "leaf-1", "spine-3"));
}

// read_node_name_map (infiniband-diags' format, as rdma-core's
// util/node_name_map.c reads it) and merge_fabrics (one dump per subnet).
TEST_CASE("node-name map: the format infiniband-diags reads", "[ibnetdiscover]") {
    const NodeNameMap m = map_of("# IB1\n"
                                 "   # Line cards\n"
                                 "0x0008f104003f125c \"IB1 (Rack 11 slot 1   ) ISR9288\"\n"
                                 "\n"
                                 "0x0008f104003f125d\t\"leaf-2\"   # a comment\n"
                                 "0x10 node10 HCA-1\n"
                                 "0x11 \"first\"\n"
                                 "0x11 \"second\"\n"
                                 "0x12\n"
                                 "0x13 \"\"\n"
                                 "20 \"decimal\"\n"
                                 "010 \"octal\"\n");
    CHECK(m.source == "map.txt");
    REQUIRE(m.find(0x0008f104003f125c));
    CHECK(*m.find(0x0008f104003f125c) == "IB1 (Rack 11 slot 1   ) ISR9288");
    CHECK(*m.find(0x0008f104003f125d) == "leaf-2");
    CHECK(*m.find(0x10) == "node10 HCA-1"); // quotes are optional
    CHECK(*m.find(0x11) == "first");        // the first line of a GUID wins
    CHECK(m.find(0x12) == nullptr);         // no name: skipped
    CHECK(m.find(0x13) == nullptr);
    CHECK(*m.find(20) == "decimal");
    CHECK(*m.find(8) == "octal");
    CHECK(m.names.size() == 6);
    for (const auto& [text, line] :
         std::vector<std::pair<std::string, std::size_t>>{{"0x1 \"a\"\nnode01 \"b\"\n", 2},
                                                          {"0x1 \"a\"\n\n0x2x \"b\"\n", 3},
                                                          {"0xZZ \"a\"\n", 1},
                                                          {"0x123456789012345678 \"big\"\n", 1}}) {
        INFO(text);
        try {
            map_of(text);
            FAIL("accepted");
        } catch (const InputError& e) {
            CHECK(e.line() == line);
            CHECK_THAT(e.what(), Contains("bad GUID"));
        }
    }
}

TEST_CASE("node-name map: names follow the rule of names", "[ibnetdiscover]") {
    // Findings D1, D2: a name is printable UTF-8 of at most 255 bytes.
    CHECK(*map_of("0x1 \"" + std::string(255, 'a') + "\"\n").find(1) == std::string(255, 'a'));
    CHECK(*map_of("0x1 \"sw\xc3\xa9 'quoted' <1>\"\n").find(1) == "sw\xc3\xa9 'quoted' <1>");
    for (const std::string& name :
         {std::string(256, 'a'), std::string("a\x1b[31m"), std::string("a\tb"),
          std::string("a\x7f"), std::string("a\xc2\x9b"), std::string("a\xff"),
          std::string("a\0b", 3)}) {
        INFO(name);
        try {
            map_of("# a map\n0x1 \"" + name + "\"\n");
            FAIL("accepted");
        } catch (const InputError& e) {
            CHECK(e.line() == 2);
            CHECK_THAT(e.what(), Contains("map.txt:2: name '"));
        }
    }
}

TEST_CASE("ibnetdiscover: a host name longer than 255 bytes is refused at its line",
          "[ibnetdiscover]") {
    const auto dump = [](const std::string& host) {
        return "SW 1 3 0x0000000000000001 4x EDR - CA 5 1 0x00000000000000a1 ( 'sw' - '" + host +
               " mlx5_0' )\n";
    };
    CHECK(parse(dump(std::string(255, 'h'))).nodes[1].name == std::string(255, 'h'));
    CHECK_THROWS_WITH(parse(dump(std::string(256, 'h'))),
                      Contains("t.txt:1: host name 'hhh") && Contains("is 256 bytes long"));
}

TEST_CASE("merge_fabrics: one dump per subnet", "[ibnetdiscover]") {
    // Subnet 0: hosts a and b on switch 0x01; subnet 1: a's second adapter
    // and c on switch 0x02. Then subnet 0 again (overlapping dumps).
    const std::string s0 = "SW 1 1 0x01 4x EDR - CA 2 1 0xa1 ( 's' - 'a mlx5_0' )\n"
                           "SW 1 2 0x01 4x EDR - CA 3 1 0xb1 ( 's' - 'b mlx5_0' )\n"
                           "SW 1 3 0x01 4x EDR - CA 3 1 0xb2 ( 's' - 'b mlx5_1' )\n";
    const std::string s1 = "SW 1 1 0x02 4x HDR - CA 2 1 0xa2 ( 't' - 'a mlx5_1' )\n"
                           "SW 1 2 0x02 4x HDR - CA 3 1 0xc1 ( 't' - 'c mlx5_0' )\n";
    const Fabric f =
        merge_fabrics({parse(s0, "ib0.txt"), parse(s1, "ib1.txt"), parse(s0, "ib0b.txt")});
    CHECK(f.source == "ib0.txt");
    CHECK(f.nodes.size() == 5);
    REQUIRE(node(f, "a"));
    CHECK(node(f, "a")->guids == std::vector<std::uint64_t>{0xa1, 0xa2});
    CHECK(link(f, "a", "S-0000000000000001"));
    CHECK(link(f, "a", "S-0000000000000002")->bandwidth_gbps == 200);
    CHECK(link(f, "a", "S-0000000000000002")->line == 0); // not a line of ib0.txt
    // b's two cables are in two dumps: counted once.
    CHECK(link(f, "b", "S-0000000000000001")->multiplicity == 2);
    CHECK(f.links.size() == 4);
    SECTION("a name that is a host in one dump and a switch in another") {
        NodeNameMap m;
        m.names = {{0x02, "b"}};
        std::istringstream in(s1);
        try {
            merge_fabrics({parse(s0, "ib0.txt"), read_ibnetdiscover(in, "ib1.txt", {&m})});
            FAIL("accepted");
        } catch (const InputError& e) {
            CHECK_THAT(e.what(), Contains("ib1.txt:1: 'b' is a switch here but a host"));
        }
    }
}

TEST_CASE("ibnetdiscover: switches named by their descriptions", "[ibnetdiscover]") {
    CHECK(switch_name_of("MF0;A09-P1-IBLEAF-04-04:MQM9701/U1") == "A09-P1-IBLEAF-04-04");
    CHECK(switch_name_of("MF0;switch-33fd6e:MCS8500/L01/U1") == "switch-33fd6e");
    CHECK(switch_name_of("MF0;switch-33fd6e:MCS8500/L01/U1", true) == "switch-33fd6e/L01/U1");
    CHECK(switch_name_of("Voltaire 4036 # 4036-8548") == "4036-8548");
    CHECK(switch_name_of("leaf01") == "leaf01");
    CHECK(switch_name_of("Quantum Mellanox Technologies").empty());
    CHECK(switch_name_of("QLogic 12800-180 GUID=0x00066a00e8001310 L115").empty());
    CHECK(switch_name_of("MF0;:MQM9701/U1").empty());
    CHECK(switch_name_of("a # b c").empty());
    CHECK(switch_name_of("").empty());

    const auto names = [](const Fabric& f) {
        std::vector<std::string> out;
        for (const FabricNode& n : f.nodes)
            if (n.is_switch) out.push_back(n.name);
        std::sort(out.begin(), out.end());
        return out;
    };
    const auto by_description = [](const std::string& path) {
        std::ifstream in(path);
        REQUIRE(in);
        return read_ibnetdiscover(in, path);
    };
    // Real dumps: a Voltaire and an NVIDIA managed switch; a director's
    // modules (one chassis name: the long form); firmware strings shared by
    // many switches keep their GUIDs.
    CHECK(names(by_description(test_data("small-topology.txt"))) ==
          std::vector<std::string>{"switch-b", "v4036-A"});
    CHECK(names(by_description(test_data("small-ports.txt"))) ==
          std::vector<std::string>{"switch-b", "v4036-A"});
    CHECK(names(by_description(shared_fabric("dgx-superpod-small.ibnetdiscover"))) ==
          std::vector<std::string>{"IB_switch_1", "IB_switch_2", "IB_switch_3", "IB_switch_4"});
    const Fabric cs = by_description(shared_fabric("dgx-superpod-cs8500.ibnetdiscover"));
    std::size_t guids = 0, modules[2] = {0, 0};
    for (const std::string& n : names(cs)) {
        guids += n.starts_with("S-");
        modules[0] += n.starts_with("switch-33fd6e/");
        modules[1] += n.starts_with("switch-33fd4e/");
    }
    // grep -c of the dump's Switch lines: 'Quantum Mellanox Technologies' x 72;
    // 'MF0;switch-33fd6e:MCS8500/<module>/U<n>' x 60, 'MF0;switch-33fd4e:...' x 60.
    CHECK(guids == 72);
    CHECK(modules[0] == 60);
    CHECK(modules[1] == 60);
    REQUIRE(node(cs, "switch-33fd6e/L01/U1"));
    CHECK(node(cs, "switch-33fd6e/L01/U1")->guids ==
          std::vector<std::uint64_t>{0xb8cef6030019c882});
    // The same dumps by GUID: what ibnetdiscover prints.
    for (const std::string& n : names(parse_file(test_data("small-topology.txt"))))
        CHECK(n.starts_with("S-"));

    SECTION("a described name a host or another switch has is not taken") {
        // Synthetic: a switch described 'a' where host a exists; two switches
        // described 'leaf'.
        const Fabric f = parse("SW 1 1 0x01 4x EDR - CA 2 1 0xa1 ( 'a' - 'a mlx5_0' )\n"
                               "SW 4 1 0x02 4x EDR - SW 5 1 0x03 ( 'leaf' - 'leaf' )\n"
                               "SW 4 2 0x02 4x EDR - SW 1 2 0x01 ( 'leaf' - 'a' )\n",
                               "t.txt", nullptr);
        CHECK(names(f) == std::vector<std::string>{"S-0000000000000001", "S-0000000000000002",
                                                   "S-0000000000000003"});
        std::istringstream in("SW 1 1 0x01 4x EDR - CA 2 1 0xa1 ( 'spine' - 'a mlx5_0' )\n");
        CHECK(names(read_ibnetdiscover(in, "t.txt")) == std::vector<std::string>{"spine"});
        // A description naming another switch's GUID name: both keep their GUIDs.
        std::istringstream guid(
            "SW 1 1 0x01 4x EDR - SW 2 1 0x02 ( 'S-0000000000000002' - 'Quantum Mellanox' )\n");
        CHECK(names(read_ibnetdiscover(guid, "t.txt")) ==
              std::vector<std::string>{"S-0000000000000001", "S-0000000000000002"});
    }
    SECTION("two subnets' switches described alike: the later one by its GUID") {
        std::istringstream a("SW 1 1 0x01 4x EDR - CA 2 1 0xa1 ( 'leaf01' - 'a mlx5_0' )\n");
        std::istringstream b("SW 1 1 0x02 4x EDR - CA 2 1 0xa2 ( 'leaf01' - 'a mlx5_1' )\n");
        const Fabric m =
            merge_fabrics({read_ibnetdiscover(a, "ib0.txt"), read_ibnetdiscover(b, "ib1.txt")});
        CHECK(names(m) == std::vector<std::string>{"S-0000000000000002", "leaf01"});
        CHECK(m.adapters.size() == 2);
    }
    SECTION("a node-name map wins") {
        NodeNameMap m;
        m.names = {{0x0002c90300a1b2c0, "core1"}};
        std::istringstream in(read_text(test_data("small-topology.txt")));
        CHECK(names(read_ibnetdiscover(in, "t.txt", {&m})) ==
              std::vector<std::string>{"core1", "v4036-A"});
    }
}
