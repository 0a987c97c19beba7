// nettopo-query's sub-commands: name, help, the arguments they take and
// what each does with a Run.
#pragma once

#include "nettopo-query/query_run.hpp"

#include <functional>
#include <vector>

namespace nettopo {

using Command = std::function<void(Run&)>;

// name, help, positional arguments ("pe", "pair", "machine", "node", "vertex", "nearest",
// "expected", "distribute" or ""), action
struct SubCommand {
    const char* name;
    const char* help;
    const char* args;
    Command run;
};

const std::vector<SubCommand>& commands();

} // namespace nettopo
