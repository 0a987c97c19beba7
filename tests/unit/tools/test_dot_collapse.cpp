// Drawings of large fabrics (dot_writer.hpp, issue 27 part 6): hosts cabled
// to the same switches collapse into one box with one edge per switch,
// switches of a tier into boxes when the drawing collapses by itself, rails
// in colour from DotOptions::switch_rail, and a legend of one line per kind.
// Each drawing is checked against the cluster by dot_reader's independent
// grouping; tools.draw_sizes renders the real fabrics and measures them.
#include "common/dot_fit.hpp"
#include "common/dot_groups.hpp"
#include "common/dot_highlight.hpp"
#include "common/dot_legend.hpp"
#include "common/dot_rails.hpp"
#include "common/dot_writer.hpp"
#include "dot_reader.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Contains;
using test::check_drawing;
using test::parse_dot;

namespace {

MachineType one_pu() {
    return synthetic_machine("pu:1", NodeLevel{});
}

// U units of H hosts, R rails, spines as the family's default (U*R/2, at least 1).
Cluster rail_cluster(std::uint32_t units, std::uint32_t hosts, std::uint32_t rails) {
    return generate(*make_rail_optimized(units, hosts, rails, std::max(1u, units * rails / 2)),
                    one_pu());
}

DotOptions options(std::uint32_t collapse_above, const DotHighlight* lit = nullptr,
                   std::vector<std::uint32_t> rails = {}) {
    DotOptions o;
    o.collapse_above = collapse_above;
    o.highlight = lit;
    o.switch_rail = std::move(rails);
    return o;
}

const test::Drawing::Edge* edge(const test::Drawing& d, std::string_view a, std::string_view b) {
    for (const test::Drawing::Edge& e : d.edges)
        if (e.a == a && e.b == b) return &e;
    return nullptr;
}

} // namespace

TEST_CASE("write_dot collapses the hosts of a unit, cabled to its rail leaves, into one box",
          "[dot]") {
    // 2 units of 4 hosts, 2 rails: leaf0, leaf1 (unit 0), leaf2, leaf3, 2 spines.
    const Cluster c = rail_cluster(2, 4, 2);
    REQUIRE(c.num_switches() == 6);
    CHECK(check_drawing(c, 3) == 2);
    CHECK(check_drawing(c, 4) == 0);
    CHECK(check_drawing(c, 0) == 0);
    const test::Drawing d = parse_dot(test::dot_of(c, options(3)));
    REQUIRE(d.nodes.contains("leaf0+1/type0"));
    CHECK(d.nodes.at("leaf0+1/type0").label == "4 x type 0\nn[0-3]");
    CHECK(d.nodes.at("leaf2+1/type0").label == "4 x type 0\nn[4-7]");
    // One edge per leaf, labelled with its cables' ranges.
    for (const char* leaf : {"leaf0", "leaf1"}) {
        const auto* e = edge(d, leaf, "leaf0+1/type0");
        REQUIRE(e);
        CHECK(e->label == "200 ns, 200 Gb/s");
    }
    CHECK_FALSE(edge(d, "leaf2", "leaf0+1/type0"));
    // Tiers on rows: the leaves, the spines.
    REQUIRE(d.tiers.size() == 2);
    CHECK(d.tiers[0] == std::vector<std::string>{"leaf0", "leaf1", "leaf2", "leaf3"});
    CHECK(d.tiers[1] == std::vector<std::string>{"spine0", "spine1"});

    // A highlight splits a unit's box into its highlighted part and the others.
    const DotHighlight h = read_dot_highlight(c, "n[0-1]");
    const test::Drawing lit = parse_dot(test::dot_of(c, options(1, &h)));
    CHECK(lit.nodes.at("leaf0+1/type0/highlighted").label == "2 x type 0\nn[0-1]");
    CHECK(lit.nodes.at("leaf0+1/type0/others").label == "2 x type 0\nn[2-3]");
    CHECK(lit.nodes.contains("leaf2+1/type0"));
}

