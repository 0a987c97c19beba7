// A drawing's legend (dot_legend.hpp).
#include "common/dot_legend.hpp"

#include "common/dot_colours.hpp"
#include "common/dot_groups.hpp"
#include "common/dot_rails.hpp"
#include "common/dot_writer.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>

namespace nettopo::detail {

namespace {

// The inside of an HTML-like label: Graphviz reads entities, and a name
// may hold any of these.
std::string html_escaped(std::string_view s) {
    std::string e;
    e.reserve(s.size());
    for (char ch : s) {
        switch (ch) {
        case '&':
            e += "&amp;";
            break;
        case '<':
            e += "&lt;";
            break;
        case '>':
            e += "&gt;";
            break;
        case '"':
            e += "&quot;";
            break;
        case '\n':
            e += ' ';
            break;
        case '\r':
            break;
        default:
            e += ch;
        }
    }
    return e;
}

// A legend line names at most this many characters of hostlist: the whole
// list, else its first names and a count ("agpu[1302-1540],ufm1 and 40
// more"), else the first and last.
constexpr std::size_t names_shown = 48;

// Natural order ("n2" before "n10"): digit runs compare by value, the rest
// as text, so that a set of names folds into the fewest ranges.
bool natural_less(std::string_view a, std::string_view b) {
    std::size_t i = 0, j = 0;
    const auto digit = [](char ch) { return ch >= '0' && ch <= '9'; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t ei = i, ej = j;
            while (ei < a.size() && digit(a[ei])) ++ei;
            while (ej < b.size() && digit(b[ej])) ++ej;
            std::string_view x = a.substr(i, ei - i), y = b.substr(j, ej - j);
            while (x.size() > 1 && x.front() == '0') x.remove_prefix(1);
            while (y.size() > 1 && y.front() == '0') y.remove_prefix(1);
            if (x.size() != y.size()) return x.size() < y.size();
            if (x != y) return x < y;
            if (ei - i != ej - j) return ei - i < ej - j; // "n01" before "n001"
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j]) return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

// A set of names, in natural order.
std::string names_text(std::vector<std::string> names) {
    std::sort(names.begin(), names.end(), natural_less);
    if (std::optional<std::string> list = short_hostlist(names, names_shown)) return *list;
    for (std::size_t shown : {8, 4, 2, 1})
        if (std::string e = hostlist_excerpt(names, shown); e.size() <= names_shown) return e;
    return fmt::format("{}..{}", names.front(), names.back());
}

} // namespace

std::vector<LegendLine> legend_lines(const Cluster& c,
                                     const std::vector<std::uint32_t>& switch_rail) {
    std::vector<LegendLine> lines;
    std::vector<std::vector<std::string>> of_type(c.num_types());
    for (std::uint32_t m = 0; m < c.num_machines(); ++m)
        of_type[c.type_of(MachineId(m)).value].emplace_back(c.machine_name(MachineId(m)));
    for (std::uint32_t t = 0; t < c.num_types(); ++t) {
        const MachineType& type = c.type(TypeId(t));
        std::string text =
            fmt::format("type {}: {}, {}", t, counted(type.num_pus(), "PE"), type.description());
        if (!of_type[t].empty())
            text += fmt::format("; {}: {}", counted(of_type[t].size(), "machine"),
                                names_text(of_type[t]));
        lines.push_back({std::string(type_colour(TypeId(t))), std::move(text)});
    }
    std::vector<std::vector<std::string>> on_rail;
    for (std::uint32_t s = 0; s < switch_rail.size(); ++s) {
        if (switch_rail[s] == no_rail) continue;
        if (on_rail.size() <= switch_rail[s]) on_rail.resize(switch_rail[s] + 1);
        on_rail[switch_rail[s]].emplace_back(c.switch_name(SwitchId(s)));
    }
    for (std::uint32_t r = 0; r < on_rail.size(); ++r)
        if (!on_rail[r].empty())
            lines.push_back({std::string(rail_fill(r)),
                             fmt::format("rail {}: {}: {}", r, counted(on_rail[r].size(), "switch"),
                                         names_text(on_rail[r]))});
    return lines;
}

std::string legend_label(const std::vector<LegendLine>& lines) {
    std::string label = "<<table border=\"1\" cellborder=\"0\" cellspacing=\"2\" "
                        "cellpadding=\"1\" color=\"#969696\">";
    for (const LegendLine& l : lines)
        label += fmt::format("<tr><td bgcolor=\"{}\" width=\"18\"> </td>"
                             "<td align=\"left\">{}</td></tr>",
                             l.colour, html_escaped(l.text));
    return label + "</table>>";
}

Extent legend_extent(const std::vector<LegendLine>& lines) {
    std::string text;
    for (const LegendLine& l : lines) text += l.text + '\n';
    if (!text.empty()) text.pop_back();
    const Extent e = node_extent(text, NodeShape::plain);
    return {e.width + 0.35, e.height + 0.05 * static_cast<double>(lines.size()) + 0.1};
}

} // namespace nettopo::detail
