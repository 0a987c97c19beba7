// The colours of a drawing (dot_writer.hpp), shared by its nodes and its
// legend. Rails have theirs in dot_rails.hpp.
#pragma once

#include "nettopo/support/ids.hpp"

#include <array>
#include <string_view>

namespace nettopo::detail {

// ColorBrewer's Set3 without its grey, which is the switches' colour.
inline constexpr std::array<std::string_view, 11> type_colours = {
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
    "#b3de69", "#fccde5", "#bc80bd", "#ccebc5", "#ffed6f"};
inline constexpr std::string_view switch_colour = "#d9d9d9";

// A machine type's colour; they repeat beyond 11 types.
inline std::string_view type_colour(TypeId t) {
    return type_colours[t.value % type_colours.size()];
}

// Colours of a highlight: the highlighted in red, the rest in light grey.
inline constexpr std::string_view lit_colour = "#d7191c", lit_switch_fill = "#fdae61";
inline constexpr std::string_view dim_fill = "#f0f0f0", dim_line = "#bdbdbd", dim_text = "#969696";

} // namespace nettopo::detail
