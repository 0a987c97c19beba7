// The edges of a DOT drawing (dot_edges.hpp).
#include "common/dot_edges.hpp"

#include <fmt/format.h>
#include <map>
#include <utility>

namespace nettopo::detail {

// The edges with their labels, one per link between two nodes drawn alone
// and one per pair of nodes for the links into a box, before any is
// written: a large drawing says the most common labels once, in the title.
std::vector<Edge> collect_edges(Drawing& d) {
    const Network& net = d.net();
    std::vector<Edge> edges;
    std::vector<LinkRange> ranges; // of the edges into a box
    std::map<std::pair<Item, Item>, std::size_t> into_box;
    d.internal_links.assign(d.groups.switch_groups.size(), 0);
    for (std::uint32_t id = 0; id < net.num_links(); ++id) {
        const Link& l = net.links()[id];
        Item a = d.item_of(l.a), b = d.item_of(l.b);
        if (a == b) { // two switches of one box
            ++d.internal_links[a.index];
            continue;
        }
        const std::uint32_t la = d.level_of(a), lb = d.level_of(b);
        if (la != no_level && (lb == no_level || la < lb)) std::swap(a, b);
        const bool on = d.lit && d.lit->links[id];
        if (a.kind == Item::vertex && b.kind == Item::vertex) {
            edges.push_back({a,
                             b,
                             link_label(l),
                             {},
                             d.is_machine(a) || d.is_machine(b),
                             !d.lit || on,
                             d.placed() && d.layout.family->wraps_around(l.a.value, l.b.value),
                             {}});
            ranges.emplace_back();
            continue;
        }
        const auto [at, added] = into_box.try_emplace(std::minmax(a, b), edges.size());
        if (added) {
            edges.push_back({a, b, {}, {}, d.is_machine(a) || d.is_machine(b), false, false, {}});
            ranges.emplace_back();
        }
        ranges[at->second].add(l, on);
    }
    for (std::size_t i = 0; i < edges.size(); ++i) {
        Edge& e = edges[i];
        const bool from_box = e.a.kind != Item::vertex || e.b.kind != Item::vertex;
        if (from_box) {
            const LinkRange& r = ranges[i];
            e.label = range_label(r);
            const bool switch_box = e.a.kind == Item::switches || e.b.kind == Item::switches;
            if (switch_box && r.links > 1) e.links = fmt::format("{} links", r.links);
            e.lit = !d.lit || r.lit;
        }
        // A machine's cables to rail switches, in the rails' colours.
        if (!d.lit && e.to_machine) e.rails = d.rails_of(d.is_machine(e.a) ? e.b : e.a);
    }
    return edges;
}

// What an edge shows: its label unless the title says it, and its links.
std::string shown_label(const Edge& e, const CommonLabels& common) {
    std::string label = e.label == common.of(e) ? std::string() : e.label;
    if (!e.links.empty()) label += (label.empty() ? "" : "\n") + e.links;
    return label;
}

CommonLabels common_labels(const Drawing& d, const std::vector<Edge>& edges) {
    if (!d.placed() && edges.size() <= labelled_edges_up_to) return {};
    std::vector<std::string> network, hosts;
    for (const Edge& e : edges) (e.to_machine ? hosts : network).push_back(e.label);
    return {most_common(network), most_common(hosts)};
}

} // namespace nettopo::detail
