// Graphviz DOT drawing of a cluster's network (dot_writer.hpp).
#include "nettopo/fabric/dot_writer.hpp"

#include "nettopo/families/family.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"
#include "nettopo/support/text.hpp"

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

std::string range_text(double lo, double hi) {
    return lo == hi ? format_number(lo)
                    : fmt::format("{}-{}", format_number(lo), format_number(hi));
}

// Machines of one type hanging off one switch only.
struct Group {
    std::uint32_t sw = 0;
    TypeId type{};
    std::uint32_t count = 0;
    std::uint32_t first = none, last = 0; // machine ids, lowest and highest
    double lat_lo = 0, lat_hi = 0, bw_lo = 0, bw_hi = 0;
    std::uint32_t mult_lo = 0, mult_hi = 0;
    bool bandwidth_known = true; // on every link of the group
    bool lit = false;            // its machines are highlighted
    bool lit_links = false;      // some of its links are highlighted
    bool collapsed = false;
    bool drawn = false; // its edge is written
    std::string id;

    void add(std::uint32_t machine, const Link& l) {
        if (count++ == 0) {
            first = machine;
            lat_lo = lat_hi = l.latency_ns;
            bw_lo = bw_hi = l.bandwidth_gbps;
            mult_lo = mult_hi = l.multiplicity;
        }
        first = std::min(first, machine);
        last = std::max(last, machine);
        lat_lo = std::min(lat_lo, l.latency_ns);
        lat_hi = std::max(lat_hi, l.latency_ns);
        bw_lo = std::min(bw_lo, l.bandwidth_gbps);
        bw_hi = std::max(bw_hi, l.bandwidth_gbps);
        mult_lo = std::min(mult_lo, l.multiplicity);
        mult_hi = std::max(mult_hi, l.multiplicity);
        if (l.bandwidth_gbps <= 0) bandwidth_known = false;
    }
};

std::string link_label(const Link& l) {
    std::string s = fmt::format("{} ns", format_number(l.latency_ns));
    if (l.multiplicity > 1) s += fmt::format(" x{}", l.multiplicity);
    if (l.bandwidth_gbps > 0) s += fmt::format(", {} Gb/s", format_number(l.bandwidth_gbps));
    return s;
}

