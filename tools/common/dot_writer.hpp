// Graphviz DOT drawing of a cluster's network: switches and machines, links
// labelled with latency (and multiplicity when > 1), machines of one type
// drawn alike, and the machines under one switch collapsed into a single box
// with a count when there are more than a threshold, so large clusters stay
// readable. lstopo draws one machine; this draws the cluster.
//
// A generated cluster whose family has a drawing of its own (mesh, torus,
// hypercube, ring, complete graph, dragonfly, slim fly: Family::layout) is drawn at
// those coordinates: every node gets a pinned position and the graph asks
// for Graphviz's neato (layout=neato), which keeps them, so `dot -Tsvg` and
// `neato -Tsvg` render it alike. A torus' wrap-around links are dashed and
// routed around the grid; the most common link label of the network and of
// the machines' links is said once in the title instead of on every edge.
// Other clusters are drawn in layers by `dot`: core switches above leaves.
//
// A highlight (a path, an allocation: dot_highlight.hpp) draws its machines,
// switches and links in colour and the rest in grey; collapsed boxes keep
// the highlighted machines apart from the others of their switch (each part
// collapsed on its own when larger than the threshold).
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace nettopo {

// What a drawing shows in colour; everything else is grey.
struct DotHighlight {
    std::string caption;        // added to the drawing's title, e.g. "path n0 - n5"
    std::vector<bool> vertices; // by vertex id: machines and switches in colour
    std::vector<bool> links;    // by link id: links in colour
};

struct DotOptions {
    // Machines hanging off one switch (linked to it and nothing else) are
    // drawn as one box "N x <type>" beyond this many; 0 never collapses.
    std::uint32_t collapse_above = 8;
    // Drawn in colour, the rest grey; nullptr: everything in colour. Must
    // have one flag per vertex and per link of the cluster drawn.
    const DotHighlight* highlight = nullptr;
    // Draw a generated cluster at its family's coordinates when the family
    // has a drawing and the cluster still has the family's numbers of
    // machines and switches; false: always in layers.
    bool family_layout = true;
};

void write_dot(const Cluster& cluster, std::ostream& out, const DotOptions& options = {});

} // namespace nettopo
