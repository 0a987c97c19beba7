// How large a drawing will be (dot_fit.hpp).
#include "common/dot_fit.hpp"

#include <algorithm>

namespace nettopo::detail {

namespace {

constexpr double nodesep = 0.25;    // Graphviz's default, in inches
constexpr double glyph_em = 0.55;   // Helvetica's average advance, in em
constexpr double line_em = 1.2;     // Graphviz's line height, in em
constexpr double points = 1 / 72.0; // inches a point

// Lines and the widest line's characters (UTF-8 continuation bytes not counted).
std::pair<std::size_t, std::size_t> text_size(std::string_view text) {
    std::size_t lines = 1, widest = 0, here = 0;
    for (char ch : text) {
        if (ch == '\n') {
            ++lines;
            widest = std::max(widest, here);
            here = 0;
            continue;
        }
        if ((static_cast<unsigned char>(ch) & 0xc0) != 0x80) ++here;
    }
    return {lines, std::max(widest, here)};
}

} // namespace

Extent node_extent(std::string_view label, NodeShape shape, double padding) {
    const auto [lines, chars] = text_size(label);
    const double font = 10 * points;
    const double text_w = static_cast<double>(chars) * glyph_em * font;
    const double text_h = static_cast<double>(lines) * line_em * font;
    Extent e;
    switch (shape) {
    case NodeShape::box: // margin 0.11 x 0.055 in, at least 0.75 x 0.5 in
        e = {std::max(0.75, text_w + 0.22), std::max(0.5, text_h + 0.11)};
        break;
    case NodeShape::ellipse: // the box around the text, times sqrt 2
        e = {std::max(0.75, (text_w + 0.22) * 1.42), std::max(0.5, (text_h + 0.11) * 1.42)};
        break;
    case NodeShape::plain:
        e = {text_w, text_h};
        break;
    }
    return {e.width + 2 * padding, e.height + 2 * padding};
}

Extent edge_label_extent(std::string_view label) {
    const auto [lines, chars] = text_size(label);
    const double font = 8 * points;
    return {static_cast<double>(chars) * glyph_em * font + 0.1,
            static_cast<double>(lines) * line_em * font + 0.05};
}

void Rows::add_label(std::uint32_t upper_tier, std::uint32_t lower_tier, Extent e) {
    if (upper_tier < lower_tier) std::swap(upper_tier, lower_tier);
    // dot doubles its ranks for labels; a long edge's label sits half way.
    ranks_[upper_tier + lower_tier].push_back(e);
}

double Rows::widest(bool left_to_right) const {
    double widest = 0;
    for (const auto& [rank, items] : ranks_) {
        double sum = 0;
        for (const Extent& e : items) sum += (left_to_right ? e.height : e.width) + nodesep;
        widest = std::max(widest, sum);
    }
    return widest;
}

} // namespace nettopo::detail
