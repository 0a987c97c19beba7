// The options every tool that reads a cluster shares, declared once with one
// help text each, so that a word means the same in every tool and is refused
// in the same words: -i/--input, --node-level, --allowed-only, -q/--quiet and
// --index auto|always|never (the rule is nettopo/query/distance_plan.hpp's).
// Each returns the option, for what is the tool's own (capture_default_str,
// a bare --index).
#pragma once

#include "nettopo/query/distance_plan.hpp"

#include <string>
#include <string_view>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace nettopo {

// The cluster to read; the tool's own description says what it reads without it.
CLI::Option* add_input_option(CLI::App& app, std::string& value);
// The level grouping PUs into nodes where the input does not choose.
CLI::Option* add_node_level_option(CLI::App& app, std::string& value);
// Only the PUs an hwloc input allowed (an export made inside a job).
CLI::Option* add_allowed_only_option(CLI::App& app, bool& value);
// Nothing on stderr but errors and warnings.
CLI::Option* add_quiet_option(CLI::App& app, bool& value);
// --index, storing the word given in `value` (parse it with
// parse_index_use); `here` says in a sentence what the index answers in
// this tool.
CLI::Option* add_index_option(CLI::App& app, std::string& value, std::string_view here);

// "auto", "always", "never"; UsageError otherwise.
IndexUse parse_index_use(std::string_view word);

} // namespace nettopo
