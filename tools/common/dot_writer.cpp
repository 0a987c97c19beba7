// Graphviz DOT drawing of a cluster's network (dot_writer.hpp).
#include "common/dot_writer.hpp"

#include "common/dot_groups.hpp"
#include "common/dot_layout.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace nettopo {

namespace {

using detail::box_members;
using detail::DotGroup;
using detail::DotGroups;
using detail::family_layout;
using detail::group_hanging_machines;
using detail::group_label;
using detail::has_other_part;
using detail::Layout;
using detail::levels;
using detail::place;
using detail::Places;
using detail::position;

constexpr std::uint32_t none = ~0u;

// ColorBrewer's Set3 without its grey, which is the switches' colour.
constexpr std::array<std::string_view, 11> type_colours = {
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
    "#b3de69", "#fccde5", "#bc80bd", "#ccebc5", "#ffed6f"};
constexpr std::string_view switch_colour = "#d9d9d9";

std::string_view colour_of(TypeId t) {
    return type_colours[t.value % type_colours.size()];
}

// The inside of a DOT double-quoted string. Graphviz keeps "\\" as written
// and shows it as one backslash in a label, and reads "\"" as a quote, so a
// name comes back as written and two names never become one ID. A newline
// is written "\n" so that every statement stays on one line.
std::string escaped(std::string_view s) {
    std::string e;
    e.reserve(s.size());
    for (char c : s) {
        if (c == '\n') {
            e += "\\n";
            continue;
        }
        if (c == '\r') continue;
        if (c == '"' || c == '\\') e += '\\';
        e += c;
    }
    return e;
}

std::string dot_string(std::string_view s) {
    return fmt::format("\"{}\"", escaped(s));
}

std::string link_label(const Link& l) {
    std::string s = fmt::format("{} ns", format_number(l.latency_ns));
    if (l.multiplicity > 1) s += fmt::format(" x{}", l.multiplicity);
    if (l.bandwidth_gbps > 0) s += fmt::format(", {} Gb/s", format_number(l.bandwidth_gbps));
    return s;
}

// IDs for the nodes that are not a machine or a switch (legend entries,
// collapsed groups): readable, and never the name of a machine or switch.
class ExtraIds {
public:
    explicit ExtraIds(const Cluster& c) : cluster_(c) {}
    std::string make(std::string id) {
        while (cluster_.find_vertex(id) || used_.contains(id)) id += '\'';
        used_.insert(id);
        return id;
    }

private:
    const Cluster& cluster_;
    std::unordered_set<std::string> used_;
};

// The label written on most edges of a kind, said once in the title (empty
// when there is none).
std::string most_common(const std::vector<std::string>& labels) {
    std::map<std::string, std::size_t> count;
    for (const std::string& l : labels) ++count[l];
    std::string best;
    std::size_t most = 0;
    for (const auto& [label, n] : count)
        if (n > most) {
            best = label;
            most = n;
        }
    return best;
}

// Colours of a highlight: the highlighted in red, the rest in light grey.
constexpr std::string_view lit_colour = "#d7191c", lit_switch_fill = "#fdae61";
constexpr std::string_view dim_fill = "#f0f0f0", dim_line = "#bdbdbd", dim_text = "#969696";

// What every part of a drawing reads: the cluster, its highlight (nullptr:
// none), its family's layout (empty: drawn in layers), its machines'
// groups and, when placed, where each vertex and box goes.
struct Drawing {
    const Cluster& c;
    const DotHighlight* lit;
    Layout layout;
    DotGroups groups;
    Places places;

