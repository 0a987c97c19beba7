// Graphviz drawing (dot_writer.hpp): the DOT text is read back by a small
// line parser written here, and its nodes and edges are checked against the
// cluster: every switch drawn, every machine drawn alone or inside exactly one
// collapsed box, one edge per link (one per box), names escaped so that they
// come back as written. Rendering runs Graphviz's `dot` when it is installed,
// and stand-in `dot` scripts otherwise, so the process handling is tested on
// machines without Graphviz (CI), as is the "dot is not installed" message.
#include "common/dot_highlight.hpp"
#include "common/dot_writer.hpp"
#include "common/drawing.hpp"
#include "dot_reader.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"
#include "testkit/temp_dir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <vector>

using namespace nettopo;
using Catch::Contains;
namespace fs = std::filesystem;

namespace {

using test::check_drawing;
using test::DrawnNode;
using test::parse_dot;

// The drawing of `c`, with machines collapsed as asked (default: automatic).
std::string dot_of(const Cluster& c, std::uint32_t collapse_above = collapse_auto) {
    DotOptions o;
    o.collapse_above = collapse_above;
    return test::dot_of(c, o);
}

test::Drawing parse(const std::string& text) {
    return parse_dot(text);
}

MachineType one_pu() {
    return synthetic_machine("pu:1", NodeLevel{});
}

// ---------------------------------------------------------------------------
// Files and the environment.
// ---------------------------------------------------------------------------

using test::read_file;
using test::TempDir;

// Where the tests' temporary directories are made.
constexpr std::string_view temp_prefix = "nettopo-dot-test-";

// Sets PATH for the scope of the object, then puts the old value back.
struct PathOverride {
    std::optional<std::string> old;
    explicit PathOverride(const std::string& value) {
        if (const char* p = std::getenv("PATH")) old = p;
        ::setenv("PATH", value.c_str(), 1);
    }
    ~PathOverride() {
        if (old)
            ::setenv("PATH", old->c_str(), 1);
        else
            ::unsetenv("PATH");
    }
    PathOverride(const PathOverride&) = delete;
    PathOverride& operator=(const PathOverride&) = delete;
};

// An executable shell script named `dot` in `dir`, standing in for Graphviz
// (PATH names only `dir` while it runs: the script sets its own).
void fake_dot(const fs::path& dir, const std::string& body) {
    const fs::path p = dir / "dot";
    std::ofstream(p) << "#!/bin/sh\nPATH=/usr/bin:/bin\n" << body << "\n";
    fs::permissions(p, fs::perms::owner_all);
}

bool graphviz_installed() {
    const char* env = std::getenv("PATH");
    std::istringstream dirs(env ? env : "");
    std::string dir;
    while (std::getline(dirs, dir, ':'))
        if (!dir.empty() && ::access((fs::path(dir) / "dot").c_str(), X_OK) == 0) return true;
    return false;
}

} // namespace

