// The tools' common options (see common_options.hpp).
#include "common/common_options.hpp"

#include "common/completion_table.hpp"
#include "nettopo/model/machine_type.hpp"
#include "nettopo/support/error.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace nettopo {

CLI::Option* add_input_option(CLI::App& app, std::string& value) {
    return app
        .add_option("-i,--input", value,
                    "Cluster: a nettopo archive (or its binary image), a text description, "
                    "an hwloc XML export or an hwloc synthetic string ('-' = stdin)")
        ->type_name("FILE");
}

CLI::Option* add_node_level_option(CLI::App& app, std::string& value) {
    return app
        .add_option("--node-level", value,
                    "Level grouping PUs into nodes where the input does not choose (auto, l3, "
                    "l2, core, numa, package, ...)")
        ->capture_default_str()
        ->check(completion_words(list_words(node_level_choices)));
}

CLI::Option* add_allowed_only_option(CLI::App& app, bool& value) {
    return app.add_flag("--allowed-only", value,
                        "hwloc input (an export, or this machine): only the PUs it allowed, as "
                        "an export made inside a job; default: the whole machine");
}

CLI::Option* add_quiet_option(CLI::App& app, bool& value) {
    return app.add_flag("-q,--quiet", value,
                        "Nothing on stderr but errors and warnings (no notes, no report of "
                        "what was read or written)");
}

CLI::Option* add_index_option(CLI::App& app, std::string& value, std::string_view here) {
    return app
        .add_option("--index", value,
                    fmt::format("How distances between machines are answered: auto (the "
                                "family's closed form when the cluster still is its family, "
                                "else a distance index when the questions pay for building "
                                "it, else a search each), always (build the index), never (a "
                                "search each). {}",
                                here))
        ->check(CLI::IsMember({"auto", "always", "never"}));
}

IndexUse parse_index_use(std::string_view word) {
    if (word == "auto") return IndexUse::Auto;
    if (word == "always") return IndexUse::Always;
    if (word == "never") return IndexUse::Never;
    throw UsageError(fmt::format("--index: '{}' is not auto, always or never", word));
}

} // namespace nettopo
