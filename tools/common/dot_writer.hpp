// Graphviz DOT drawing of a cluster's network: switches and machines, links
// labelled with latency (and multiplicity when > 1), machines of one type
// drawn alike, and machines cabled to the same switches collapsed into a
// single box with a count when there are more than a threshold, so large
// clusters stay readable. lstopo draws one machine; this draws the cluster.
//
// A generated cluster whose family has a drawing of its own (mesh, torus,
// hypercube, ring, complete graph, dragonfly, slim fly: Family::layout) is drawn at
// those coordinates: every node gets a pinned position and the graph asks
// for Graphviz's neato (layout=neato), which keeps them, so `dot -Tsvg` and
// `neato -Tsvg` render it alike. A torus' wrap-around links are dashed and
// routed around the grid; the most common link label of the network and of
// the machines' links is said once in the title instead of on every edge.
// Other clusters are drawn in layers by `dot`: core switches above leaves,
// each tier of switches (hops from the nearest machine) on one row.
//
// Large layered drawings collapse by themselves (DotOptions::collapse_above
// = collapse_auto): machines and switches alike, more of them until every row
// fits a screen's width by an estimate of its labels, then left to right
// (dot_fit.hpp). Switches on rails (DotOptions::switch_rail) are filled with
// their rail's colour, and so are the cables from machines to them.
//
// A highlight (a path, an allocation: dot_highlight.hpp) draws its machines,
// switches and links in colour and the rest in grey; collapsed boxes keep
// the highlighted machines apart from the others of their switches (each
// part collapsed on its own when larger than the threshold); a box of
// switches names those of its members that are highlighted.
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

// DotOptions::collapse_above: choose by the drawing's size.
inline constexpr std::uint32_t collapse_auto = ~0u;
// DotOptions::switch_rail: a switch on no rail (a spine).
inline constexpr std::uint32_t no_rail = ~0u;

struct DotOptions {
    // Machines cabled to the same switches (and nothing else) are drawn as
    // one box "N x <type>" beyond this many; 0 never collapses. collapse_auto:
    // machines on several switches from 2; those on one switch beyond 8, and
    // switches of a tier cabled to the same things below beyond 8 too, 8
    // lowered to 4, 2 and 1 while a row of a layered drawing is wider than a
    // screen, then laid out left to right (dot_fit.hpp).
    std::uint32_t collapse_above = collapse_auto;
    // Drawn in colour, the rest grey; nullptr: everything in colour. Must
    // have one flag per vertex and per link of the cluster drawn.
    const DotHighlight* highlight = nullptr;
    // Draw a generated cluster at its family's coordinates when the family
    // has a drawing and the cluster still has the family's numbers of
    // machines and switches; false: always in layers.
    bool family_layout = true;
    // By switch id: the rail a switch serves (0, 1, ...), or no_rail. Empty:
    // not known, nothing drawn by rail; else one entry per switch.
    std::vector<std::uint32_t> switch_rail;
};

// Writes the drawing. UsageError when the highlight or the rails are not
// the cluster's (one flag per vertex and link, one rail per switch).
void write_dot(const Cluster& cluster, std::ostream& out, const DotOptions& options = {});

} // namespace nettopo
