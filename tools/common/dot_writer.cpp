// Graphviz DOT drawing of a cluster's network (dot_writer.hpp).
#include "common/dot_writer.hpp"

#include "common/dot_colours.hpp"
#include "common/dot_drawing.hpp"
#include "common/dot_edges.hpp"
#include "common/dot_fit.hpp"
#include "common/dot_groups.hpp"
#include "common/dot_layout.hpp"
#include "common/dot_legend.hpp"
#include "common/dot_rails.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace nettopo {

namespace {

using namespace detail;

void check_options(const Cluster& c, const DotOptions& o) {
    const Network& net = c.network();
    const DotHighlight* lit = o.highlight;
    if (lit && (lit->vertices.size() != net.num_vertices() || lit->links.size() != net.num_links()))
        throw UsageError("a drawing's highlight does not match the cluster drawn");
    if (!o.switch_rail.empty() && o.switch_rail.size() != c.num_switches())
        throw UsageError("a drawing's rails do not match the cluster drawn");
}

// A box of machines is named after its switches and type; the highlighted
// part is named apart from the others. A box of switches after its first and
// last members.
void name_boxes(const Cluster& c, DotGroups& d, ExtraIds& ids) {
    for (std::uint32_t i = 0; i < d.groups.size(); ++i) {
        DotGroup& g = d.groups[i];
        if (!g.collapsed) continue;
        const bool split = has_other_part(d, i);
        const std::string first(c.switch_name(SwitchId(g.switches.front())));
        g.id = ids.make(fmt::format(
            "{}{}/type{}{}", first,
            g.switches.size() > 1 ? fmt::format("+{}", g.switches.size() - 1) : std::string(),
            g.type.value, split ? (g.lit ? "/highlighted" : "/others") : ""));
    }
    for (SwitchGroup& g : d.switch_groups)
        if (g.collapsed)
            g.id = ids.make(fmt::format("{}..{}", c.switch_name(SwitchId(g.members.front())),
                                        c.switch_name(SwitchId(g.members.back()))));
}

// A box of machines: "N x type T" and its members.
std::string machine_box_label(const Drawing& d, std::uint32_t g) {
    const DotGroup& group = d.groups.groups[g];
    return fmt::format("{} x type {}\n{}", group.count, group.type.value,
                       box_members(d.c, d.groups, g));
}

// A box of switches: "N switches", its members, its rails, the links between
// its members and, when only some are highlighted, which.
std::string switch_box_label(const Drawing& d, std::uint32_t g) {
    const SwitchGroup& group = d.groups.switch_groups[g];
    std::string label =
        fmt::format("{}\n{}", counted(group.members.size(), "switch"), switch_members(d.c, group));
    if (!d.rail.empty()) {
        std::vector<std::uint32_t> rails;
        for (std::uint32_t s : group.members)
            if (d.rail[s] != no_rail) rails.push_back(d.rail[s]);
        std::sort(rails.begin(), rails.end());
        rails.erase(std::unique(rails.begin(), rails.end()), rails.end());
        if (!rails.empty())
            label += fmt::format("\n{} {}", rails.size() == 1 ? "rail" : "rails",
                                 format_cpu_list(rails));
    }
    if (d.internal_links[g] > 0)
        label += fmt::format("\n{} between them", counted(d.internal_links[g], "link"));
    if (d.lit && group.lit > 0 && group.lit < group.members.size()) {
        std::vector<std::string> on;
        for (std::uint32_t s : group.members)
            if (d.lit->vertices[d.c.vertex(SwitchId(s)).value])
                on.emplace_back(d.c.switch_name(SwitchId(s)));
        label += fmt::format("\n{} highlighted: {}", on.size(),
                             short_hostlist(on).value_or(on.front() + ".." + on.back()));
    }
    return label;
}

// What `dot` puts side by side, for the estimate of the widest row.
Rows rows_of(const Drawing& d, const std::vector<Edge>& edges, const CommonLabels& common,
             Extent legend) {
    Rows rows;
    const Cluster& c = d.c;
    const auto tier = [](std::uint32_t level) { return level == no_level ? 0 : level; };
    std::uint32_t top = 0;
    for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
        if (const DotGroup* g = d.groups.box_of(d.net(), VertexId(m))) {
            if (g->first == m)
                rows.add_node(0, node_extent(machine_box_label(d, d.groups.group_of[m]),
                                             NodeShape::box, 0.06));
            continue;
        }
        rows.add_node(tier(d.groups.level[m]),
                      node_extent(c.machine_name(MachineId(m)), NodeShape::ellipse));
    }
    for (std::uint32_t s = 0; s < c.num_switches(); ++s) {
        const Item i = d.item_of(c.vertex(SwitchId(s)));
        if (i.kind == Item::switches) {
            if (d.groups.switch_groups[i.index].members.front() != s) continue;
            rows.add_node(tier(d.level_of(i)),
                          node_extent(switch_box_label(d, i.index), NodeShape::box, 0.06));
        } else {
            rows.add_node(tier(d.level_of(i)),
                          node_extent(c.switch_name(SwitchId(s)), NodeShape::box));
        }
        top = std::max(top, tier(d.level_of(i)));
    }
    rows.add_node(top, legend); // nodes without edges go on the first rank
    for (const Edge& e : edges) {
        const std::string label = shown_label(e, common);
        if (!label.empty())
            rows.add_label(tier(d.level_of(e.a)), tier(d.level_of(e.b)), edge_label_extent(label));
    }
    return rows;
}

