// Machine trees from hwloc: a synthetic description, an XML export of one
// machine, or the machine we run on. All three go through one conversion of
// an hwloc topology, so they agree with what lstopo shows.
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <string>
#include <string_view>

namespace nettopo {

class HwlocSandbox; // hwloc_sandbox.hpp

struct HwlocMachine {
    MachineTree tree;
    std::string hostname; // HostName info of the Machine object; empty if absent
};

// Validates the description itself first (clear message naming the bad
// token), then lets hwloc build it: in this thread, or through `sandbox` if
// given (hwloc_sandbox.hpp). Throws InputError without location.
MachineTree tree_from_synthetic(std::string_view description,
                                const HwlocSandbox* sandbox = nullptr);

// Loads an hwloc XML export (v1 or v2 format). The file is parsed as XML
// first (malformed XML is reported with its line, and what hwloc 2.9 is known
// to crash on is refused), then by hwloc: in this thread, or through
// `sandbox` if given (hwloc_sandbox.hpp). Throws InputError naming the file.
HwlocMachine load_hwloc_xml(const std::string& path, const HwlocSandbox* sandbox = nullptr);

// The machine this process runs on.
HwlocMachine discover_this_machine();

// The release of the hwloc library this process runs with (not the one it was
// built against), as "MAJOR.MINOR.PATCH": what hwloc records on a topology it
// loads (a one-PU synthetic one, a few microseconds), else its API version
// (hwloc_get_api_version()). Thread-safe; throws only std::bad_alloc.
std::string hwloc_runtime_version();

} // namespace nettopo