std::string group_label(const Group& g) {
    std::string s = fmt::format("{} ns", range_text(g.lat_lo, g.lat_hi));
    if (g.mult_hi > 1)
        s += g.mult_lo == g.mult_hi ? fmt::format(" x{}", g.mult_hi)
                                    : fmt::format(" x{}-{}", g.mult_lo, g.mult_hi);
    if (g.bandwidth_known) s += fmt::format(", {} Gb/s", range_text(g.bw_lo, g.bw_hi));
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

// Hops from the nearest machine: edges are written from the farther end, so
// that `dot` ranks core switches above leaves and leaves above machines.
std::vector<std::uint32_t> levels(const Network& net) {
    std::vector<std::uint32_t> level(net.num_vertices(), none);
    std::vector<VertexId> queue;
    queue.reserve(net.num_vertices());
    for (std::uint32_t m = 0; m < net.num_machines(); ++m) {
        level[m] = 0;
        queue.push_back(VertexId(m));
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const VertexId v = queue[head];
        for (VertexId u : net.neighbors(v))
            if (level[u.value] == none) {
                level[u.value] = level[v.value] + 1;
                queue.push_back(u);
            }
    }
    return level;
}

// Where each vertex goes when the cluster is drawn at its family's
// coordinates (empty otherwise), and the family that says so.
struct Layout {
    std::unique_ptr<Family> family;
    std::vector<PlanePoint> points;
};

Layout family_layout(const Cluster& c) {
    Layout l;
    if (c.family().empty()) return l;
    try {
        l.family = family_from_spec(c.family());
    } catch (const Error&) { // a record this version does not read: drawn in layers
        return l;
    }
    if (l.family->num_machines() != c.num_machines() ||
        l.family->num_switches() != c.num_switches())
        return l;
    l.points = l.family->layout();
    return l;
}

// Inches per grid step of a family's layout.
constexpr double inches_per_step = 1.2;

// Inches to the millimetre, without a "-0".
std::string inches(double steps) {
    return format_number(std::round(steps * inches_per_step * 1000) / 1000 + 0.0);
}

std::string position(PlanePoint p) {
    // Graphviz's y grows upwards; "!" pins the node where it is.
    return fmt::format("pos=\"{},{}!\"", inches(p.x), inches(-p.y));
}

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

// Where a placed drawing puts each vertex and each collapsed box: what is
// drawn of a switch's machines (boxes, and machines alone, in machine id
// order) takes the places of its first machines, nearest the switch, so that
// nothing lands on a box; a few items where many machines were laid out go
// on one arc around the direction the machines went instead.
struct Places {
    std::vector<PlanePoint> vertices, groups;
};

Places place(const Cluster& c, const std::vector<PlanePoint>& laid_out,
             const std::vector<Group>& groups, const std::vector<std::uint32_t>& group_of) {
    const Network& net = c.network();
    Places p{laid_out, std::vector<PlanePoint>(groups.size())};
    std::vector<bool> box_placed(groups.size(), false);
    for (std::uint32_t s = 0; s < c.num_switches(); ++s) {
        std::vector<std::uint32_t> hanging;
        for (VertexId u : net.neighbors(c.vertex(SwitchId(s))))
            if (net.is_machine(u) && group_of[u.value] != none && groups[group_of[u.value]].sw == s)
                hanging.push_back(u.value);
        std::vector<PlanePoint*> items;
        for (std::uint32_t m : hanging) {
            const std::uint32_t g = group_of[m];
            if (!groups[g].collapsed)
                items.push_back(&p.vertices[m]);
            else if (!box_placed[g]) {
                box_placed[g] = true;
                items.push_back(&p.groups[g]);
            }
        }
        for (std::size_t k = 0; k < items.size(); ++k) *items[k] = laid_out[hanging[k]];
        if (items.size() == hanging.size() || items.size() > 3) continue;
        const PlanePoint at = laid_out[c.vertex(SwitchId(s)).value];
        PlanePoint mid;
        for (std::uint32_t m : hanging) {
            mid.x += laid_out[m].x - at.x;
            mid.y += laid_out[m].y - at.y;
        }
        const double angle = std::atan2(mid.y, mid.x), apart = 0.7;
        for (std::size_t k = 0; k < items.size(); ++k) {
            const double a = angle + apart * (static_cast<double>(k) - (items.size() - 1) / 2.0);
            *items[k] = {at.x + 0.9 * std::cos(a), at.y + 0.9 * std::sin(a)};
        }
    }
    return p;
}

// Colours of a highlight: the highlighted in red, the rest in light grey.
constexpr std::string_view lit_colour = "#d7191c", lit_switch_fill = "#fdae61";
constexpr std::string_view dim_fill = "#f0f0f0", dim_line = "#bdbdbd", dim_text = "#969696";

} // namespace

