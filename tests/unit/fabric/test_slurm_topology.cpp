// Slurm topology files: hostlist expressions, topology.conf and topology.yaml
// reading (tree, block, flat; errors with their line), and topology.conf
// writing, checked by round trips through the reader.
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/fabric/slurm_writer.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace nettopo;
using Catch::Contains;
using Catch::StartsWith;

namespace {

using Names = std::vector<std::string>;
using NamePair = std::pair<std::string, std::string>;

const MachineType& one_pu() {
    static const MachineType type("pu:1", tree_from_synthetic("pu:1"), NodeLevel{},
                                  LevelLatencies::defaults());
    return type;
}

Fabric read_text(const std::string& text, const std::string& source = "t.conf") {
    std::istringstream in(text);
    return read_slurm_topology(in, source);
}

Fabric read_data(const std::string& name) {
    std::ifstream in(std::string(NETTOPO_TEST_DATA) + "/slurm/" + name);
    REQUIRE(in);
    return read_slurm_topology(in, name);
}

Names names_of(const Fabric& f, bool switches) {
    Names out;
    for (const FabricNode& n : f.nodes)
        if (n.is_switch == switches) out.push_back(n.name);
    return out;
}

NamePair pair_of(std::string a, std::string b) {
    if (b < a) std::swap(a, b);
    return {std::move(a), std::move(b)};
}

std::set<NamePair> links_of(const Fabric& f) {
    std::set<NamePair> out;
    for (const FabricLink& l : f.links) out.insert(pair_of(f.nodes[l.a].name, f.nodes[l.b].name));
    return out;
}

std::set<NamePair> links_of(const Cluster& c) {
    std::set<NamePair> out;
    for (const Link& l : c.network().links())
        out.insert(pair_of(std::string(c.vertex_name(l.a)), std::string(c.vertex_name(l.b))));
    return out;
}

Names machine_names(const Cluster& c) {
    Names out;
    for (std::uint32_t m = 0; m < c.num_machines(); ++m)
        out.emplace_back(c.machine_name(MachineId(m)));
    std::sort(out.begin(), out.end());
    return out;
}

Names switch_names(const Cluster& c) {
    Names out;
    for (std::uint32_t s = 0; s < c.num_switches(); ++s)
        out.emplace_back(c.switch_name(SwitchId(s)));
    std::sort(out.begin(), out.end());
    return out;
}

// Hosts become one-PU machines; what an assembly of real hosts would do.
Cluster to_cluster(const Fabric& f, const std::string& name = "lab") {
    ClusterBuilder b(name);
    const TypeId type = b.add_type(one_pu());
    std::vector<ClusterBuilder::Endpoint> ends(f.nodes.size());
    for (std::size_t i = 0; i < f.nodes.size(); ++i) {
        const FabricNode& n = f.nodes[i];
        ends[i] = n.is_switch ? ClusterBuilder::Endpoint{true, b.add_switch(n.name).value}
                              : ClusterBuilder::Endpoint{false, b.add_machine(n.name, type).value};
    }
    for (const FabricLink& l : f.links) b.add_link(ends[l.a], ends[l.b], 1, l.bandwidth_gbps);
    BuildOptions options;
    options.allow_disconnected = true;
    return std::move(b).build(options);
}

std::string write(const Cluster& c) {
    std::ostringstream out;
    write_slurm_topology(c, out);
    return out.str();
}

std::string write_yaml(const Cluster& c) {
    std::ostringstream out;
    write_slurm_topology_yaml(c, out);
    return out.str();
}

// The text without what the reader ignores: LinkSpeed and the line saying its unit.
std::string without_link_speed(const std::string& text) {
    std::istringstream in(text);
    std::string out, line;
    while (std::getline(in, line)) {
        if (line.starts_with("# LinkSpeed")) continue;
        if (const auto at = line.find(" LinkSpeed="); at != std::string::npos) line.resize(at);
        out += line + '\n';
    }
    return out;
}

// The reader's message for `text`, which must be refused.
std::string error_of(const std::string& text, const std::string& source = "bad.conf") {
    try {
        read_text(text, source);
    } catch (const InputError& e) {
        return e.what();
    }
    FAIL("accepted: " << text);
    return {};
}

std::string usage_error_of(const Cluster& c) {
    try {
        write(c);
    } catch (const InputError& e) {
        return e.what();
    }
    FAIL("written although not tree-shaped");
    return {};
}

Names numbered(const std::string& prefix, int first, int last, int width = 0,
               const std::string& suffix = "") {
    Names out;
    for (int i = first; i <= last; ++i) {
        std::string digits = std::to_string(i);
        if (static_cast<int>(digits.size()) < width)
            digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
        out.push_back(prefix + digits + suffix);
    }
    return out;
}

Names concat(std::initializer_list<Names> parts) {
    Names out;
    for (const Names& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

} // namespace

// ---------------------------------------------------------------------------
// Hostlists

TEST_CASE("expand_hostlist: ranges, lists, padding and products", "[slurm]") {
    CHECK(expand_hostlist("tux[0-3,12,18-20]") ==
          concat({numbered("tux", 0, 3), {"tux12"}, numbered("tux", 18, 20)}));
    CHECK(expand_hostlist("node[01-04]") == numbered("node", 1, 4, 2));
    const Names wide = expand_hostlist("n[001-120]");
    REQUIRE(wide.size() == 120);
    CHECK(wide.front() == "n001");
    CHECK(wide[98] == "n099");
    CHECK(wide.back() == "n120");
    // The width is that of the range start, per range.
    CHECK(expand_hostlist("a[8-10]") == Names{"a8", "a9", "a10"});
    CHECK(expand_hostlist("a[08-10]") == Names{"a08", "a09", "a10"});
    CHECK(expand_hostlist("a[1-010]") == numbered("a", 1, 10));
    CHECK(expand_hostlist("a[01-02,7]") == Names{"a01", "a02", "a7"});
    CHECK(expand_hostlist("x[00]") == Names{"x00"});
    CHECK(expand_hostlist("x[5]") == Names{"x5"});
    // Products, leftmost slowest; suffixes.
    CHECK(expand_hostlist("a,b,rack[1-2]n[1-2]") ==
          Names{"a", "b", "rack1n1", "rack1n2", "rack2n1", "rack2n2"});
    CHECK(expand_hostlist("a[1-2]b[3-4]c") == Names{"a1b3c", "a1b4c", "a2b3c", "a2b4c"});
    CHECK(expand_hostlist("node[1-2]-ib") == Names{"node1-ib", "node2-ib"});
    CHECK(expand_hostlist("[3-4]") == Names{"3", "4"});
    CHECK(expand_hostlist("s1-[0-1],s2-0") == Names{"s1-0", "s1-1", "s2-0"});
    // Separators: commas and blanks at the top level; empty items skipped.
    CHECK(expand_hostlist("").empty());
    CHECK(expand_hostlist("a,,b,") == Names{"a", "b"});
    CHECK(expand_hostlist("a b\tc") == Names{"a", "b", "c"});
    CHECK(expand_hostlist("plain") == Names{"plain"});
}

TEST_CASE("expand_hostlist refuses malformed expressions", "[slurm]") {
    for (const char* bad :
         {"a[3-1]", "a[x-2]", "a[1-2", "a]1", "a[[1]]", "a[]", "a[1,]", "a[1-]", "a[-1]", "a[1 2]",
          "a[1-2]]", "n[0-99999999999]", "n[1234567890123456789]"}) {
        INFO(bad);
        CHECK_THROWS_AS(expand_hostlist(bad), InputError);
    }
    CHECK_THROWS_WITH(expand_hostlist("a[3-1]"), Contains("a[3-1]") && Contains("downwards"));
}

TEST_CASE("compress_hostlist folds runs and keeps the order", "[slurm]") {
    const auto round = [](const Names& names) {
        const std::string text = compress_hostlist(names);
        CHECK(expand_hostlist(text) == names);
        return text;
    };
    CHECK(round(concat({numbered("tux", 0, 3), {"tux12"}, numbered("tux", 18, 20)})) ==
          "tux[0-3,12,18-20]");
    CHECK(round(numbered("node", 1, 4, 2)) == "node[01-04]");
    CHECK(round(numbered("n", 1, 120, 3)) == "n[001-120]");
    CHECK(round({}).empty());
    CHECK(round({"a"}) == "a");
    CHECK(round({"a", "b"}) == "a,b");
    CHECK(round({"n1"}) == "n1");
    CHECK(round({"n1", "n2"}) == "n[1-2]");
    CHECK(round({"n9", "n10", "n11"}) == "n[9-11]");
    CHECK(round({"n098", "n099", "n100"}) == "n[098-100]");
    CHECK(round({"n08", "n9"}) == "n[08,9]");
    CHECK(round({"n3", "n1", "n2"}) == "n[3,1-2]");
    CHECK(round({"s1-0", "s1-1", "s2-0"}) == "s1-[0-1],s2-0");
    CHECK(round({"node1-ib", "node2-ib", "node3"}) == "node[1-2]-ib,node3");
    CHECK(round({"rack1n1", "rack1n2", "rack2n1"}) == "rack1n[1-2],rack2n1");
    CHECK(round({"12", "13"}) == "[12-13]");
    CHECK(round({"x1234567890123456789", "x1234567890123456790"}) ==
          "x1234567890123456789,x1234567890123456790");
    CHECK(round({"a0", "a00", "a000"}) == "a[0,00,000]");
    for (const char* bad : {"a,b", "a[1]", "a b", ""}) {
        INFO(bad);
        CHECK_THROWS_AS(compress_hostlist({bad}), InputError);
    }
}

TEST_CASE("hostlist_excerpt: the first names as one expression, then how many more", "[slurm]") {
    CHECK(hostlist_excerpt(numbered("n", 1, 3)) == "n[1-3]");
    CHECK(hostlist_excerpt(numbered("n", 1, 12), 8) == "n[1-8] and 4 more");
    CHECK(hostlist_excerpt(numbered("n", 1, 12), 12) == "n[1-12]");
    CHECK(hostlist_excerpt({}).empty());
    // A name no expression can hold (a comma, brackets): a plain list, not an error.
    CHECK(hostlist_excerpt({"a,b", "c[1]", "d"}, 2) == "a,b,c[1] and 1 more");
}

TEST_CASE("compress_hostlist: expand(compress(names)) == names on random names", "[slurm]") {
    std::mt19937 rng(20240611);
    const std::vector<std::string> prefixes{"", "n", "node", "r1n", "s1-", "a.b", "x0y"};
    const std::vector<std::string> suffixes{"", "", "", "-ib", "x", "-ib0"};
    const auto pick = [&](const std::vector<std::string>& v) {
        return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
    };
    for (int round = 0; round < 500; ++round) {
        const int size = std::uniform_int_distribution<int>(0, 60)(rng);
        Names names;
        std::set<std::string> seen;
        while (static_cast<int>(names.size()) < size) {
            std::string name;
            const int shape = std::uniform_int_distribution<int>(0, 9)(rng);
            if (shape == 0) {
                name = pick({"login", "gw", "a", "b"});
            } else {
                const int number = std::uniform_int_distribution<int>(0, 130)(rng);
                const int width = std::uniform_int_distribution<int>(0, 4)(rng);
                // Runs are more likely when names repeat a shape.
                name = numbered(pick(prefixes), number, number, width, pick(suffixes))[0];
            }
            if (seen.insert(name).second) names.push_back(name);
        }
        // Sorted lists make long runs; shuffled ones mix groups.
        if (round % 3 == 0) std::sort(names.begin(), names.end());
        INFO("round " << round);
        const std::string text = compress_hostlist(names);
        INFO(text);
        CHECK(expand_hostlist(text) == names);
    }
}

// ---------------------------------------------------------------------------
// topology.conf

TEST_CASE("topology.conf: the tree example of the Slurm manual", "[slurm]") {
    const Fabric f = read_data("topology-tree.conf");
    CHECK(f.source == "topology-tree.conf");
    CHECK(names_of(f, true) == Names{"s0", "s1", "s2", "s3"});
    CHECK(names_of(f, false) == numbered("dev", 0, 17));
    CHECK(f.links.size() == 18 + 3);
    const std::set<NamePair> links = links_of(f);
    CHECK(links.count(pair_of("s0", "dev5")) == 1);
    CHECK(links.count(pair_of("s2", "dev12")) == 1);
    CHECK(links.count(pair_of("s3", "s1")) == 1);
    for (const FabricLink& l : f.links) {
        CHECK(l.bandwidth_gbps == 0);
        CHECK(!l.latency_ns);
        CHECK(l.multiplicity == 1);
        CHECK(f.nodes[l.a].is_switch); // the parent comes first
    }
    CHECK(f.nodes[0].line == 8); // SwitchName=s0
    CHECK(f.nodes[3].line == 11);
    CHECK(f.nodes[4].name == "dev0");
    CHECK(f.nodes[4].line == 8);
}

TEST_CASE("topology.conf: the block example of the Slurm manual", "[slurm]") {
    const Fabric f = read_data("topology-block.conf");
    CHECK(names_of(f, true) == Names{"blocks", "block1", "block2", "block3", "block4"});
    CHECK(names_of(f, false) == numbered("node", 1, 128));
    CHECK(f.links.size() == 4 + 128);
    const std::set<NamePair> links = links_of(f);
    CHECK(links.count(pair_of("blocks", "block3")) == 1);
    CHECK(links.count(pair_of("block4", "node97")) == 1);
    CHECK(links.count(pair_of("block1", "node33")) == 0);
}

TEST_CASE("topology.conf: comments, case, continuations, several parents", "[slurm]") {
    const Fabric f = read_text("  # a comment\n"
                               "\n"
                               "switchname=top SWITCHES=mid[1-2]   # children defined later\n"
                               "SwitchName=spare \\\n"
                               "  Switches=mid2\n"
                               "SwitchName=mid1 Nodes=n[1-2],\\  \n"
                               "n3 LinkSpeed=100\n"
                               "SwitchName = mid2 Nodes = \"n3,n4\"\r\n"
                               "SwitchName=odd\\#name Nodes=n5 # \\\n"
                               "SwitchName=empty\n");
    CHECK(names_of(f, true) == Names{"top", "spare", "mid1", "mid2", "odd#name", "empty"});
    CHECK(names_of(f, false) == Names{"n1", "n2", "n3", "n4", "n5"});
    const std::set<NamePair> links = links_of(f);
    CHECK(links == std::set<NamePair>{
                       pair_of("top", "mid1"), pair_of("top", "mid2"), pair_of("spare", "mid2"),
                       pair_of("mid1", "n1"), pair_of("mid1", "n2"), pair_of("mid1", "n3"),
                       pair_of("mid2", "n3"), pair_of("mid2", "n4"), pair_of("odd#name", "n5")});
    CHECK(f.links.size() == links.size());
    // n3 is first named on the continued line, which starts at line 6.
    const auto n3 = std::find_if(f.nodes.begin(), f.nodes.end(),
                                 [](const FabricNode& n) { return n.name == "n3"; });
    CHECK(n3->line == 6);
    CHECK(f.nodes[5].line == 10); // empty: kept, without links
}

TEST_CASE("topology.conf: malformed input is refused at its line", "[slurm]") {
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a\nSwitchName=s2 Switches=s1,s9\n"),
               StartsWith("bad.conf:2: ") && Contains("'s9'") && Contains("no SwitchName=s9"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a\n\n# x\nSwitchName=s1 Nodes=b\n"),
               StartsWith("bad.conf:4: ") && Contains("defined twice (first at line 1)"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a Switches=s2\nSwitchName=s2 Nodes=b\n"),
               StartsWith("bad.conf:1: ") && Contains("both Nodes= and Switches="));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a\nSwitchName=s2 Switches=s2\n"),
               StartsWith("bad.conf:2: ") && Contains("itself"));
    CHECK_THAT(error_of("SwitchName=a Switches=b\nSwitchName=b Switches=c\n"
                        "SwitchName=c Switches=a\n"),
               StartsWith("bad.conf:3: ") && Contains("cycle"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a\nSwitchName=s2 Nodes=a[3-1]\n"),
               StartsWith("bad.conf:2: ") && Contains("a[3-1]"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a Speed=3\n"),
               StartsWith("bad.conf:1: ") && Contains("unknown key 'Speed'"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a\nNodeName=a\n"),
               StartsWith("bad.conf:2: ") && Contains("unknown key 'NodeName'"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a Nodes=b\n"),
               StartsWith("bad.conf:1: ") && Contains("given twice"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a\nSwitchName=s2 Nodes=s1\n"),
               StartsWith("bad.conf:2: ") && Contains("'s1'") && Contains("is a switch"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a junk\n"),
               StartsWith("bad.conf:1: ") && Contains("expected Key=Value"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=\"a\n"),
               StartsWith("bad.conf:1: ") && Contains("unterminated"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a\nBlockName=b1 Nodes=c\n"),
               StartsWith("bad.conf:2: ") && Contains("one file"));
    CHECK_THAT(error_of("# only comments\n\nNodeName=x\n"),
               StartsWith("bad.conf:3: ") && Contains("neither a topology.conf"));
    CHECK_THAT(error_of("# only comments\n\n"), StartsWith("bad.conf: ") && Contains("empty"));
    CHECK_THAT(error_of("BlockSizes=4\n"), StartsWith("bad.conf:1: ") && Contains("no block"));
    CHECK_THAT(error_of("BlockName=blocks Nodes=a\n"),
               StartsWith("bad.conf:1: ") && Contains("may not be named 'blocks'"));
}

TEST_CASE("Slurm topologies: names follow the rule of names, refused at their line", "[slurm]") {
    // Findings D1, D2: printable UTF-8 of at most 255 bytes, in both files.
    const std::string h255(255, 'h'), s255(255, 's');
    const Fabric f = read_text("SwitchName=" + s255 + " Nodes=" + h255 + ",b\n");
    CHECK(f.nodes[0].name == s255);
    CHECK(f.nodes[1].name == h255);
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a\nSwitchName=" + s255 + "s Nodes=b\n"),
               StartsWith("bad.conf:2: switch name 'sss") && Contains("is 256 bytes long"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a\nSwitchName=s2 Nodes=" + h255 + "h\n"),
               StartsWith("bad.conf:2: host name 'hhh") && Contains("is 256 bytes long"));
    CHECK_THAT(error_of("SwitchName=s1 Nodes=a\nSwitchName=s2 Nodes=" + std::string(254, 'h') +
                        "[9-10]\n"),
               StartsWith("bad.conf:2: host name '") && Contains("is 256 bytes long"));
    CHECK(error_of("SwitchName=s1 Nodes=a,b\x1b"
                   "c\n") ==
          "bad.conf:1: host name 'b\\x1bc' holds the control character U+001B at byte 2");
    CHECK(error_of("SwitchName=s\x7f Nodes=a\n") ==
          "bad.conf:1: switch name 's\\x7f' holds the control character U+007F at byte 2");
    CHECK(error_of("SwitchName=s1 Nodes=\"a\xff\"\n") ==
          "bad.conf:1: host name 'a\\xff' is not valid UTF-8 at byte 2");
    const std::string yaml = "- topology: t\n"
                             "  tree:\n"
                             "    switches:\n"
                             "      - switch: s1\n"
                             "        nodes: NODES\n";
    const auto with = [&](const std::string& nodes) {
        std::string text = yaml;
        text.replace(text.find("NODES"), 5, nodes);
        return text;
    };
    CHECK(read_text(with(h255), "t.yaml").nodes[1].name == h255);
    CHECK_THAT(error_of(with(h255 + "h"), "bad.yaml"),
               StartsWith("bad.yaml:5: host name 'hhh") && Contains("is 256 bytes long"));
    // A YAML escape makes a control character of printable text.
    CHECK(error_of(with("\"a\\u009b\""), "bad.yaml") ==
          "bad.yaml:5: host name 'a\\xc2\\x9b' holds the control character U+009B at byte 2");
}

// ---------------------------------------------------------------------------
// topology.yaml

TEST_CASE("topology.yaml: the example of the Slurm manual (tree is the default)", "[slurm]") {
    const Fabric f = read_data("topology.yaml");
    CHECK(names_of(f, true) == Names{"sw_root", "s1", "s2"});
    CHECK(names_of(f, false) == numbered("node", 1, 4, 2));
    CHECK(links_of(f) == std::set<NamePair>{pair_of("sw_root", "s1"), pair_of("sw_root", "s2"),
                                            pair_of("s1", "node01"), pair_of("s1", "node02"),
                                            pair_of("s2", "node03"), pair_of("s2", "node04")});
    CHECK(f.nodes[0].line == 9);  // "- switch: sw_root"
    CHECK(f.nodes[3].line == 12); // node01, on s1's "nodes:" line
}

TEST_CASE("topology.yaml: block and flat topologies, default choice", "[slurm]") {
    const std::string block = "- topology: t\n"
                              "  cluster_default: false\n"
                              "  flat: true\n"
                              "- topology: blocks4\n"
                              "  cluster_default: yes\n"
                              "  block:\n"
                              "    block_sizes: [4, 16]\n"
                              "    blocks:\n"
                              "      - block: b1\n"
                              "        nodes: node[01-04]\n"
                              "      - {block: b2, nodes: [node05, \"node[06-08]\"]}\n";
    const Fabric b = read_text(block, "t.yaml");
    CHECK(names_of(b, true) == Names{"blocks", "b1", "b2"});
    CHECK(names_of(b, false) == numbered("node", 1, 8, 2));
    CHECK(links_of(b).count(pair_of("blocks", "b2")) == 1);
    CHECK(links_of(b).count(pair_of("b2", "node06")) == 1);
    CHECK(b.links.size() == 2 + 8);
    CHECK(b.nodes[0].line == 6); // the "block:" key

    // No default: the first topology, here flat. One switch, no hosts.
    const Fabric flat = read_text("---\n- topology: f\n  flat: true\n- topology: t\n  tree:\n"
                                  "    switches: [{switch: s, nodes: a}]\n",
                                  "t.yaml");
    REQUIRE(flat.nodes.size() == 1);
    CHECK(flat.nodes[0].name == "flat");
    CHECK(flat.nodes[0].is_switch);
    CHECK(flat.nodes[0].line == 3);
    CHECK(flat.links.empty());
}

TEST_CASE("topology.yaml: malformed input is refused at its line", "[slurm]") {
    const auto yaml_error = [](const std::string& text) { return error_of(text, "bad.yaml"); };
    CHECK_THAT(yaml_error("- topology: t\n  tree:\n    switches:\n      - switch: top\n"
                          "        children: s[1-2]\n      - switch: s1\n        nodes: a\n"),
               StartsWith("bad.yaml:5: ") && Contains("'s2'") && Contains("no switch: s2"));
    CHECK_THAT(yaml_error("- topology: t\n  tree:\n    switches:\n      - switch: s1\n"
                          "        node: a\n"),
               StartsWith("bad.yaml:5: ") && Contains("unknown key 'node'"));
    CHECK_THAT(yaml_error("- topology: t\n  tree:\n    switches:\n      - nodes: a\n"),
               StartsWith("bad.yaml:4: ") && Contains("switch: name"));
    CHECK_THAT(yaml_error("- topology: t\n  tree:\n    switches:\n      - switch: s1\n"
                          "        nodes: a\n      - switch: s1\n        nodes: b\n"),
               StartsWith("bad.yaml:6: ") && Contains("defined twice (first at line 4)"));
    CHECK_THAT(yaml_error("- topology: t\n  tree:\n    switches:\n      - switch: s1\n"
                          "        nodes: a\n        children: s2\n"),
               StartsWith("bad.yaml:4: ") && Contains("both nodes: and children:"));
    // A fuzzing finding: names with blanks, which no fabric may hold.
    CHECK_THAT(yaml_error("- topology: t\n  tree:\n    switches:\n      - switch: \"s 1\"\n"
                          "        nodes: n1\n"),
               StartsWith("bad.yaml:4: ") && Contains("switch name 's 1' is not a single word"));
    CHECK_THAT(yaml_error("- topology: t\n  block:\n    blocks:\n      - block: \"b\\t1\"\n"
                          "        nodes: n1\n"),
               StartsWith("bad.yaml:4: ") && Contains("is not a single word"));
    CHECK_THAT(yaml_error("- topology: t\n  tree:\n    switches:\n      - switch: ''\n"
                          "        nodes: n1\n"),
               StartsWith("bad.yaml:4: ") && Contains("switch name '' is not a single word"));
    CHECK_THAT(yaml_error("- topology: t\n  tree:\n    switches: [\n"),
               StartsWith("bad.yaml:") && !StartsWith("bad.yaml: "));
    CHECK_THAT(yaml_error("- topology: r\n  cluster_default: true\n  ring:\n    rings: []\n"),
               StartsWith("bad.yaml:3: ") && Contains("ring topology"));
    CHECK_THAT(yaml_error("- topology: t\n  cluster_default: maybe\n  flat: true\n"),
               StartsWith("bad.yaml:2: ") && Contains("true or false"));
    CHECK_THAT(yaml_error("- topology: t\n  flat: true\n  tree:\n    switches: []\n"),
               StartsWith("bad.yaml:3: ") && Contains("one type each"));
    CHECK_THAT(yaml_error("- topology: t\n  cluster_default: true\n"),
               StartsWith("bad.yaml:1: ") && Contains("no tree, block or flat"));
    CHECK_THAT(yaml_error("topology: t\nflat: true\n"),
               StartsWith("bad.yaml:1: ") && Contains("list of topologies"));
    CHECK_THAT(yaml_error("- topology: t\n  block:\n    blocks:\n      - block: b1\n"
                          "        nodes: n[1-2\n"),
               StartsWith("bad.yaml:5: ") && Contains("n[1-2"));
}

// ---------------------------------------------------------------------------
// Writing, and round trips

TEST_CASE("write_slurm_topology: the manual's tree, text and round trip", "[slurm]") {
    const Cluster c = to_cluster(read_data("topology-tree.conf"), "dev cluster");
    const std::string text = write(c);
    CHECK(text == "# topology.conf written by nettopo from dev cluster\n"
                  "SwitchName=s0 Nodes=dev[0-5]\n"
                  "SwitchName=s1 Nodes=dev[6-11]\n"
                  "SwitchName=s2 Nodes=dev[12-17]\n"
                  "SwitchName=s3 Switches=s[0-2]\n");
    const Cluster back = to_cluster(read_text(text, "written.conf"), "dev cluster");
    CHECK(switch_names(back) == switch_names(c));
    CHECK(machine_names(back) == machine_names(c));
    CHECK(links_of(back) == links_of(c));
    CHECK(write(back) == text);
}

TEST_CASE("write_slurm_topology: several parents, multi-homed nodes, uneven depths", "[slurm]") {
    const Fabric f = read_text("SwitchName=root Switches=s1,mid\n"
                               "SwitchName=spine2 Switches=s[1-2]\n"
                               "SwitchName=mid Switches=s2\n"
                               "SwitchName=s1 Nodes=n[1-10]\n"
                               "SwitchName=s2 Nodes=n[10-12],gpu01\n");
    const Cluster c = to_cluster(f);
    const std::string text = write(c);
    CHECK(text == "# topology.conf written by nettopo from lab\n"
                  "SwitchName=s1 Nodes=n[1-10]\n"
                  "SwitchName=s2 Nodes=gpu01,n[10-12]\n"
                  "SwitchName=mid Switches=s2\n"
                  "SwitchName=spine2 Switches=s[1-2]\n"
                  "SwitchName=root Switches=mid,s1\n");
    const Cluster back = to_cluster(read_text(text));
    CHECK(switch_names(back) == switch_names(c));
    CHECK(machine_names(back) == machine_names(c));
    CHECK(links_of(back) == links_of(c));
    CHECK(links_of(back) == links_of(f));
    CHECK(write(back) == text);
}

TEST_CASE("write_slurm_topology: generated fat-trees come back link for link", "[slurm]") {
    struct Case {
        const char* what;
        std::unique_ptr<Family> family;
    };
    std::vector<Case> cases;
    cases.push_back({"fat-tree 4 3", make_fat_tree(4, 3)});
    cases.push_back({"fat-tree 2 4", make_fat_tree(2, 4)});
    cases.push_back({"fat-tree 8 2", make_fat_tree(8, 2)});
    cases.push_back({"xgft, hosts on two switches", make_xgft({4, 3, 2}, {2, 2, 2})});
    cases.push_back({"binary tree C=2", make_binary_tree(3, 2)});
    for (const Case& k : cases) {
        INFO(k.what);
        const Cluster c = generate(*k.family, one_pu());
        if (std::string(k.what) == "binary tree C=2") {
            // Every router has machines and routers: not a Slurm tree.
            CHECK_THAT(usage_error_of(c), Contains("both have machines"));
            continue;
        }
        const std::string text = write(c);
        CHECK_THAT(text, StartsWith("# topology.conf written by nettopo from " + c.name() + "\n"));
        const Fabric f = read_text(text, "gen.conf");
        CHECK(links_of(f) == links_of(c));
        const Cluster back = to_cluster(f, c.name());
        CHECK(switch_names(back) == switch_names(c));
        CHECK(machine_names(back) == machine_names(c));
        CHECK(links_of(back) == links_of(c));
        // Generated links all have one bandwidth: LinkSpeed on every line,
        // which the reader leaves out.
        CHECK_THAT(text, Contains(" LinkSpeed="));
        CHECK(write(back) == without_link_speed(text));
        // The same tree through topology.yaml.
        const Fabric y = read_text(write_yaml(c), "gen.yaml");
        CHECK(links_of(y) == links_of(c));
        CHECK(write(to_cluster(y, c.name())) == without_link_speed(text));
    }
}

TEST_CASE("write_slurm_topology: LinkSpeed where the links below a switch share a bandwidth",
          "[slurm]") {
    ClusterBuilder b("speeds");
    const TypeId t = b.add_type(one_pu());
    const auto host = [&](const char* name) {
        return ClusterBuilder::Endpoint{false, b.add_machine(name, t).value};
    };
    const auto sw = [&](const char* name) {
        return ClusterBuilder::Endpoint{true, b.add_switch(name).value};
    };
    const auto top = sw("top"), same = sw("same"), mixed = sw("mixed"), unknown = sw("unknown");
    b.add_link(same, host("a1"), 1, 12.5);
    b.add_link(same, host("a2"), 1, 12.5);
    b.add_link(mixed, host("b1"), 1, 100);
    b.add_link(mixed, host("b2"), 1, 200);
    b.add_link(unknown, host("c1"), 1, 0);
    b.add_link(unknown, host("c2"), 1, 32);
    b.add_link(top, same, 1, 400);
    b.add_link(top, mixed, 1, 400);
    b.add_link(top, unknown, 1, 400);
    const Cluster c = std::move(b).build();
    const std::string text = write(c);
    CHECK(text == "# topology.conf written by nettopo from speeds\n"
                  "# LinkSpeed: Mbit/s of each link from the switch down to its children\n"
                  "SwitchName=mixed Nodes=b[1-2]\n"
                  "SwitchName=same Nodes=a[1-2] LinkSpeed=12500\n"
                  "SwitchName=unknown Nodes=c[1-2]\n"
                  "SwitchName=top Switches=mixed,same,unknown LinkSpeed=400000\n");
    // The reader takes LinkSpeed and keeps the tree.
    const Fabric back = read_text(text, "speeds.conf");
    CHECK(links_of(back) == links_of(c));
    // No bandwidth known anywhere: no LinkSpeed and no line about it.
    const Cluster manual = to_cluster(read_data("topology-tree.conf"));
    CHECK_THAT(write(manual), !Contains("LinkSpeed"));
}

TEST_CASE("write_slurm_topology_yaml: the manual's tree, quoting, round trip", "[slurm]") {
    const Cluster c = to_cluster(read_data("topology-tree.conf"), "dev cluster");
    const std::string text = write_yaml(c);
    CHECK(text == "# topology.yaml written by nettopo from dev cluster\n"
                  "---\n"
                  "- topology: default\n"
                  "  cluster_default: true\n"
                  "  tree:\n"
                  "    switches:\n"
                  "      - switch: s0\n"
                  "        nodes: dev[0-5]\n"
                  "      - switch: s1\n"
                  "        nodes: dev[6-11]\n"
                  "      - switch: s2\n"
                  "        nodes: dev[12-17]\n"
                  "      - switch: s3\n"
                  "        children: s[0-2]\n");
    const Fabric back = read_text(text, "written.yaml");
    CHECK(links_of(back) == links_of(c));
    CHECK(write_yaml(to_cluster(back, "dev cluster")) == text);

    // Names YAML would read as a boolean, a number or null stay strings.
    const Fabric odd = read_text("SwitchName=true Nodes=1,no,-x,null\n"
                                 "SwitchName=top Switches=true\n");
    const Cluster oc = to_cluster(odd);
    const std::string yaml = write_yaml(oc);
    CHECK_THAT(yaml, Contains("- switch: \"true\"\n") && Contains("nodes: \"-x,1,no,null\"\n") &&
                         Contains("children: \"true\"\n"));
    CHECK(links_of(read_text(yaml, "odd.yaml")) == links_of(oc));
}

TEST_CASE("write_slurm_topology refuses what is not a Slurm tree", "[slurm]") {
    // Direct networks: machines linked to machines.
    const Cluster torus = generate(*make_torus({4, 4}), one_pu());
    CHECK_THAT(usage_error_of(torus), Contains("machine 'n0' is linked to machine"));
    // With routers holding machines and linked together.
    const Cluster routed = generate(*make_torus({3, 3}, 1), one_pu());
    CHECK_THAT(usage_error_of(routed), Contains("both have machines"));

    const auto refused = [](const std::string& conf) {
        return usage_error_of(to_cluster(read_text(conf)));
    };
    // A switch with nothing below it.
    CHECK_THAT(refused("SwitchName=s1 Nodes=a\nSwitchName=lonely\n"),
               Contains("switch 'lonely' leads to no machine"));
    // A machine on no switch.
    ClusterBuilder b("x");
    const TypeId t = b.add_type(one_pu());
    b.add_machine("alone", t);
    b.add_machine("a", t);
    const SwitchId s = b.add_switch("s");
    b.add_link({true, s.value}, {false, 1}, 1);
    BuildOptions options;
    options.allow_disconnected = true;
    CHECK_THAT(usage_error_of(std::move(b).build(options)),
               Contains("machine 'alone' is linked to no switch"));
    // Names topology.conf cannot carry.
    ClusterBuilder named("x");
    const TypeId t2 = named.add_type(one_pu());
    named.add_machine("a#1", t2);
    const SwitchId s2 = named.add_switch("s");
    named.add_link({true, s2.value}, {false, 0}, 1);
    CHECK_THAT(usage_error_of(std::move(named).build()), Contains("'a#1'"));
}

TEST_CASE("hostlist: a count that would wrap around 64 bits is refused", "[slurm]") {
    // 18 ranges of 10^18 names and one of ~4.5e17 add up past 2^64.
    std::string ranges;
    for (int i = 0; i < 18; ++i) ranges += "0-999999999999999999,";
    ranges += "0-446744073709551620";
    CHECK_THROWS_AS(expand_hostlist("n[" + ranges + "]"), InputError);
}
