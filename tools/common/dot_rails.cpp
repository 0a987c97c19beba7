// Rails in a drawing (dot_rails.hpp).
#include "common/dot_rails.hpp"

#include "common/dot_writer.hpp"
#include "nettopo/fabric/rails.hpp"

#include <array>
#include <optional>

namespace nettopo::detail {

namespace {

constexpr std::array<std::string_view, 8> fills = {"#66c2a5", "#fc8d62", "#8da0cb", "#e78ac3",
                                                   "#a6d854", "#ffd92f", "#e5c494", "#a6cee3"};
constexpr std::array<std::string_view, 8> lines = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a",
                                                   "#66a61e", "#e6ab02", "#a6761d", "#1f78b4"};

} // namespace

std::string_view rail_fill(std::uint32_t rail) {
    return fills[rail % fills.size()];
}

std::string_view rail_line(std::uint32_t rail) {
    return lines[rail % lines.size()];
}

std::vector<std::uint32_t> switch_rails(const Cluster& c) {
    const Rails rails = infer_rails(c);
    if (rails.rails.empty()) return {};
    std::vector<std::uint32_t> rail(c.num_switches(), no_rail);
    for (const RailLeaf& l : rails.leaves)
        if (l.serves.size() == 1)
            if (const std::optional<SwitchId> s = c.find_switch(l.name))
                rail[s->value] = l.serves.front();
    return rail;
}

} // namespace nettopo::detail
