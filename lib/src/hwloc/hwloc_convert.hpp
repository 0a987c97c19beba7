// The one conversion of an hwloc topology into a MachineTree, shared by the
// sources of hwloc_source.cpp and by the host exports (diffs applied with
// hwloc's diff API), and the one place hwloc's parsers are run from.
#pragma once

#include "nettopo/hwloc/hwloc_sandbox.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"

#include <functional>
#include <hwloc.h>
#include <memory>
#include <string>
#include <vector>

namespace nettopo::detail {

struct TopologyDeleter {
    void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using Topology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

// An initialised, not yet loaded topology with lstopo's filters (instruction
// caches kept) that keeps disallowed PUs and NUMA nodes (whole_machine:
// `lstopo --disallowed`) or drops them (allowed_only: plain `lstopo`). Throws
// Error if hwloc cannot initialise.
Topology make_topology(PuScope scope = PuScope::whole_machine);

// The tree of a topology loaded with make_topology(whole_machine), the
// HostName info of its root (empty if absent) and the PUs it allowed. For
// allowed_only, the tree is what hwloc keeps of the topology's XML export
// when it drops what was disallowed (the export as plain `lstopo -i` shows
// it), and must hold exactly the allowed PUs. Throws InputError (without
// location) on a tree nettopo refuses.
HwlocMachine machine_of(hwloc_topology_t topology, PuScope scope);

// Adds hwloc's CPU kinds to a builder holding the topology's tree, whose
// PU objects `pus` are in the builder's PU order (hwloc_cpu_kinds.cpp).
void add_cpu_kinds(MachineTree::Builder& b, hwloc_topology_t topo,
                   const std::vector<hwloc_obj_t>& pus);

// Runs `parse`, hwloc's work on a user's input: through the caller's sandbox
// if it gave one, else here, in the calling thread (never in another process:
// the library is used inside threaded programs).
inline HwlocMachine run_hwloc(const HwlocSandbox* sandbox, const std::string& source,
                              const std::function<HwlocMachine()>& parse) {
    return sandbox ? sandbox->run(source, parse) : parse();
}

} // namespace nettopo::detail
