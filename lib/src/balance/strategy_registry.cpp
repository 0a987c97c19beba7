// The table of strategies by name. Each strategy's file provides its factory.
#include "balance/strategies.hpp"
#include "nettopo/support/error.hpp"

#include <array>
#include <fmt/format.h>

namespace nettopo {

namespace {

struct Entry {
    std::string_view name;
    std::unique_ptr<Strategy> (*make)(const StrategyOptions&);
};

// The order tools list them in: centralised, distributed, topology-aware.
const std::array<Entry, 14> registry{{
    {"greedy", make_greedy},
    {"refine", make_refine_charm},
    {"refine-heap", make_refine_heap},
    {"average", make_average},
    {"smart", make_smart},
    {"smart-code", make_smart_code},
    {"grapevine", make_grapevine},
    {"grapevine-6.8", make_grapevine_68},
    {"packdrop", make_packdrop},
    {"packdrop-sbac", make_packdrop_sbac},
    {"neighbor", make_neighbor},
    {"neighbor-charm", make_neighbor_charm},
    {"topo-greedy", make_topo_greedy},
    {"topo-refine", make_topo_refine},
}};

const std::array<std::string_view, registry.size()> names = [] {
    std::array<std::string_view, registry.size()> n{};
    for (std::size_t i = 0; i < registry.size(); ++i) n[i] = registry[i].name;
    return n;
}();

} // namespace

std::span<const std::string_view> strategy_names() {
    return names;
}

std::unique_ptr<Strategy> make_strategy(std::string_view name, const StrategyOptions& options) {
    for (const Entry& e : registry)
        if (e.name == name) return e.make(options);
    throw UsageError(
        fmt::format("unknown strategy '{}' (known: {})", name, fmt::join(names, ", ")));
}

std::vector<std::unique_ptr<Strategy>> make_strategies(std::string_view list,
                                                       const StrategyOptions& options) {
    std::vector<std::unique_ptr<Strategy>> made;
    if (list.empty() || list == "all") {
        for (std::string_view name : names) made.push_back(make_strategy(name, options));
        return made;
    }
    for (std::size_t start = 0;;) {
        const std::size_t comma = list.find(',', start);
        const std::string_view name = list.substr(start, comma - start);
        if (name.empty()) throw ValueError({}, "empty name in the list");
        if (name != "none") made.push_back(make_strategy(name, options));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return made;
}

} // namespace nettopo