TEST_CASE("Automatic collapse: switches too, until every row fits a screen", "[dot]") {
    SECTION("4 units: 32 leaves on a row, the 16 spines one box") {
        const Cluster c = rail_cluster(4, 32, 8);
        check_drawing(c);
        const test::Drawing d = parse_dot(test::dot_of(c));
        CHECK_FALSE(d.left_to_right);
        REQUIRE(d.nodes.contains("spine0..spine15"));
        const test::DrawnNode& spines = d.nodes.at("spine0..spine15");
        CHECK(spines.label == "16 switches\nspine[0-15]");
        CHECK(spines.members.size() == 16);
        CHECK(d.nodes.size() == 4 + 32 + 1);
        const auto* up = edge(d, "spine0..spine15", "leaf0");
        REQUIRE(up);
        CHECK(up->label == "16 links"); // latency and bandwidth: in the title
        CHECK_THAT(d.graph_attrs,
                   Contains("links not labelled: 100 ns, 200 Gb/s (network); 200 ns, 200 Gb/s "
                            "(machine to switch)"));
    }
    SECTION("32 units, 1,024 hosts: a box of leaves per unit, left to right") {
        const Cluster c = rail_cluster(32, 32, 8);
        check_drawing(c);
        const test::Drawing d = parse_dot(test::dot_of(c));
        CHECK(d.left_to_right);
        CHECK(d.nodes.size() == 32 + 32 + 1);
        REQUIRE(d.nodes.contains("leaf8..leaf15"));
        CHECK(d.nodes.at("leaf8..leaf15").label == "8 switches\nleaf[8-15]");
        const auto* down = edge(d, "leaf8..leaf15", "leaf8+7/type0");
        REQUIRE(down);
        CHECK(down->label == "256 links");
        CHECK(edge(d, "spine0..spine127", "leaf8..leaf15")->label == "1024 links");
    }
    SECTION("a small cluster: a unit's hosts one box (from 2), the rest as --collapse 8") {
        const Cluster c = rail_cluster(2, 4, 2);
        CHECK(test::dot_of(c) == test::dot_of(c, options(1)));
        CHECK(test::dot_of(rail_cluster(2, 2, 2)) ==
              test::dot_of(rail_cluster(2, 2, 2), options(1)));
        CHECK(test::dot_of(rail_cluster(2, 1, 2)) ==
              test::dot_of(rail_cluster(2, 1, 2), options(8)));
    }
    SECTION("switches linked to each other in one box: the links are counted in its label") {
        // 60 pairs of leaves, each pair linked and cabled to the same two hosts:
        // too wide for any row, so every pair is a box.
        ClusterBuilder b("pairs");
        const TypeId t = b.add_type(one_pu());
        const auto top = b.add_switch("top").value;
        for (int p = 0; p < 60; ++p) {
            const auto l = b.add_switch(fmt::format("l{}a", p)).value;
            const auto r = b.add_switch(fmt::format("l{}b", p)).value;
            b.add_link({true, l}, {true, r}, 10);
            b.add_link({true, l}, {true, top}, 10);
            for (int h = 0; h < 2; ++h) {
                const auto m = b.add_machine(fmt::format("h{}-{}", p, h), t).value;
                b.add_link({false, m}, {true, l}, 20);
                b.add_link({false, m}, {true, r}, 20);
            }
        }
        const Cluster c = std::move(b).build();
        check_drawing(c);
        const test::Drawing d = parse_dot(test::dot_of(c));
        REQUIRE(d.nodes.contains("l7a..l7b"));
        CHECK(d.nodes.at("l7a..l7b").label == "2 switches\nl7a,l7b\n1 link between them");
        CHECK(d.nodes.at("l7a..l7b").members == std::vector<std::string>{"l7a", "l7b"});
    }
}

