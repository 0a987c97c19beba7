// Rails in a drawing (dot_rails.hpp).
#include "common/dot_rails.hpp"

#include "common/dot_writer.hpp"
#include "nettopo/families/detail/family_registry.hpp"
#include "nettopo/support/error.hpp"

#include <array>
#include <memory>
#include <variant>

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

std::vector<std::uint32_t> generated_switch_rails(const Cluster& c) {
    if (!c.family().starts_with("rail-optimized ")) return {};
    std::uint32_t units = 0, rails = 0;
    std::unique_ptr<Family> family;
    try {
        family = family_from_spec(c.family());
        for (const auto& [name, value] : read_family_spec(c.family()).params) {
            if (name == "--units") units = std::get<std::uint32_t>(value);
            if (name == "--rails") rails = std::get<std::uint32_t>(value);
        }
    } catch (const Error&) { // a record this version does not read
        return {};
    }
    if (rails == 0 || family->num_machines() != c.num_machines() ||
        family->num_switches() != c.num_switches() || family->num_links() != c.num_net_links())
        return {};
    std::vector<std::uint32_t> rail(c.num_switches(), no_rail);
    const std::uint64_t leaves = static_cast<std::uint64_t>(units) * rails;
    for (std::uint32_t s = 0; s < leaves && s < rail.size(); ++s) rail[s] = s % rails;
    return rail;
}

} // namespace nettopo::detail
