// What every part of a DOT drawing reads (dot_writer.cpp, dot_edges.cpp):
// the drawing's nodes (a vertex alone, a box of machines or of switches), its
// plan, and the text helpers of the DOT language.
#pragma once

#include "common/dot_groups.hpp"
#include "common/dot_layout.hpp"
#include "common/dot_writer.hpp"
#include "nettopo/model/cluster.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace nettopo::detail {

// The inside of a DOT double-quoted string: a name comes back as written
// and two names never become one ID; newlines as "\n" (dot_drawing.cpp).
std::string escaped(std::string_view s);
// `s` as a DOT double-quoted string.
std::string dot_string(std::string_view s);
// "100 ns x2, 200 Gb/s": a link's latency, cables and bandwidth.
std::string link_label(const Link& l);
// The label written on most edges of a kind, said once in the title (empty
// when there is none).
std::string most_common(const std::vector<std::string>& labels);

// IDs for the nodes that are not a machine or a switch (the legend,
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

// A layered drawing with more edges than this says its most common labels
// once in its title, as a placed one always does: a thousand edges labelled
// alike are a wall of text.
constexpr std::size_t labelled_edges_up_to = 32;

// How much a drawing collapses, and which way `dot` lays it out.
struct Plan {
    CollapseAbove above;
    bool left_to_right = false;
};

// What a drawn node is: a vertex alone, a box of machines or of switches.
struct Item {
    enum Kind : std::uint8_t { vertex, machines, switches } kind = vertex;
    std::uint32_t index = 0; // vertex id, or group index
    auto operator<=>(const Item&) const = default;
};

// What every part of a drawing reads: the cluster, its highlight (nullptr:
// none), its rails (empty: not known), its family's layout (empty: drawn in
// layers), its groups and, when placed, where each vertex and box goes.
struct Drawing {
    const Cluster& c;
    const DotHighlight* lit;
    const std::vector<std::uint32_t>& rail;
    const Layout& layout;
    Plan plan;
    DotGroups groups;
    Places places;
    std::vector<std::uint32_t> internal_links; // by switch group: links between its members

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

    Item item_of(VertexId v) const {
        if (net().is_machine(v)) {
            if (groups.box_of(net(), v)) return {Item::machines, groups.group_of[v.value]};
            return {Item::vertex, v.value};
        }
        const std::uint32_t s = c.switch_of_vertex(v).value;
        if (groups.switch_box_of(s)) return {Item::switches, groups.switch_group_of[s]};
        return {Item::vertex, v.value};
    }
    std::uint32_t level_of(Item i) const {
        switch (i.kind) {
        case Item::machines:
            return 0;
        case Item::switches:
            return groups.switch_groups[i.index].level;
        case Item::vertex:
            break;
        }
        return groups.level[i.index];
    }
    bool is_machine(Item i) const {
        return i.kind == Item::machines ||
               (i.kind == Item::vertex && groups.hangs(net(), VertexId(i.index)));
    }
    std::string_view name_of(Item i) const {
        switch (i.kind) {
        case Item::machines:
            return groups.groups[i.index].id;
        case Item::switches:
            return groups.switch_groups[i.index].id;
        case Item::vertex:
            break;
        }
        return c.vertex_name(VertexId(i.index));
    }
    // The rails the switches of an item serve, ascending (none for a machine).
    std::vector<std::uint32_t> rails_of(Item i) const {
        std::vector<std::uint32_t> rails;
        if (rail.empty() || is_machine(i)) return rails;
        if (i.kind == Item::vertex) {
            if (!net().is_machine(VertexId(i.index)))
                rails.push_back(rail[c.switch_of_vertex(VertexId(i.index)).value]);
        } else {
            for (std::uint32_t s : groups.switch_groups[i.index].members) rails.push_back(rail[s]);
        }
        std::sort(rails.begin(), rails.end());
        rails.erase(std::unique(rails.begin(), rails.end()), rails.end());
        if (!rails.empty() && rails.back() == no_rail) rails.pop_back();
        return rails;
    }
};

} // namespace nettopo::detail