// The groups of a plan; a placed drawing collapses only machines hanging
// off one switch, which it knows where to put.
DotGroups groups_of(const Cluster& c, const DotOptions& o, const Layout& layout, Plan plan) {
    DotGroups g = group_vertices(c, o.highlight, plan.above);
    if (!layout.points.empty())
        for (DotGroup& group : g.groups)
            group.collapsed = group.collapsed && group.switches.size() == 1;
    return g;
}

// How much to collapse: as asked, or (collapse_auto) machines on several
// switches from 2 (a unit's hosts share all its leaves: drawn one by one they
// only add crossings), and in layers the least collapse of the rest whose
// widest row fits a screen, top to bottom, then left to right; the most
// collapse, left to right, when none does.
Plan plan_of(const Cluster& c, const DotOptions& o, const Layout& layout,
             const std::vector<LegendLine>& legend) {
    const std::uint32_t n = o.collapse_above;
    if (n != collapse_auto) return {{n, n, 0}, false};
    if (!layout.points.empty()) return {{8, 1, 0}, false};
    const Extent key = legend_extent(legend);
    for (const bool left_to_right : {false, true})
        for (const std::uint32_t above : {8u, 4u, 2u, 1u}) {
            const Plan plan{{above, 1, above}, left_to_right};
            Drawing d{c,  o.highlight, o.switch_rail, layout, plan, groups_of(c, o, layout, plan),
                      {}, {}};
            const std::vector<Edge> edges = collect_edges(d);
            const Rows rows = rows_of(d, edges, common_labels(d, edges), key);
            if (rows.widest(left_to_right) <= screen_inches) return plan;
        }
    return {{1, 1, 1}, true};
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
        if (!common.network.empty()) unlabelled = escaped(common.network) + " (network)";
        if (!common.hosts.empty())
            unlabelled +=
                (unlabelled.empty() ? "" : "; ") + escaped(common.hosts) + " (machine to switch)";
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
    out << fmt::format("  graph [label=\"{}\", labelloc=t, fontname=\"Helvetica\"{}{}];\n", label,
                       d.placed() ? ", layout=neato, splines=true, outputorder=edgesfirst" : "",
                       d.plan.left_to_right ? ", rankdir=LR" : "");
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

// The legend: one node, above the drawing's top left corner when nodes are
// placed (a grid step is 1.2 inches).
void write_legend(const Drawing& d, const std::vector<LegendLine>& lines, ExtraIds& ids,
                  std::ostream& out) {
    std::string at;
    if (d.placed()) {
        const PlanePoint corner = top_left(d.layout.points);
        const Extent e = legend_extent(lines);
        at = d.at({corner.x - 0.3 + e.width / 2.4, corner.y - 0.7 - e.height / 2.4});
    }
    out << fmt::format("  {} [shape=plain, style=solid, label={}{}];\n",
                       dot_string(ids.make("legend")), legend_label(lines), at);
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

// A box of switches' fill: their rail's colour when they serve one, else
// the switches' grey (the cables below show their rails).
std::string switch_box_colours(const Drawing& d, std::uint32_t g) {
    const std::vector<std::uint32_t> rails = d.rails_of({Item::switches, g});
    const SwitchGroup& group = d.groups.switch_groups[g];
    bool one_rail = rails.size() == 1;
    for (std::uint32_t s : group.members) one_rail = one_rail && d.rail[s] == rails[0];
    const std::string_view fill = one_rail ? rail_fill(rails[0]) : switch_colour;
    return node_colours(d, fill, group.lit > 0, one_rail ? fill : lit_switch_fill);
}

// "#a:#b": the colours of parallel lines, one per rail.
std::string rail_colours(const std::vector<std::uint32_t>& rails) {
    std::string colours;
    for (std::uint32_t r : rails)
        colours += fmt::format("{}{}", colours.empty() ? "" : ":", rail_line(r));
    return colours;
}

// Switches in id order, a box where its first switch would be.
void write_switches(const Drawing& d, std::ostream& out) {
    const Cluster& c = d.c;
    for (std::uint32_t s = 0; s < c.num_switches(); ++s) {
        const VertexId v = c.vertex(SwitchId(s));
        if (const SwitchGroup* g = d.groups.switch_box_of(s)) {
            if (g->members.front() != s) continue;
            const std::uint32_t group = d.groups.switch_group_of[s];
            out << fmt::format(
                "  {} [shape=box, peripheries=2, {}, label=\"{}\", tooltip=\"{}\"];\n",
                dot_string(g->id), switch_box_colours(d, group),
                escaped(switch_box_label(d, group)), escaped(all_members(d.c, g->members)));
            continue;
        }
        const std::uint32_t rail = d.rail.empty() ? no_rail : d.rail[s];
        const std::string_view fill = rail == no_rail ? switch_colour : rail_fill(rail);
        out << fmt::format(
            "  {} [shape=box, {}{}];\n", dot_string(c.switch_name(SwitchId(s))),
            node_colours(d, fill, d.lit_vertex(v), rail == no_rail ? lit_switch_fill : fill),
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
            out << fmt::format("  {} [shape=box3d, {}, label=\"{}\"{}];\n", dot_string(g->id),
                               node_colours(d, type_colour(t), g->lit, ""),
                               escaped(machine_box_label(d, group)), d.at_box(group));
            continue;
        }
        out << fmt::format(
            "  {} [shape=ellipse, {}{}];\n", dot_string(c.machine_name(MachineId(m))),
            node_colours(d, type_colour(t), d.lit_vertex(VertexId(m)), ""), d.at_vertex(m));
    }
}

// Each tier of switches on one row (rank=same), by hops from the nearest
// machine: leaves, spines, cores.
void write_tiers(const Drawing& d, std::ostream& out) {
    std::map<std::uint32_t, std::vector<std::string_view>> tiers;
    for (std::uint32_t s = 0; s < d.c.num_switches(); ++s) {
        const Item i = d.item_of(d.c.vertex(SwitchId(s)));
        if (i.kind == Item::switches && d.groups.switch_groups[i.index].members.front() != s)
            continue;
        if (d.level_of(i) != no_level) tiers[d.level_of(i)].push_back(d.name_of(i));
    }
    for (const auto& [level, names] : tiers) {
        if (names.size() < 2) continue;
        out << "  {rank=same;";
        for (std::string_view n : names) out << ' ' << dot_string(n) << ';';
        out << "}\n";
    }
}

void write_edges(const Drawing& d, const std::vector<Edge>& edges, const CommonLabels& common,
                 std::ostream& out) {
    for (const Edge& e : edges) {
        const std::string label = shown_label(e, common);
        std::string attrs = label.empty() ? label : fmt::format("label=\"{}\"", escaped(label));
        const auto add = [&](std::string_view a) {
            if (!attrs.empty()) attrs += ", ";
            attrs += a;
        };
        if (e.wraps) add("style=dashed");
        if (d.lit)
            add(e.lit ? fmt::format("color=\"{}\", penwidth=3", lit_colour)
                      : fmt::format("color=\"{}\", fontcolor=\"{}\"", dim_line, dim_text));
        else if (!e.rails.empty()) // a ribbon of a unit's rails, one line each
            add(fmt::format("color=\"{}\"{}", rail_colours(e.rails),
                            e.rails.size() == 1 ? ", penwidth=1.5" : ""));
        out << fmt::format("  {} -- {}{}{}{};\n", dot_string(d.name_of(e.a)),
                           dot_string(d.name_of(e.b)), attrs.empty() ? "" : " [", attrs,
                           attrs.empty() ? "" : "]");
    }
}

} // namespace

void write_dot(const Cluster& c, std::ostream& out, const DotOptions& options) {
    check_options(c, options);
    const Layout layout = options.family_layout ? family_layout(c) : Layout{};
    const std::vector<LegendLine> legend = legend_lines(c, options.switch_rail);
    const Plan plan = plan_of(c, options, layout, legend);
    Drawing d{c,
              options.highlight,
              options.switch_rail,
              layout,
              plan,
              groups_of(c, options, layout, plan),
              {},
              {}};
    // Box ids are made before the legend's, which takes a prime when they clash.
    ExtraIds ids(c);
    name_boxes(c, d.groups, ids);
    if (d.placed()) d.places = place(c, layout.points, d.groups);
    const std::vector<Edge> edges = collect_edges(d);
    const CommonLabels common = common_labels(d, edges);

    write_defaults(d, graph_label(d, common), out);
    write_legend(d, legend, ids, out);
    write_switches(d, out);
    write_machines(d, out);
    if (!d.placed()) write_tiers(d, out);
    write_edges(d, edges, common, out);
    out << "}\n";
}

} // namespace nettopo