TEST_CASE("Rails: leaves in their rail's colour, and the cables below them", "[dot]") {
    const Cluster c = rail_cluster(2, 4, 2);
    const std::vector<std::uint32_t> rails = {0, 1, 0, 1, no_rail, no_rail};
    // The rails of the cluster's adapters (the family gives each host's).
    CHECK(detail::switch_rails(c) == rails);
    check_drawing(c, options(3, nullptr, rails));
    const std::string text = test::dot_of(c, options(3, nullptr, rails));
    const test::Drawing d = parse_dot(text);
    CHECK_THAT(text, Contains("  \"leaf0\" [shape=box, fillcolor=\"#66c2a5\"];"));
    CHECK_THAT(text, Contains("  \"leaf1\" [shape=box, fillcolor=\"#fc8d62\"];"));
    CHECK_THAT(text, Contains("  \"spine0\" [shape=box, fillcolor=\"#d9d9d9\"];"));
    CHECK(edge(d, "leaf0", "leaf0+1/type0")->attrs ==
          "label=\"200 ns, 200 Gb/s\", color=\"#1b9e77\", penwidth=1.5");
    CHECK(edge(d, "leaf3", "leaf2+1/type0")->attrs ==
          "label=\"200 ns, 200 Gb/s\", color=\"#d95f02\", penwidth=1.5");
    CHECK(edge(d, "spine0", "leaf0")->attrs == "label=\"100 ns, 200 Gb/s\""); // not a rail cable
    REQUIRE(d.legend.size() == 3);
    CHECK(d.legend[1].text == "rail 0: 2 switches: leaf[0,2]");
    CHECK(d.legend[1].colour == "#66c2a5");
    CHECK(d.legend[2].text == "rail 1: 2 switches: leaf[1,3]");
    // Without rails: grey leaves, black cables, no rail in the legend.
    const test::Drawing plain = parse_dot(test::dot_of(c, options(3)));
    CHECK(edge(plain, "leaf0", "leaf0+1/type0")->attrs == "label=\"200 ns, 200 Gb/s\"");
    CHECK(plain.legend.size() == 1);
    // With a highlight: a highlighted leaf keeps its rail's fill, cables are red or grey.
    const DotHighlight h = read_dot_highlight(c, "n[0-1]");
    const std::string lit = test::dot_of(c, options(3, &h, rails));
    CHECK_THAT(lit, Contains("[shape=box, fillcolor=\"#66c2a5\", color=\"#d7191c\"") ||
                        Contains("[shape=box, fillcolor=\"#fc8d62\", color=\"#d7191c\""));
    CHECK_THAT(lit, !Contains("#fdae61")); // not the orange of a switch on no rail

    // A box of a unit's leaves: grey, its rails in its label; the cables below
    // it a ribbon of the rails' colours.
    const Cluster big = rail_cluster(32, 32, 8);
    const std::vector<std::uint32_t> big_rails = detail::switch_rails(big);
    REQUIRE(big_rails.size() == 256 + 128);
    CHECK(big_rails[13] == 5);
    check_drawing(big, options(collapse_auto, nullptr, big_rails));
    const test::Drawing ribbon =
        parse_dot(test::dot_of(big, options(collapse_auto, nullptr, big_rails)));
    CHECK(ribbon.nodes.at("leaf8..leaf15").label == "8 switches\nleaf[8-15]\nrails 0-7");
    CHECK_THAT(ribbon.nodes.at("leaf8..leaf15").attrs, Contains("fillcolor=\"#d9d9d9\""));
    CHECK_THAT(
        edge(ribbon, "leaf8..leaf15", "leaf8+7/type0")->attrs,
        Contains("color=\"#1b9e77:#d95f02:#7570b3:#e7298a:#66a61e:#e6ab02:#a6761d:#1f78b4\""));
    CHECK(ribbon.legend.size() == 1 + 8);
    CHECK(ribbon.legend[8].text == "rail 7: 32 switches: leaf[7,15,23,31,39,47,55,63] and 24 more");

    // Rails of another cluster; a cluster without adapters has none.
    std::ostringstream out;
    CHECK_THROWS_AS(write_dot(c, out, options(3, nullptr, {0, 1})), UsageError);
    CHECK(detail::switch_rails(generate(*make_fat_tree(4, 2), one_pu())).empty());
    ClusterBuilder b("edited");
    b.set_family(c.family());
    const TypeId t = b.add_type(one_pu());
    b.add_link({false, b.add_machine("n0", t).value}, {true, b.add_switch("leaf0").value}, 1);
    CHECK(detail::switch_rails(std::move(b).build()).empty());
}