    const Network& net() const { return c.network(); }
    bool placed() const { return !layout.points.empty(); }
    bool lit_vertex(VertexId v) const { return !lit || lit->vertices[v.value]; }
    // A node's position attribute after its others, when placed.
    std::string at(PlanePoint p) const { return placed() ? ", " + position(p) : std::string(); }
    std::string at_vertex(std::uint32_t v) const {
        return placed() ? at(places.vertices[v]) : std::string();
    }
    std::string at_box(std::uint32_t g) const {
        return placed() ? at(places.groups[g]) : std::string();
    }
};

void check_highlight(const Network& net, const DotHighlight* lit) {
    if (lit && (lit->vertices.size() != net.num_vertices() || lit->links.size() != net.num_links()))
        throw UsageError("a drawing's highlight does not match the cluster drawn");
}

// A box is named after its switch and type; the highlighted part of a
// switch's machines is named apart from the others.
void name_boxes(const Cluster& c, DotGroups& d, ExtraIds& ids) {
    for (std::uint32_t i = 0; i < d.groups.size(); ++i) {
        DotGroup& g = d.groups[i];
        if (!g.collapsed) continue;
        const bool split = has_other_part(d, i);
        g.id = ids.make(fmt::format("{}/type{}{}", c.switch_name(SwitchId(g.sw)), g.type.value,
                                    split ? (g.lit ? "/highlighted" : "/others") : ""));
    }
}

struct Edge {
    VertexId a, b;
    const DotGroup* box = nullptr; // the edge from a switch to this box
    std::string label;
    bool to_machine = false; // from a switch to a machine hanging off it
    bool lit = false, wraps = false;
};

// The edges with their labels, one per link and one per box, before any
// is written: a drawing at a family's coordinates says the most common
// labels once, in the title.
std::vector<Edge> collect_edges(const Drawing& d) {
    const Network& net = d.net();
    std::vector<Edge> edges;
    std::vector<bool> box_drawn(d.groups.groups.size(), false);
    const std::vector<std::uint32_t> level = levels(net);
    for (std::uint32_t id = 0; id < net.num_links(); ++id) {
        const Link& l = net.links()[id];
        const DotGroup* g = d.groups.box_of(net, l.a);
        if (!g) g = d.groups.box_of(net, l.b);
        if (g) {
            const auto box = static_cast<std::size_t>(g - d.groups.groups.data());
            if (box_drawn[box]) continue;
            box_drawn[box] = true;
            edges.push_back({d.c.vertex(SwitchId(g->sw)), VertexId{}, g, group_label(*g), true,
                             !d.lit || g->lit_links, false});
            continue;
        }
        VertexId a = l.a, b = l.b;
        if (level[a.value] != none && (level[b.value] == none || level[a.value] < level[b.value]))
            std::swap(a, b);
        edges.push_back({a, b, nullptr, link_label(l),
                         d.groups.hangs(net, b) || d.groups.hangs(net, a),
                         !d.lit || d.lit->links[id],
                         d.placed() && d.layout.family->wraps_around(l.a.value, l.b.value)});
    }
    return edges;
}

// The labels said once in the title of a placed drawing, of the network's
// edges and of the machines' edges (empty: none).
struct CommonLabels {
    std::string network, hosts;
    const std::string& of(const Edge& e) const { return e.to_machine ? hosts : network; }
};

CommonLabels common_labels(const std::vector<Edge>& edges) {
    std::vector<std::string> network, hosts;
    for (const Edge& e : edges) (e.to_machine ? hosts : network).push_back(e.label);
    return {most_common(network), most_common(hosts)};
}

// The title: the cluster's name and size, the labels not written on
// edges, and what is highlighted.
std::string graph_label(const Drawing& d, const CommonLabels& common) {
    const Cluster& c = d.c;
    const std::string title = c.name().empty() ? std::string("cluster") : c.name();
    std::string label =
        fmt::format("{}: {}, {}, {}", escaped(title), counted(c.num_machines(), "machine"),
                    counted(c.num_switches(), "switch"), counted(c.num_net_links(), "link"));
    if (!common.network.empty() || !common.hosts.empty()) {
        std::string unlabelled;
        if (!common.network.empty()) unlabelled = common.network + " (network)";
        if (!common.hosts.empty())
            unlabelled += (unlabelled.empty() ? "" : "; ") + common.hosts + " (machine to switch)";
        label += fmt::format("\\nlinks not labelled: {}", unlabelled);
    }
    if (d.lit && !d.lit->caption.empty())
        label += fmt::format("\\nhighlighted: {}", escaped(d.lit->caption));
    return label;
}

// The graph's opening line and its graph, node and edge defaults.
void write_defaults(const Drawing& d, std::string_view label, std::ostream& out) {
    const Cluster& c = d.c;
    out << (c.name().empty() ? std::string("graph {\n")
                             : fmt::format("graph {} {{\n", dot_string(c.name())));
    out << fmt::format("  graph [label=\"{}\", labelloc=t, fontname=\"Helvetica\"{}];\n", label,
                       d.placed() ? ", layout=neato, splines=true, outputorder=edgesfirst" : "");
    // Placed nodes are kept small: they must not touch, or Graphviz draws
    // every edge straight, wrap-around links over the lines they close.
    out << (d.placed() ? "  node [fontname=\"Helvetica\", fontsize=9, style=filled, width=0.4, "
                         "height=0.3, margin=\"0.04,0.02\"];\n"
                       : "  node [fontname=\"Helvetica\", fontsize=10, style=filled];\n");
    out << "  edge [fontname=\"Helvetica\", fontsize=8];\n";
}

// The lowest x and y of a family's layout: the drawing's top left corner.
PlanePoint top_left(const std::vector<PlanePoint>& points) {
    PlanePoint corner = points.front();
    for (const PlanePoint& p : points) {
        corner.x = std::min(corner.x, p.x);
        corner.y = std::min(corner.y, p.y);
    }
    return corner;
}

// Legend: one entry per machine type, in its colour; above the drawing's
// top left corner when nodes are placed.
void write_legend(const Drawing& d, ExtraIds& ids, std::ostream& out) {
    const Cluster& c = d.c;
    const PlanePoint corner = d.placed() ? top_left(d.layout.points) : PlanePoint{0, 0};
    out << "  subgraph cluster_legend {\n";
    out << "    label=\"machine types\";\n";
    out << "    labelloc=t;\n";
    for (std::uint32_t t = 0; t < c.num_types(); ++t) {
        const MachineType& type = c.type(TypeId(t));
        const std::string pes =
            type.num_pus() == 1 ? std::string("1 PE") : fmt::format("{} PEs", type.num_pus());
        out << fmt::format(
            "    {} [shape=ellipse, fillcolor=\"{}\", label=\"type {}: {}, {}\"{}];\n",
            dot_string(ids.make(fmt::format("legend/type{}", t))), colour_of(TypeId(t)), t, pes,
            escaped(type.description()),
            d.at({corner.x + 1, corner.y - 0.8 - 0.5 * (c.num_types() - 1 - t)}));
    }
    out << "  }\n";
}

// A node's attributes after its shape: its fill, and with a highlight its
// line and text in colour (`on`) or in grey.
std::string node_colours(const Drawing& d, std::string_view fill, bool on,
                         std::string_view lit_fill) {
    if (!d.lit) return fmt::format("fillcolor=\"{}\"", fill);
    if (!on)
        return fmt::format("fillcolor=\"{}\", color=\"{}\", fontcolor=\"{}\"", dim_fill, dim_line,
                           dim_text);
    return fmt::format("fillcolor=\"{}\", color=\"{}\", penwidth=2.5",
                       lit_fill.empty() ? fill : lit_fill, lit_colour);
}

void write_switches(const Drawing& d, std::ostream& out) {
    const Cluster& c = d.c;
    for (std::uint32_t s = 0; s < c.num_switches(); ++s) {
        const VertexId v = c.vertex(SwitchId(s));
        out << fmt::format("  {} [shape=box, {}{}];\n", dot_string(c.switch_name(SwitchId(s))),
                           node_colours(d, switch_colour, d.lit_vertex(v), lit_switch_fill),
                           d.at_vertex(v.value));
    }
}

// Machines in id order, a box where its first machine would be.
void write_machines(const Drawing& d, std::ostream& out) {
    const Cluster& c = d.c;
    for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
        const TypeId t = c.type_of(MachineId(m));
        if (const DotGroup* g = d.groups.box_of(d.net(), VertexId(m))) {
            if (g->first != m) continue;
            const std::uint32_t group = d.groups.group_of[m];
            out << fmt::format("  {} [shape=box3d, {}, label=\"{} x type {}\\n{}\"{}];\n",
                               dot_string(g->id), node_colours(d, colour_of(t), g->lit, ""),
                               g->count, t.value, escaped(box_members(c, d.groups, group)),
                               d.at_box(group));
            continue;
        }
        out << fmt::format(
            "  {} [shape=ellipse, {}{}];\n", dot_string(c.machine_name(MachineId(m))),
            node_colours(d, colour_of(t), d.lit_vertex(VertexId(m)), ""), d.at_vertex(m));
    }
}

