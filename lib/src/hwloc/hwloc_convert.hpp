// The one conversion of an hwloc topology into a MachineTree, shared by the
// sources of hwloc_source.cpp and by the host exports (diffs applied with
// hwloc's diff API). Only for code that already runs hwloc (in the child of
// load_isolated when the input is a user's file).
#pragma once

#include "nettopo/hwloc/hwloc_source.hpp"

#include <hwloc.h>
#include <memory>

namespace nettopo::detail {

struct TopologyDeleter {
    void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using Topology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

// An initialised, not yet loaded topology with lstopo's filters (instruction
// caches kept). Throws Error if hwloc cannot initialise.
Topology make_topology();

// The tree of a loaded topology and the HostName info of its root (empty if
// absent). Throws InputError (without location) on a tree nettopo refuses.
HwlocMachine machine_of(hwloc_topology_t topology);

} // namespace nettopo::detail