TEST_CASE("A box of switches says which of its members are highlighted", "[dot]") {
    const Cluster c = rail_cluster(32, 32, 8);
    const DotHighlight h = read_dot_highlight(c, "path:n0,n1023");
    const test::Drawing d = parse_dot(test::dot_of(c, options(collapse_auto, &h)));
    // One spine of 128 and one leaf of each end's unit on the path.
    const test::DrawnNode& spines = d.nodes.at("spine0..spine127");
    CHECK_THAT(spines.label, Contains("\n1 highlighted: spine"));
    CHECK_THAT(spines.attrs, Contains("color=\"#d7191c\""));
    CHECK_THAT(d.nodes.at("leaf0..leaf7").label, Contains("\n1 highlighted: leaf"));
    CHECK_THAT(d.nodes.at("leaf8..leaf15").attrs, Contains("color=\"#bdbdbd\""));
    std::size_t lit_edges = 0;
    for (const test::Drawing::Edge& e : d.edges)
        lit_edges += e.attrs.find("color=\"#d7191c\"") != std::string::npos;
    // n0's box to its leaves, the leaves to the spines, the spines to n1023's leaves, to n1023:
    // each a drawn edge holding a highlighted link.
    CHECK(lit_edges == 4);
}

TEST_CASE("The legend: one line per machine type however many machines are highlighted", "[dot]") {
    // 17 types (plafrim has 17), a job on all of them.
    ClusterBuilder b("types");
    const auto sw = b.add_switch("sw").value;
    std::vector<std::string> names;
    for (int k = 1; k <= 17; ++k) {
        const TypeId t = b.add_type(synthetic_machine(fmt::format("pu:{}", k), NodeLevel{}));
        for (int m = 0; m < 2; ++m) {
            names.push_back(fmt::format("t{:02}n{}", k, m));
            b.add_link({false, b.add_machine(names.back(), t).value}, {true, sw}, 1);
        }
    }
    const Cluster c = std::move(b).build();
    const DotHighlight h = read_dot_highlight(c, "t[01-17]n0");
    check_drawing(c, options(collapse_auto));
    const test::Drawing d = parse_dot(test::dot_of(c, options(collapse_auto, &h)));
    REQUIRE(d.legend.size() == 17);
    CHECK(d.legend[16].text == "type 16: 17 PEs, pu:17; 2 machines: t17n[0-1]");
    // One node, a table of 17 lines: a few inches each way, where 17 entries
    // side by side took 7,246 px.
    std::vector<detail::LegendLine> lines;
    for (const test::LegendRow& row : d.legend) lines.push_back({row.colour, row.text});
    const detail::Extent e = detail::legend_extent(lines);
    CHECK(e.width < 4);
    CHECK(e.height < 4);
}

TEST_CASE("Row estimates: nodes side by side, labels between tiers, columns left to right",
          "[dot]") {
    using detail::Extent;
    using detail::NodeShape;
    const Extent small = detail::node_extent("n1", NodeShape::box);
    CHECK(small.width == Approx(0.75)); // Graphviz's least width
    CHECK(small.height == Approx(0.5));
    const Extent wide = detail::node_extent("S-b8cef60300617c9a", NodeShape::box);
    CHECK(wide.width == Approx(18 * 0.55 * 10 / 72 + 0.22));
    CHECK(detail::node_extent("a\nb\nc\nd", NodeShape::box).height ==
          Approx(4 * 1.2 * 10 / 72 + 0.11));
    CHECK(detail::node_extent("node001", NodeShape::ellipse).width >
          detail::node_extent("node001", NodeShape::box).width);
    detail::Rows rows;
    for (int i = 0; i < 10; ++i) rows.add_node(1, small);
    rows.add_node(0, wide);
    rows.add_label(1, 0, detail::edge_label_extent("200 ns"));
    CHECK(rows.widest(false) == Approx(10 * (0.75 + 0.25)));
    CHECK(rows.widest(true) == Approx(10 * (0.5 + 0.25)));
}
