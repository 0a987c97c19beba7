// How large Graphviz will lay a drawing out (dot_writer.hpp), estimated from
// its labels before it is written, so that a large drawing collapses more,
// or turns left to right, until its widest row fits a screen.
//
// `dot` puts a layered drawing's tiers on rows (ranks) and a labelled edge's
// label on a rank of its own between its ends' ranks; a rank is as wide as
// its nodes and labels side by side, each `nodesep` (0.25 in) apart. Laid out
// left to right, ranks become columns and a node's height is what adds up.
// Widths come from Helvetica's average glyph (0.55 em): good to about a
// tenth on names and hostlists, which is all a choice between two levels of
// collapse needs; the tests render the drawings and measure them.
#pragma once

#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

namespace nettopo::detail {

// Inches a row may take: 38 in are 3,648 px at Graphviz's 96 dpi for PNG,
// leaving room for the margins and the title within 4,000 px.
inline constexpr double screen_inches = 38;

enum class NodeShape : std::uint8_t { box, ellipse, plain };

// A node's or a label's size, in inches.
struct Extent {
    double width = 0, height = 0;
};

// A node of that shape showing `label` (lines split at '\n') in 10 pt text;
// `padding` adds to both sides (a box3d's depth, a double border).
Extent node_extent(std::string_view label, NodeShape shape, double padding = 0);

// An edge's label in 8 pt text.
Extent edge_label_extent(std::string_view label);

// The things `dot` lays out side by side, by rank: rank 2L holds tier L's
// nodes (machines 0, leaves 1, ...), rank 2L-1 the labels of edges between
// tiers L and L-1 (or the middle rank of edges that skip tiers).
class Rows {
public:
    void add_node(std::uint32_t tier, Extent e) { ranks_[2 * tier].push_back(e); }
    void add_label(std::uint32_t upper_tier, std::uint32_t lower_tier, Extent e);
    // The widest rank (the tallest column, left to right), nodesep included.
    double widest(bool left_to_right) const;

private:
    std::map<std::uint32_t, std::vector<Extent>> ranks_;
};

} // namespace nettopo::detail
