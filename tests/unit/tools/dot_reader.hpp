// A minimal reader of the DOT that write_dot produces (one statement a line),
// and a check of a drawing against its cluster written independently of the
// writer: every vertex drawn alone or in exactly one box, boxes holding what
// the grouping rule says, one edge per link between two nodes drawn alone
// and one per pair of nodes for the links into a box. Shared by the drawing
// tests (test_dot_writer.cpp, test_dot_collapse.cpp).
#pragma once

#include "common/dot_writer.hpp"
#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nettopo::test {

struct DrawnNode {
    std::string shape, label;         // label: empty when the node shows its ID
    std::string attrs;                // the whole attribute list
    bool switch_box = false;          // a box of switches (peripheries=2)
    std::vector<std::string> members; // of a box: its machines or switches
};

struct LegendRow {
    std::string colour, text;
};

struct Drawing {
    std::string graph_line, graph_attrs;
    std::map<std::string, DrawnNode> nodes;      // machines, switches, boxes, by ID
    std::vector<std::string> node_order;         // IDs in the order written
    std::string legend_id;                       // the legend node
    std::vector<LegendRow> legend;               // its lines
    std::vector<std::vector<std::string>> tiers; // rank=same groups
    struct Edge {
        std::string a, b, label, attrs; // label as Graphviz shows it; attrs: the whole list
    };
    std::vector<Edge> edges;
    bool placed = false;        // nodes at a family's coordinates (layout=neato)
    bool left_to_right = false; // rankdir=LR
};

// Parses write_dot's output; REQUIREs every line to be one it writes.
Drawing parse_dot(const std::string& text);

// The members of a box from its label (machines: line 2, a hostlist or
// "first..last (N machines)", which gives only the two ends) or its tooltip
// (switches: every name).
std::vector<std::string> box_members(const DrawnNode& node);

std::string dot_of(const Cluster& c, const DotOptions& options = {});

// Checks the drawing against the cluster, as described above; with an
// explicit collapse_above also which machines are boxed (those cabled to
// the same switches, of one type, more than collapse_above of them) and
// that no switch is. Returns the number of boxes of machines.
std::size_t check_drawing(const Cluster& c, const DotOptions& options = {});
std::size_t check_drawing(const Cluster& c, std::uint32_t collapse_above);

} // namespace nettopo::test
