// Writes a cluster's network as a Slurm topology.conf (topology/tree).
#pragma once

#include "nettopo/cluster.hpp"

#include <ostream>

namespace nettopo {

// The network must be tree-shaped as Slurm's topology/tree plugin sees it:
// every machine is linked to exactly one switch and to no machine, and the
// switches form a hierarchy (a switch may have several parents, as Slurm
// allows). One line per switch: "SwitchName=S Switches=<hostlist>" or
// "SwitchName=S Nodes=<hostlist>" (both when it has both), leaves first,
// then upwards. read_slurm_topology gives back the same switches, machines
// and links. Throws UsageError naming what is not tree-shaped.
void write_slurm_topology(const Cluster& cluster, std::ostream& out);

} // namespace nettopo
