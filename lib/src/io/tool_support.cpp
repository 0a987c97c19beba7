#include "nettopo/tool_support.hpp"

#include "nettopo/error.hpp"
#include "nettopo/input.hpp"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

namespace nettopo {

int run_guarded(std::string_view tool, const std::function<int()>& body) {
    try {
        return body();
    } catch (const UsageError& e) {
        std::cerr << fmt::format("{}: error: {}\n", tool, e.what());
        return exit_bad_usage;
    } catch (const std::bad_alloc&) {
        std::cerr << fmt::format("{}: error: out of memory\n", tool);
        return exit_bad_data;
    } catch (const std::exception& e) {
        std::cerr << fmt::format("{}: error: {}\n", tool, e.what());
        return exit_bad_data;
    }
}

std::string default_input() {
    if (const char* env = std::getenv("NETTOPO_ARCHIVE"); env && *env) return env;
    std::error_code ec;
    if (std::filesystem::exists("net_topo.xml", ec)) return "net_topo.xml";
    return {};
}

Cluster load_or_discover(const std::string& input, const LoadOptions& options) {
    return input.empty() ? discover_cluster(options) : load_cluster(input, options);
}

NodeLevel parse_node_level(std::string_view text) {
    if (text == "auto") return {};
    const auto t = parse_object_type(text);
    if (!t || *t == ObjectType::MemCache)
        throw UsageError(fmt::format("unknown node level '{}' (expected auto, l1..l5, core, "
                                     "package, die, group, numa, pu or machine)",
                                     text));
    return {*t};
}

} // namespace nettopo
