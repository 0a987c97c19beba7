// --index auto|always|never, for every tool that asks many distances: how
// they are answered (the rule is nettopo/query/distance_plan.hpp's). One
// definition of the option's name, values and check, so that a bad value is
// refused in the same words by every tool; each tool's help says what the
// values do there.
#pragma once

#include "nettopo/query/distance_plan.hpp"

#include <string>
#include <string_view>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace nettopo {

// Adds --index to `app`, storing the word given in `value` (parse it with
// parse_index_use). The tool adds what is its own (capture_default_str, a
// bare --index).
CLI::Option* add_index_option(CLI::App& app, std::string& value, const std::string& help);

// "auto", "always", "never"; UsageError otherwise.
IndexUse parse_index_use(std::string_view word);

} // namespace nettopo
