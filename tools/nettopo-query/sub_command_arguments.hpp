// The positional arguments and options each nettopo-query sub-command
// takes, and the checks CLI11 applies to them before anything is read.
#pragma once

#include "nettopo-query/query_options.hpp"
#include "nettopo-query/sub_commands.hpp"

#include <CLI/CLI.hpp>

namespace nettopo {

// Adds to `sub` what `c.args` and the sub-command's name call for, bound to `o`.
void add_arguments(CLI::App* sub, const SubCommand& c, Options& o);

} // namespace nettopo
