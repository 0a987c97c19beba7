// Graphviz DOT drawing of a cluster's network (dot_writer.hpp).
#include "nettopo/fabric/dot_writer.hpp"

#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"
#include "nettopo/support/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>
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

} // namespace

void write_dot(const Cluster& c, std::ostream& out, const DotOptions& options) {
    const Network& net = c.network();
    const std::uint32_t machines = c.num_machines();

    // Group the machines linked to one switch and nothing else, per switch
    // and type. A switch's neighbours come in id order, machines first.
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
            std::size_t g = first_group;
            while (g < groups.size() && groups[g].type != t) ++g;
            if (g == groups.size()) {
                groups.emplace_back();
                groups.back().sw = s;
                groups.back().type = t;
            }
            groups[g].add(to[i].value, net.links()[links[i]]);
            group_of[to[i].value] = static_cast<std::uint32_t>(g);
        }
    }
    ExtraIds ids(c);
    for (Group& g : groups) {
        g.collapsed = options.collapse_above != 0 && g.count > options.collapse_above;
        if (g.collapsed)
            g.id = ids.make(fmt::format("{}/type{}", c.switch_name(SwitchId(g.sw)), g.type.value));
    }
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

    const std::string title = c.name().empty() ? std::string("cluster") : c.name();
    out << (c.name().empty() ? std::string("graph {\n")
                             : fmt::format("graph {} {{\n", dot_string(c.name())));
    out << fmt::format("  graph [label=\"{}: {}, {}, {}\", labelloc=t, fontname=\"Helvetica\"];\n",
                       escaped(title), counted(machines, "machine"),
                       counted(c.num_switches(), "switch"), counted(c.num_net_links(), "link"));
    out << "  node [fontname=\"Helvetica\", fontsize=10, style=filled];\n";
    out << "  edge [fontname=\"Helvetica\", fontsize=8];\n";

    // Legend: one entry per machine type, in its colour.
    out << "  subgraph cluster_legend {\n";
    out << "    label=\"machine types\";\n";
    out << "    labelloc=t;\n";
    for (std::uint32_t t = 0; t < c.num_types(); ++t) {
        const MachineType& type = c.type(TypeId(t));
        const std::string pes =
            type.num_pus() == 1 ? std::string("1 PE") : fmt::format("{} PEs", type.num_pus());
        out << fmt::format("    {} [shape=ellipse, fillcolor=\"{}\", label=\"type {}: {}, {}\"];\n",
                           dot_string(ids.make(fmt::format("legend/type{}", t))),
                           colour_of(TypeId(t)), t, pes, escaped(type.description()));
    }
    out << "  }\n";

    for (std::uint32_t s = 0; s < c.num_switches(); ++s)
        out << fmt::format("  {} [shape=box, fillcolor=\"{}\"];\n",
                           dot_string(c.switch_name(SwitchId(s))), switch_colour);
    for (std::uint32_t m = 0; m < machines; ++m) {
        const TypeId t = c.type_of(MachineId(m));
        if (const Group* g = collapsed(VertexId(m))) {
            if (g->first != m) continue;
            out << fmt::format(
                "  {} [shape=box3d, fillcolor=\"{}\", label=\"{} x type {}\\n{}\"];\n",
                dot_string(g->id), colour_of(t), g->count, t.value, escaped(members_label(*g)));
            continue;
        }
        out << fmt::format("  {} [shape=ellipse, fillcolor=\"{}\"];\n",
                           dot_string(c.machine_name(MachineId(m))), colour_of(t));
    }

    const std::vector<std::uint32_t> level = levels(net);
    for (const Link& l : net.links()) {
        Group* g = collapsed(l.a);
        if (!g) g = collapsed(l.b);
        if (g) {
            if (g->drawn) continue;
            g->drawn = true;
            out << fmt::format("  {} -- {} [label=\"{}\"];\n",
                               dot_string(c.switch_name(SwitchId(g->sw))), dot_string(g->id),
                               group_label(*g));
            continue;
        }
        VertexId a = l.a, b = l.b;
        if (level[a.value] != none && (level[b.value] == none || level[a.value] < level[b.value]))
            std::swap(a, b);
        out << fmt::format("  {} -- {} [label=\"{}\"];\n", dot_string(c.vertex_name(a)),
                           dot_string(c.vertex_name(b)), link_label(l));
    }
    out << "}\n";
}

} // namespace nettopo
