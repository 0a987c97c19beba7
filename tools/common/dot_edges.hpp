// The edges of a DOT drawing (dot_writer.cpp): one per link between two
// nodes drawn alone, one per pair of nodes for the links into a box, with
// their labels; a large or placed drawing says its most common labels once,
// in its title.
#pragma once

#include "common/dot_drawing.hpp"

#include <string>
#include <vector>

namespace nettopo::detail {

struct Edge {
    Item a, b;               // a on a higher tier than b, or on its tier
    std::string label;       // latency, multiplicity, bandwidth
    std::string links;       // "40 links" for an edge from a box of switches
    bool to_machine = false; // from a switch to a machine cabled to switches only
    bool lit = false, wraps = false;
    std::vector<std::uint32_t> rails; // drawn in these rails' colours, side by side
};

// The edges with their labels, before any is written (fills the drawing's
// internal_links).
std::vector<Edge> collect_edges(Drawing& d);

// The labels said once in the title of a placed or a large drawing, of the
// network's edges and of the machines' edges (empty: none).
struct CommonLabels {
    std::string network, hosts;
    const std::string& of(const Edge& e) const { return e.to_machine ? hosts : network; }
};

// What an edge shows: its label unless the title says it, and its links.
std::string shown_label(const Edge& e, const CommonLabels& common);
// The labels said once in the title (empty: none).
CommonLabels common_labels(const Drawing& d, const std::vector<Edge>& edges);

} // namespace nettopo::detail