void write_dot(const Cluster& c, std::ostream& out, const DotOptions& options) {
    const Network& net = c.network();
    const std::uint32_t machines = c.num_machines();
    const DotHighlight* lit = options.highlight;
    if (lit && (lit->vertices.size() != net.num_vertices() || lit->links.size() != net.num_links()))
        throw UsageError("a drawing's highlight does not match the cluster drawn");
    const auto lit_vertex = [&](VertexId v) { return !lit || lit->vertices[v.value]; };
    const Layout layout = options.family_layout ? family_layout(c) : Layout{};
    const bool placed = !layout.points.empty();

    // Group the machines linked to one switch and nothing else, per switch,
    // type and highlight. A switch's neighbours come in id order, machines first.
    std::vector<std::uint32_t> group_of(machines, none);
    std::vector<Group> groups;
    for (std::uint32_t s = 0; s < c.num_switches(); ++s) {
        const VertexId v = c.vertex(SwitchId(s));
        const auto to = net.neighbors(v);
        const auto links = net.neighbor_links(v);
        const std::size_t first_group = groups.size();
        for (std::size_t i = 0; i < to.size() && net.is_machine(to[i]); ++i) {
            if (net.degree(to[i]) != 1) continue;
            const TypeId t = c.type_of(MachineId(to[i].value));
            const bool on = lit_vertex(to[i]);
            std::size_t g = first_group;
            while (g < groups.size() && (groups[g].type != t || groups[g].lit != on)) ++g;
            if (g == groups.size()) {
                groups.emplace_back();
                groups.back().sw = s;
                groups.back().type = t;
                groups.back().lit = on;
            }
            groups[g].add(to[i].value, net.links()[links[i]]);
            groups[g].lit_links = groups[g].lit_links || (lit && lit->links[links[i]]);
            group_of[to[i].value] = static_cast<std::uint32_t>(g);
        }
    }
    ExtraIds ids(c);
    for (Group& g : groups) {
        g.collapsed = options.collapse_above != 0 && g.count > options.collapse_above;
        if (!g.collapsed) continue;
        // The highlighted part of a switch's machines is named apart.
        // (A switch's groups are consecutive.)
        bool split = false;
        for (std::size_t o = static_cast<std::size_t>(&g - groups.data());
             lit && o-- > 0 && groups[o].sw == g.sw;)
            split = split || (groups[o].type == g.type && groups[o].lit != g.lit);
        for (std::size_t o = static_cast<std::size_t>(&g - groups.data()) + 1;
             lit && o < groups.size() && groups[o].sw == g.sw; ++o)
            split = split || (groups[o].type == g.type && groups[o].lit != g.lit);
        g.id = ids.make(fmt::format("{}/type{}{}", c.switch_name(SwitchId(g.sw)), g.type.value,
                                    split ? (g.lit ? "/highlighted" : "/others") : ""));
    }
    const Places places = placed ? place(c, layout.points, groups, group_of) : Places{};
    const std::vector<PlanePoint>& point = places.vertices;
    const auto collapsed = [&](VertexId v) -> Group* {
        if (!net.is_machine(v) || group_of[v.value] == none) return nullptr;
        Group& g = groups[group_of[v.value]];
        return g.collapsed ? &g : nullptr;
    };
    // A box lists its machines as a hostlist while that stays short (a
    // first..last range would hide the machines of the switch drawn apart).
    const auto members_label = [&](const Group& g) {
        const auto index = static_cast<std::uint32_t>(&g - groups.data());
        std::vector<std::string> names;
        for (std::uint32_t m = g.first; m <= g.last; ++m)
            if (group_of[m] == index) names.emplace_back(c.machine_name(MachineId(m)));
        try {
            if (std::string list = compress_hostlist(names); list.size() <= 40) return list;
        } catch (const InputError&) { // names a hostlist cannot hold
        }
        return fmt::format("{}..{} ({} machines)", names.front(), names.back(), names.size());
    };

    // Edges with their labels first: a drawing at a family's coordinates
    // says the most common labels once, in the title.
    struct Edge {
        VertexId a, b;
        const Group* box = nullptr; // the edge from a switch to this box
        std::string label;
        bool to_machine = false; // from a switch to a machine hanging off it
        bool lit = false, wraps = false;
    };
    std::vector<Edge> edges;
    const std::vector<std::uint32_t> level = levels(net);
    for (std::uint32_t id = 0; id < net.num_links(); ++id) {
        const Link& l = net.links()[id];
        Group* g = collapsed(l.a);
        if (!g) g = collapsed(l.b);
        if (g) {
            if (g->drawn) continue;
            g->drawn = true;
            edges.push_back({c.vertex(SwitchId(g->sw)), VertexId{}, g, group_label(*g), true,
                             !lit || g->lit_links, false});
            continue;
        }
        VertexId a = l.a, b = l.b;
        if (level[a.value] != none && (level[b.value] == none || level[a.value] < level[b.value]))
            std::swap(a, b);
        const bool to_machine = (net.is_machine(b) && group_of[b.value] != none) ||
                                (net.is_machine(a) && group_of[a.value] != none);
        edges.push_back({a, b, nullptr, link_label(l), to_machine, !lit || lit->links[id],
                         placed && layout.family->wraps_around(l.a.value, l.b.value)});
    }
    std::string common_network, common_hosts;
    if (placed) {
        std::vector<std::string> network, hosts;
        for (const Edge& e : edges) (e.to_machine ? hosts : network).push_back(e.label);
        common_network = most_common(network);
        common_hosts = most_common(hosts);
    }

    const std::string title = c.name().empty() ? std::string("cluster") : c.name();
    std::string label =
        fmt::format("{}: {}, {}, {}", escaped(title), counted(machines, "machine"),
                    counted(c.num_switches(), "switch"), counted(c.num_net_links(), "link"));
    if (!common_network.empty() || !common_hosts.empty()) {
        std::string unlabelled;
        if (!common_network.empty()) unlabelled = common_network + " (network)";
        if (!common_hosts.empty())
            unlabelled += (unlabelled.empty() ? "" : "; ") + common_hosts + " (machine to switch)";
        label += fmt::format("\\nlinks not labelled: {}", unlabelled);
    }
    if (lit && !lit->caption.empty())
        label += fmt::format("\\nhighlighted: {}", escaped(lit->caption));
    out << (c.name().empty() ? std::string("graph {\n")
                             : fmt::format("graph {} {{\n", dot_string(c.name())));
    out << fmt::format("  graph [label=\"{}\", labelloc=t, fontname=\"Helvetica\"{}];\n", label,
                       placed ? ", layout=neato, splines=true, outputorder=edgesfirst" : "");
    // Placed nodes are kept small: they must not touch, or Graphviz draws
    // every edge straight, wrap-around links over the lines they close.
    out << (placed ? "  node [fontname=\"Helvetica\", fontsize=9, style=filled, width=0.4, "
                     "height=0.3, margin=\"0.04,0.02\"];\n"
                   : "  node [fontname=\"Helvetica\", fontsize=10, style=filled];\n");
    out << "  edge [fontname=\"Helvetica\", fontsize=8];\n";

    // Legend: one entry per machine type, in its colour; above the
    // drawing's top left corner when nodes are placed.
    PlanePoint corner{0, 0};
    if (placed) {
        corner = layout.points.front();
        for (const PlanePoint& p : layout.points) {
            corner.x = std::min(corner.x, p.x);
            corner.y = std::min(corner.y, p.y);
        }
    }
    out << "  subgraph cluster_legend {\n";
    out << "    label=\"machine types\";\n";
    out << "    labelloc=t;\n";
    for (std::uint32_t t = 0; t < c.num_types(); ++t) {
        const MachineType& type = c.type(TypeId(t));
        const std::string pes =
            type.num_pus() == 1 ? std::string("1 PE") : fmt::format("{} PEs", type.num_pus());
        const std::string at =
            placed ? ", " + position({corner.x + 1, corner.y - 0.8 - 0.5 * (c.num_types() - 1 - t)})
                   : "";
        out << fmt::format(
            "    {} [shape=ellipse, fillcolor=\"{}\", label=\"type {}: {}, {}\"{}];\n",
            dot_string(ids.make(fmt::format("legend/type{}", t))), colour_of(TypeId(t)), t, pes,
            escaped(type.description()), at);
    }
    out << "  }\n";

    // A node's attributes after its shape: fill, highlight, position.
    const auto style = [&](std::string_view fill, bool on, std::string_view lit_fill) {
        if (!lit) return fmt::format("fillcolor=\"{}\"", fill);
        if (!on)
            return fmt::format("fillcolor=\"{}\", color=\"{}\", fontcolor=\"{}\"", dim_fill,
                               dim_line, dim_text);
        return fmt::format("fillcolor=\"{}\", color=\"{}\", penwidth=2.5",
                           lit_fill.empty() ? fill : lit_fill, lit_colour);
    };
    const auto at = [&](std::uint32_t vertex) {
        return placed ? ", " + position(point[vertex]) : std::string();
    };
    for (std::uint32_t s = 0; s < c.num_switches(); ++s) {
        const VertexId v = c.vertex(SwitchId(s));
        out << fmt::format("  {} [shape=box, {}{}];\n", dot_string(c.switch_name(SwitchId(s))),
                           style(switch_colour, lit_vertex(v), lit_switch_fill), at(v.value));
    }
    for (std::uint32_t m = 0; m < machines; ++m) {
        const TypeId t = c.type_of(MachineId(m));
        if (const Group* g = collapsed(VertexId(m))) {
            if (g->first != m) continue;
            const std::string where =
                placed ? ", " + position(places.groups[group_of[m]]) : std::string();
            out << fmt::format("  {} [shape=box3d, {}, label=\"{} x type {}\\n{}\"{}];\n",
                               dot_string(g->id), style(colour_of(t), g->lit, ""), g->count,
                               t.value, escaped(members_label(*g)), where);
            continue;
        }
        out << fmt::format("  {} [shape=ellipse, {}{}];\n",
                           dot_string(c.machine_name(MachineId(m))),
                           style(colour_of(t), lit_vertex(VertexId(m)), ""), at(m));
    }

    for (const Edge& e : edges) {
        const std::string& common = e.to_machine ? common_hosts : common_network;
        std::string attrs =
            placed && e.label == common ? std::string() : fmt::format("label=\"{}\"", e.label);
        const auto add = [&](std::string_view a) {
            if (!attrs.empty()) attrs += ", ";
            attrs += a;
        };
        if (e.wraps) add("style=dashed");
        if (lit)
            add(e.lit ? fmt::format("color=\"{}\", penwidth=3", lit_colour)
                      : fmt::format("color=\"{}\", fontcolor=\"{}\"", dim_line, dim_text));
        out << fmt::format("  {} -- {}{}{}{};\n", dot_string(c.vertex_name(e.a)),
                           dot_string(e.box ? e.box->id : c.vertex_name(e.b)),
                           attrs.empty() ? "" : " [", attrs, attrs.empty() ? "" : "]");
    }
    out << "}\n";
}

} // namespace nettopo