TEST_CASE("write_dot draws share/examples: nodes, edges, legend", "[dot]") {
    std::vector<fs::path> examples;
    for (const fs::directory_entry& e :
         fs::directory_iterator(fs::path(NETTOPO_SOURCE_DIR) / "share/examples"))
        if (e.path().extension() == ".topo") examples.push_back(e.path());
    std::sort(examples.begin(), examples.end());
    REQUIRE(examples.size() >= 3);
    for (const fs::path& p : examples) {
        INFO(p);
        const Cluster c = load_cluster(p.string());
        for (std::uint32_t collapse : {0u, 1u, 2u, 3u, 4u, 8u}) {
            INFO("collapse above " << collapse);
            check_drawing(c, collapse);
        }
    }
    // small-fattree: 4 hosts under each of 4 leaves.
    const Cluster tree = load_cluster(NETTOPO_SOURCE_DIR "/share/examples/small-fattree.topo");
    CHECK(check_drawing(tree, 3) == 4);
    CHECK(check_drawing(tree, 4) == 0);
    const test::Drawing d = parse(dot_of(tree, 2));
    REQUIRE(d.nodes.contains("leaf0/type0"));
    CHECK(d.nodes.at("leaf0/type0").label == "4 x type 0\nnode[01-04]");
    bool uplink = false;
    for (const test::Drawing::Edge& e : d.edges) {
        if (e.b == "leaf0/type0") CHECK((e.a == "leaf0" && e.label == "150 ns, 200 Gb/s"));
        // Core above leaf: the spine is written first; doubled uplinks say so.
        if (e.b == "leaf0" && e.a == "spine0") {
            uplink = true;
            CHECK(e.label == "300 ns x2, 200 Gb/s");
        }
    }
    CHECK(uplink);
    CHECK(d.graph_line == "graph \"small-fattree\" {");
    // The legend: one line, the type, its colour and its machines.
    REQUIRE(d.legend.size() == 1);
    CHECK(d.legend[0].text == "type 0: 32 PEs, pack:2 l3:1 core:8 pu:2; 16 machines: node[01-16]");
    CHECK(d.legend[0].colour == "#8dd3c7");
    // Automatic collapse of a small cluster: as --collapse 8.
    CHECK(dot_of(tree) == dot_of(tree, 8));
}

TEST_CASE("write_dot draws generated fat-trees with collapsed leaves", "[dot]") {
    // k-ary n-tree: k^n hosts, n k^(n-1) switches, k hosts per leaf switch.
    const Cluster c = generate(*make_fat_tree(4, 3), one_pu());
    REQUIRE(c.num_machines() == 64);
    REQUIRE(c.num_switches() == 48);
    CHECK(check_drawing(c, 0) == 0);
    CHECK(check_drawing(c, 3) == 16);
    CHECK(check_drawing(c, 4) == 0);
    const Cluster big = generate(*make_fat_tree(8, 2), one_pu());
    CHECK(check_drawing(big, 7) == 8);
    CHECK(check_drawing(big, 8) == 0);
    // k^n host links and (n-1) k^n between switches; collapsed: 16 boxes and
    // 48 switches, the 64 host links drawn as 16 edges.
    REQUIRE(c.num_net_links() == 64 + 2 * 64);
    const test::Drawing d = parse(dot_of(c, 3));
    CHECK(d.nodes.size() == 16 + 48);
    CHECK(d.edges.size() == 192 - 64 + 16);
}

TEST_CASE("write_dot collapses per switch and type, with latency ranges", "[dot]") {
    // Under sw0: a0..a4 of type 0 interleaved with b0..b4 of type 1, the
    // latencies of a* growing from 100 to 140; under sw1: c0, c1 of type 0;
    // x is linked to sw0 and to sw1 (degree 2), so never collapsed.
    ClusterBuilder b("mixed");
    const TypeId small = b.add_type(one_pu());
    const TypeId large = b.add_type(synthetic_machine("core:2 pu:2", NodeLevel{}));
    REQUIRE(small != large);
    const auto sw0 = b.add_switch("sw0").value, sw1 = b.add_switch("sw1").value;
    b.add_link({true, sw0}, {true, sw1}, 500, 100, 3);
    for (int i = 0; i < 5; ++i) {
        const auto a = b.add_machine(fmt::format("a{}", i), small).value;
        const auto m = b.add_machine(fmt::format("b{}", i), large).value;
        b.add_link({false, a}, {true, sw0}, 100 + 10 * i, 100);
        b.add_link({false, m}, {true, sw0}, 250, i == 2 ? 0 : 50, 2);
    }
    for (int i = 0; i < 2; ++i)
        b.add_link({false, b.add_machine(fmt::format("c{}", i), small).value}, {true, sw1}, 90);
    const auto x = b.add_machine("x", small).value;
    b.add_link({false, x}, {true, sw0}, 7);
    b.add_link({false, x}, {true, sw1}, 7);
    const Cluster c = std::move(b).build();

    CHECK(check_drawing(c, 4) == 2);
    CHECK(check_drawing(c, 1) == 3);
    CHECK(check_drawing(c, 5) == 0);
    const test::Drawing d = parse(dot_of(c, 4));
    REQUIRE(d.nodes.contains("sw0/type0"));
    REQUIRE(d.nodes.contains("sw0/type1"));
    CHECK(d.nodes.at("sw0/type0").label == "5 x type 0\na[0-4]");
    CHECK(d.nodes.at("sw0/type1").label == "5 x type 1\nb[0-4]");
    CHECK(d.nodes.contains("c0"));
    CHECK(d.nodes.contains("x"));
    std::map<std::string, std::string> label_to;
    for (const test::Drawing::Edge& e : d.edges) label_to[e.b] = e.label;
    CHECK(label_to["sw0/type0"] == "100-140 ns, 100 Gb/s");
    CHECK(label_to["sw0/type1"] == "250 ns x2"); // one bandwidth unknown: none shown
    CHECK(label_to["sw1"] == "500 ns x3, 100 Gb/s");
    // Two legend lines with their PE counts, colours and machines.
    REQUIRE(d.legend.size() == 2);
    CHECK(d.legend[0].text == "type 0: 1 PE, pu:1; 8 machines: a[0-4],c[0-1],x");
    CHECK(d.legend[1].text == "type 1: 4 PEs, core:2 pu:2; 5 machines: b[0-4]");
    CHECK(d.legend[0].colour == "#8dd3c7");
    CHECK(d.legend[1].colour == "#ffffb3");
    const std::string text = dot_of(c, 4);
    CHECK_THAT(text, Contains("\"sw0/type0\" [shape=box3d, fillcolor=\"#8dd3c7\""));
    CHECK_THAT(text, Contains("\"sw0/type1\" [shape=box3d, fillcolor=\"#ffffb3\""));
}

