// Runs hwloc's parsers in a child process. hwloc 2.9 dereferences NULL on
// some incomplete XML exports (a root without nodesets, for instance) and
// lstopo dies the same way; a user's bad file must give a message and exit
// code 1, never take the tool down. The child converts the topology into a
// MachineTree and sends it back through a pipe.
#pragma once

#include "nettopo/hwloc/hwloc_source.hpp"

#include <functional>
#include <string>

namespace nettopo::detail {

// Runs `load` in a forked child. InputError thrown by it is rethrown here
// with its message; a crash of the child becomes InputError naming `source`.
HwlocMachine load_isolated(const std::string& source, const std::function<HwlocMachine()>& load);

} // namespace nettopo::detail
