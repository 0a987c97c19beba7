// The tools' hwloc sandbox: hwloc parses a user's file in a forked child
// process. hwloc 2.9 dereferences NULL on some malformed exports (lstopo dies
// the same way); a user's bad file must give a message and exit code 1, never
// take the tool down. The child converts the topology into a MachineTree and
// sends it back through a pipe; the tool rebuilds it with
// MachineTree::Builder.
//
// For single-threaded programs such as the tools: forking a threaded program
// is undefined behaviour, which is why the library does not do this itself.
#pragma once

#include "nettopo/hwloc/hwloc_sandbox.hpp"

#include <functional>
#include <string>

namespace nettopo {

class ChildProcessSandbox final : public HwlocSandbox {
public:
    // Runs `parse` in a forked child with its standard error sent to
    // /dev/null (hwloc's banners about bad input; the tool reports one clear
    // line instead). An InputError thrown there is rethrown here with the
    // same file, line and message, any other exception as an InputError with
    // its message; a crash of the child becomes an InputError naming
    // `source`: "hwloc crashed reading this (signal 11): ...".
    HwlocMachine run(const std::string& source,
                     const std::function<HwlocMachine()>& parse) const override;
};

} // namespace nettopo