TEST_CASE("write_dot escapes quotes, backslashes and spaces in names", "[dot]") {
    // The last two take the IDs the box and the legend would have.
    const std::vector<std::string> machines = {
        "plain",  "with space",   "quote\"inside",          "back\\slash",
        "ends\\", "\\\"both\"\\", "switch \"one\"\\/type0", "legend"};
    ClusterBuilder b("the \"quoted\" \\ cluster");
    const TypeId t = b.add_type(one_pu());
    const auto sw = b.add_switch("switch \"one\"\\").value;
    for (const std::string& name : machines)
        b.add_link({false, b.add_machine(name, t).value}, {true, sw}, 1.5);
    const Cluster c = std::move(b).build();

    for (std::uint32_t collapse : {0u, 3u}) check_drawing(c, collapse);
    CHECK(parse(dot_of(c, 0)).legend_id == "legend'");
    const test::Drawing d = parse(dot_of(c, 0));
    for (const std::string& name : machines) {
        INFO(name);
        CHECK(d.nodes.contains(name));
    }
    CHECK(d.nodes.contains("switch \"one\"\\"));
    CHECK(d.graph_line == R"(graph "the \"quoted\" \\ cluster" {)");
    CHECK_THAT(dot_of(c, 0), Contains(R"(  "\\\"both\"\\" [shape=ellipse)"));
    // Collapsed: the box's label names the first and last machines escaped.
    const test::Drawing boxed = parse(dot_of(c, 3));
    REQUIRE(boxed.nodes.size() == 2);
    for (const auto& [id, node] : boxed.nodes) {
        if (node.shape != "box3d") continue;
        CHECK(id == "switch \"one\"\\/type0'");
        CHECK(node.label == "8 x type 0\nplain..legend (8 machines)");
    }
}

TEST_CASE("write_dot: unnamed cluster, machine-to-machine links", "[dot]") {
    ClusterBuilder b;
    const TypeId t = b.add_type(one_pu());
    for (int i = 0; i < 4; ++i) b.add_machine(fmt::format("m{}", i), t);
    for (std::uint32_t i = 0; i < 4; ++i) b.add_link({false, i}, {false, (i + 1) % 4}, 5);
    const Cluster c = std::move(b).build();
    CHECK(check_drawing(c, 1) == 0);
    const test::Drawing d = parse(dot_of(c));
    CHECK(d.graph_line == "graph {");
    REQUIRE(d.edges.size() == 4);
    CHECK(d.edges[0].a == "m0");
    CHECK(d.edges[0].b == "m1");
}

TEST_CASE("save_drawing writes DOT files atomically and refuses unknown extensions", "[dot]") {
    const Cluster c = load_cluster(NETTOPO_SOURCE_DIR "/share/examples/small-fattree.topo");
    TempDir dir(temp_prefix);
    const fs::path dot = dir.path / "t.dot", gv = dir.path / "t.GV";
    save_drawing(c, dot.string(), DotOptions{2, nullptr, true, {}});
    save_drawing(c, gv.string(), DotOptions{2, nullptr, true, {}});
    CHECK(read_file(dot) == dot_of(c, 2));
    CHECK(read_file(gv) == dot_of(c, 2));
    CHECK_THROWS_AS(save_drawing(c, (dir.path / "t.jpeg").string()), UsageError);
    CHECK_THROWS_AS(save_drawing(c, (dir.path / "t").string()), UsageError);
    CHECK_THROWS_WITH(save_drawing(c, (dir.path / "t.txt").string()),
                      Contains("expected .dot, .gv, .svg, .png or .pdf"));
    CHECK(dir.entries() == std::vector<std::string>{"t.GV", "t.dot"});
}

TEST_CASE("save_drawing says so when Graphviz's dot is not installed", "[dot]") {
    const Cluster c = load_cluster(NETTOPO_SOURCE_DIR "/share/examples/ring4.topo");
    TempDir dir(temp_prefix), empty_bin(temp_prefix);
    const PathOverride path(empty_bin.path.string());
    for (const char* ext : {"svg", "png", "pdf"}) {
        const fs::path target = dir.path / fmt::format("ring.{}", ext);
        try {
            save_drawing(c, target.string());
            FAIL("no error without dot");
        } catch (const UsageError&) {
            FAIL("a missing dot is not a usage error");
        } catch (const Error& e) {
            CHECK(std::string(e.what()) ==
                  fmt::format("cannot render {}: Graphviz's dot is not installed (apt-get "
                              "install graphviz); write {} instead",
                              target.string(), (dir.path / "ring.dot").string()));
        }
    }
    CHECK(dir.entries().empty());
    // A .dot file needs no Graphviz.
    save_drawing(c, (dir.path / "ring.dot").string());
    CHECK(dir.entries() == std::vector<std::string>{"ring.dot"});
}

TEST_CASE("save_drawing runs dot with the DOT text on its standard input", "[dot]") {
    const Cluster c = load_cluster(NETTOPO_SOURCE_DIR "/share/examples/small-fattree.topo");
    TempDir dir(temp_prefix), bin(temp_prefix);
    const PathOverride path(bin.path.string());

    SECTION("success: the output comes to the target by rename") {
        // "dot -Tpng -o FILE": the stand-in copies its input to FILE and logs its arguments.
        fake_dot(bin.path,
                 fmt::format("echo \"$@\" > '{}'; cat > \"$3\"", (bin.path / "args").string()));
        const fs::path target = dir.path / "fat.png";
        save_drawing(c, target.string(), DotOptions{3, nullptr, true, {}});
        CHECK(read_file(target) == dot_of(c, 3));
        const std::string args = read_file(bin.path / "args");
        // An unnamed file (O_TMPFILE) by its name under /proc, or where the
        // filesystem has none, a named temporary beside the target.
        CHECK((args.starts_with("-Tpng -o /proc/") ||
               args.starts_with("-Tpng -o " + target.string() + ".tmp.")));
        CHECK(dir.entries() == std::vector<std::string>{"fat.png"});
        struct stat st {};
        REQUIRE(::stat(target.c_str(), &st) == 0);
        const mode_t mask = ::umask(0);
        ::umask(mask);
        CHECK((st.st_mode & 0777) == (0666 & ~mask));
        // Replaced whole on a second drawing.
        save_drawing(c, target.string(), DotOptions{0, nullptr, true, {}});
        CHECK(read_file(target) == dot_of(c, 0));
        CHECK(dir.entries() == std::vector<std::string>{"fat.png"});
    }
    SECTION("failure: the exit status is reported and nothing is left") {
        fake_dot(bin.path, "cat > /dev/null; exit 3");
        const fs::path target = dir.path / "fat.svg";
        std::ofstream(target) << "old drawing";
        CHECK_THROWS_WITH(save_drawing(c, target.string()),
                          Contains("cannot render") && Contains("exit status 3"));
        CHECK(read_file(target) == "old drawing");
        CHECK(dir.entries() == std::vector<std::string>{"fat.svg"});
    }
    SECTION("a dot that stops reading early does not kill the caller") {
        fake_dot(bin.path, "exit 1");
        const Cluster big = generate(*make_fat_tree(16, 3), one_pu()); // MBs of DOT
        CHECK_THROWS_WITH(save_drawing(big, (dir.path / "big.pdf").string()),
                          Contains("exit status 1"));
        CHECK(dir.entries().empty());
    }
    SECTION("a dot killed by a signal") {
        fake_dot(bin.path, "kill -9 $$");
        CHECK_THROWS_WITH(save_drawing(c, (dir.path / "k.svg").string()), Contains("signal 9"));
        CHECK(dir.entries().empty());
    }
}

TEST_CASE("save_drawing renders SVG with Graphviz when it is installed", "[dot]") {
    if (!graphviz_installed()) {
        WARN("Graphviz's dot is not on PATH: rendering not checked");
        return;
    }
    TempDir dir(temp_prefix);
    for (const char* example : {"small-fattree.topo", "ring4.topo", "fig9b.topo"}) {
        const Cluster c =
            load_cluster(fmt::format("{}/share/examples/{}", NETTOPO_SOURCE_DIR, example));
        for (std::uint32_t collapse : {0u, 2u}) {
            const fs::path svg = dir.path / fmt::format("{}-{}.svg", example, collapse);
            save_drawing(c, svg.string(), DotOptions{collapse, nullptr, true, {}});
            const std::string text = read_file(svg);
            CHECK_THAT(text, Contains("<svg"));
            CHECK_THAT(text, Contains("</svg>"));
        }
    }
    // Names that need escaping are accepted by Graphviz too.
    ClusterBuilder b("q\"uote\\");
    const TypeId t = b.add_type(one_pu());
    const auto sw = b.add_switch("s \"1\"\\").value;
    for (const char* name : {"a\"b", "c\\", "d e"})
        b.add_link({false, b.add_machine(name, t).value}, {true, sw}, 1);
    const Cluster c = std::move(b).build();
    const fs::path svg = dir.path / "escaped.svg";
    save_drawing(c, svg.string(), DotOptions{0, nullptr, true, {}});
    CHECK_THAT(read_file(svg), Contains("<svg"));
}

// ---------------------------------------------------------------------------
// Drawings at a family's coordinates, and highlights.
// ---------------------------------------------------------------------------

namespace {

// The pos="x,y!" of a node line, in inches; nullopt when it has none.
std::optional<std::pair<double, double>> pos_of(const std::string& text, const std::string& id) {
    const std::regex pos("\n  \"" + id + R"(" \[[^\n]*pos="([-0-9.e]+),([-0-9.e]+)!"\];)");
    std::smatch m;
    if (!std::regex_search(text, m, pos)) return std::nullopt;
    return std::pair{std::stod(m[1]), std::stod(m[2])};
}

} // namespace

TEST_CASE("write_dot places generated direct networks at their family's coordinates", "[dot]") {
    for (const char* spec :
         {"torus --dims 4x4", "mesh --dims 3x3 --concentration 2", "torus --dims 3x3x2",
          "hypercube --dim 4 --concentration 3", "ring --machines 8 --concentration 2",
          "dragonfly --p 2", "torus --dims 3x3 --concentration 16"}) {
        INFO(spec);
        const Cluster c = generate(*family_from_spec(spec), one_pu());
        for (std::uint32_t collapse : {0u, 8u}) check_drawing(c, collapse);
        const std::string text = dot_of(c);
        const test::Drawing d = parse(text);
        CHECK(d.placed);
        // Every node pinned, no two at one place.
        std::set<std::pair<double, double>> places;
        for (const auto& [id, node] : d.nodes) {
            const auto p = pos_of(text, id);
            REQUIRE(p);
            CHECK(places.insert(*p).second);
        }
    }
    // Not placed: trees, and a cluster whose family record no longer fits it.
    CHECK_FALSE(parse(dot_of(generate(*make_fat_tree(4, 2), one_pu()))).placed);
    const Cluster torus = generate(*make_torus({4, 4}), one_pu());
    std::ostringstream layered;
    write_dot(torus, layered, DotOptions{8, nullptr, false, {}});
    CHECK_FALSE(parse(layered.str()).placed);
}

TEST_CASE("write_dot: a torus is its grid, its wrap-around links dashed", "[dot]") {
    const Cluster c = generate(*make_torus({4, 4}), one_pu());
    const std::string text = dot_of(c);
    const test::Drawing d = parse(text);
    // n(x + 4y) at (x, -y) grid steps from n0, a step the same across and down.
    const auto origin = pos_of(text, "n0");
    const auto right = pos_of(text, "n1");
    REQUIRE(origin);
    REQUIRE(right);
    const double step = right->first - origin->first;
    CHECK(step > 0.5);
    for (int r = 0; r < 16; ++r) {
        const auto p = pos_of(text, fmt::format("n{}", r));
        REQUIRE(p);
        CHECK(p->first == Approx(origin->first + step * (r % 4)));
        CHECK(p->second == Approx(origin->second - step * (r / 4)));
    }
    // Dashed: exactly the links between the ends of a row or a column.
    std::size_t dashed = 0;
    for (const test::Drawing::Edge& e : d.edges) {
        const int a = std::stoi(e.a.substr(1)), b = std::stoi(e.b.substr(1));
        const bool wraps = std::abs(a % 4 - b % 4) == 3 || std::abs(a / 4 - b / 4) == 3;
        INFO(e.a << " -- " << e.b);
        CHECK((e.attrs.find("style=dashed") != std::string::npos) == wraps);
        dashed += wraps;
        CHECK(e.label.empty()); // one label for all: in the title
    }
    CHECK(dashed == 8);
    CHECK_THAT(d.graph_line + text, Contains("links not labelled: 100 ns, 200 Gb/s (network)"));
}

TEST_CASE("Highlights: a path and an allocation as the search finds them", "[dot]") {
    const Cluster c = load_cluster(NETTOPO_SOURCE_DIR "/share/examples/small-fattree.topo");
    const Network& net = c.network();
    NetworkSearch search(net);
    const auto name_set = [&](const std::vector<bool>& flags) {
        std::set<std::string> names;
        for (std::uint32_t v = 0; v < flags.size(); ++v)
            if (flags[v]) names.insert(std::string(c.vertex_name(VertexId(v))));
        return names;
    };
    const auto link_count = [](const DotHighlight& h) {
        return std::count(h.links.begin(), h.links.end(), true);
    };

    // path:0,100 = path:node01,node04 = the search's path between the machines.
    const DotHighlight p = read_dot_highlight(c, "path:0,100");
    const auto want = search.path(VertexId(0), VertexId(3), PathMetric::Latency);
    REQUIRE(want);
    std::set<std::string> want_names;
    for (VertexId v : *want) want_names.insert(std::string(c.vertex_name(v)));
    CHECK(name_set(p.vertices) == want_names);
    CHECK(link_count(p) == static_cast<std::ptrdiff_t>(want->size() - 1));
    CHECK(p.caption == "path node01 - node04");
    CHECK(name_set(read_dot_highlight(c, "path:node01,node04").vertices) == want_names);
    // The same machine: itself, no link.
    const DotHighlight self = read_dot_highlight(c, "path:0,31");
    CHECK(name_set(self.vertices) == std::set<std::string>{"node01"});
    CHECK(link_count(self) == 0);

    // An allocation under two leaves: its machines, both leaves, one spine.
    const DotHighlight a = read_dot_highlight(c, "node[01-02,05]");
    const std::set<std::string> lit = name_set(a.vertices);
    CHECK(lit.contains("node01"));
    CHECK(lit.contains("node05"));
    CHECK(lit.contains("leaf0"));
    CHECK(lit.contains("leaf1"));
    CHECK(lit.size() == 6);
    CHECK(link_count(a) == 5); // a tree over 6 vertices
    CHECK(a.caption == "3 machines: node[01-02,05]");
    // Repeats count once.
    CHECK(read_dot_highlight(c, "node01,node05,node01").caption == "2 machines: node[01,05]");

    // Where machines forward (a line n0 - n1 - n2), a machine an earlier
    // path passed through is still one of those asked for.
    const Cluster line = generate_from_spec("mesh --dims 3");
    const DotHighlight through = read_dot_highlight(line, "n0,n2,n1");
    CHECK(through.caption == "3 machines: n[0,2,1]");
    CHECK(through.caption == read_dot_highlight(line, "n0,n2,n1,n2").caption);
    CHECK(std::count(through.vertices.begin(), through.vertices.end(), true) == 3);

    // Errors name the text and what is wrong.
    CHECK_THROWS_AS(read_dot_highlight(c, "path:0"), ValueError);
    CHECK_THROWS_AS(read_dot_highlight(c, "path:0,1,2"), ValueError);
    CHECK_THROWS_AS(read_dot_highlight(c, "path:,1"), ValueError);
    CHECK_THROWS_WITH(read_dot_highlight(c, "path:0,512"), Contains("PE 512 is out of range"));
    CHECK_THROWS_WITH(read_dot_highlight(c, "path:0,nodeX"), Contains("no machine named 'nodeX'"));
    CHECK_THROWS_WITH(read_dot_highlight(c, "node[01-03,20-22],x"),
                      Contains("no machine named node[20-22],x"));
    CHECK_THROWS_AS(read_dot_highlight(c, "node[01-"), ValueError);

    // A highlight of another cluster is refused.
    const Cluster ring = load_cluster(NETTOPO_SOURCE_DIR "/share/examples/ring4.topo");
    std::ostringstream out;
    CHECK_THROWS_AS(write_dot(ring, out, DotOptions{8, &a, true, {}}), UsageError);
}

TEST_CASE("write_dot colours the highlight, greys the rest, splits collapsed boxes", "[dot]") {
    const Cluster c = load_cluster(NETTOPO_SOURCE_DIR "/share/examples/small-fattree.topo");
    const DotHighlight h = read_dot_highlight(c, "node[01-03]");
    std::ostringstream out;
    write_dot(c, out, DotOptions{2, &h, true, {}});
    const test::Drawing d = parse(out.str());
    // leaf0's 4 hosts: node01-03 highlighted (3 > 2: a box), node04 alone.
    REQUIRE(d.nodes.contains("leaf0/type0/highlighted"));
    CHECK(d.nodes.at("leaf0/type0/highlighted").label == "3 x type 0\nnode[01-03]");
    CHECK(d.nodes.contains("node04"));
    CHECK_FALSE(d.nodes.contains("leaf0/type0/others"));
    CHECK(d.nodes.contains("leaf1/type0")); // nothing highlighted there: not split
    const std::string text = out.str();
    CHECK_THAT(text, Contains("\"leaf0\" [shape=box, fillcolor=\"#fdae61\", color=\"#d7191c\""));
    CHECK_THAT(text, Contains("\"spine0\" [shape=box, fillcolor=\"#f0f0f0\""));
    for (const test::Drawing::Edge& e : d.edges) {
        INFO(e.a << " -- " << e.b);
        const bool lit = e.b == "leaf0/type0/highlighted";
        CHECK((e.attrs.find("color=\"#d7191c\"") != std::string::npos) == lit);
    }
}