void write_edges(const Drawing& d, const std::vector<Edge>& edges, const CommonLabels& common,
                 std::ostream& out) {
    for (const Edge& e : edges) {
        std::string attrs = d.placed() && e.label == common.of(e)
                                ? std::string()
                                : fmt::format("label=\"{}\"", e.label);
        const auto add = [&](std::string_view a) {
            if (!attrs.empty()) attrs += ", ";
            attrs += a;
        };
        if (e.wraps) add("style=dashed");
        if (d.lit)
            add(e.lit ? fmt::format("color=\"{}\", penwidth=3", lit_colour)
                      : fmt::format("color=\"{}\", fontcolor=\"{}\"", dim_line, dim_text));
        out << fmt::format("  {} -- {}{}{}{};\n", dot_string(d.c.vertex_name(e.a)),
                           dot_string(e.box ? e.box->id : d.c.vertex_name(e.b)),
                           attrs.empty() ? "" : " [", attrs, attrs.empty() ? "" : "]");
    }
}

} // namespace

void write_dot(const Cluster& c, std::ostream& out, const DotOptions& options) {
    check_highlight(c.network(), options.highlight);
    Drawing d{c, options.highlight, options.family_layout ? family_layout(c) : Layout{},
              group_hanging_machines(c, options.highlight, options.collapse_above), Places{}};
    // Box ids are made before the legend's, which take a prime when they clash.
    ExtraIds ids(c);
    name_boxes(c, d.groups, ids);
    if (d.placed()) d.places = place(c, d.layout.points, d.groups);
    const std::vector<Edge> edges = collect_edges(d);
    const CommonLabels common = d.placed() ? common_labels(edges) : CommonLabels{};

    write_defaults(d, graph_label(d, common), out);
    write_legend(d, ids, out);
    write_switches(d, out);
    write_machines(d, out);
    write_edges(d, edges, common, out);
    out << "}\n";
}

} // namespace nettopo
