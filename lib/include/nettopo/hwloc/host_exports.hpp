// Per-host hwloc exports: full XML (v1 or v2, as hwloc 2.9 loads them) and
// hwloc topology diffs (<topologydiff refname="node001.xml">) applied to their
// reference host with hwloc's diff API.
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <string>
#include <vector>

namespace nettopo {

class HwlocSandbox; // hwloc_sandbox.hpp

struct HostExport {
    std::string name; // HostName info of the Machine object, else the file name's stem
    MachineTree tree;
    std::string source; // the file it came from
};

// `paths`: files and directories (every *.xml inside, sorted by name). A diff's
// reference is looked up beside it by its refname. Every file is parsed as XML
// in this thread; hwloc's work (loading an export, applying a diff) runs in
// this thread too, or through `sandbox` if given, once per file
// (hwloc_sandbox.hpp). Errors are InputError naming the file. Duplicate host
// names are an InputError naming both files.
std::vector<HostExport> load_host_exports(const std::vector<std::string>& paths,
                                          const HwlocSandbox* sandbox = nullptr);

} // namespace nettopo
