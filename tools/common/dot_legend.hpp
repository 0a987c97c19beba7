// A drawing's legend (dot_writer.hpp): one node, a table of one line per
// kind of thing drawn in a colour of its own, each with its colour and the
// names it covers as a hostlist: "type 0: 32 PEs, pack:2 l3:1 core:8 pu:2;
// 16 machines: node[01-16]", "rail 3: 4 switches: leaf[3,11,19,27]". It
// stays one line per machine type and per rail however many hosts a job
// highlights.
#pragma once

#include "common/dot_fit.hpp"
#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nettopo::detail {

struct LegendLine {
    std::string colour; // "#rrggbb"
    std::string text;
};

// The machine types (each in its colour, type_colour), then the rails of
// `switch_rail` (empty: none) in rail_fill.
std::vector<LegendLine> legend_lines(const Cluster& c,
                                     const std::vector<std::uint32_t>& switch_rail);

// The node's label, an HTML-like table: <<table ...>...</table>>.
std::string legend_label(const std::vector<LegendLine>& lines);

// Its size as Graphviz lays it out, near enough (dot_fit.hpp).
Extent legend_extent(const std::vector<LegendLine>& lines);

} // namespace nettopo::detail
