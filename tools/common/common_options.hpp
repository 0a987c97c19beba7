// The options every tool that reads a cluster shares, declared once with one
// help text each, so that a word means the same in every tool and is refused
// in the same words: -i/--input, --node-level, --allowed-only, -q/--quiet,
// --index auto|always|never (the rule is nettopo/query/distance_plan.hpp's)
// and --latency TYPE=NS. Each returns the option, for what is the tool's own
// (capture_default_str, a bare --index).
#pragma once

#include "nettopo/model/machine_type.hpp"
#include "nettopo/query/distance_plan.hpp"

#include <string>
#include <string_view>
#include <vector>

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

// --latency TYPE=NS, repeatable: the latency between two PUs whose deepest
// common object is a TYPE, over every machine type's table whatever the
// input (parse_level_latencies reads the values). nettopo-discover and
// nettopo-gen, whose --latency KIND=NS sets link kinds, give what their kinds
// are (`links_help`, a sentence) and the words to complete (`link_words`,
// "host-switch=", ...): one option takes both, told apart by the word
// (split_latency_values).
CLI::Option* add_latency_option(CLI::App& app, std::vector<std::string>& values,
                                std::string_view links_help = {},
                                const std::vector<std::string>& link_words = {});

// The --latency values as machine latencies; UsageError naming --latency and
// the value for anything but TYPE=NS (an unknown type, NUMANode or MemCache,
// GroupN, a number that is not 0 to 1e9 ns).
LevelLatencyOverrides parse_level_latencies(const std::vector<std::string>& values);

// nettopo-discover's and nettopo-gen's --latency values, told apart by the
// word before '=': those naming an object type are machine latencies
// (`levels`, read as parse_level_latencies reads them), the others link
// settings (`links`, in their order, for the library's KIND=NS reader and its
// messages, unchanged).
struct LatencyValues {
    std::vector<std::string> links;
    LevelLatencyOverrides levels;
};
LatencyValues split_latency_values(const std::vector<std::string>& values);

} // namespace nettopo
