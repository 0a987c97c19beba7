/// \file
/// Units: groups of hosts cabled to exactly the same switches. On a
/// rail-optimized GPU fabric a unit is a scalable unit (every host on all
/// the unit's rail leaves); on a fat-tree, the hosts of one leaf switch. An
/// allocation counts its units (query/allocation.hpp); Slurm's topology/block
/// export writes one block per unit (fabric/slurm_block_writer.hpp).
/// \threads A pure function of a const cluster: safe from several threads.
/// \cost O(L log L) for the given machines' L links to switches (a sort of
/// their switch lists), O(machines + L) memory. Throws std::bad_alloc only.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <span>
#include <vector>

namespace nettopo {

/// One unit: hosts with the same switches.
struct HostUnit {
    /// The switches each of its hosts is linked to, ascending; empty for
    /// hosts linked to no switch (a direct network's), which form one unit.
    std::vector<SwitchId> switches;
    /// Its hosts, in ascending id order, each once.
    std::vector<MachineId> machines;
};

/// The units of `machines` (each given once): machines linked to exactly the
/// same set of switches, whatever the number of cables to each, form one
/// unit. Links to other machines do not count. Units come in the order of
/// their first machine id.
std::vector<HostUnit> host_units(const Cluster& cluster, std::span<const MachineId> machines);

/// The units of all the cluster's machines.
std::vector<HostUnit> host_units(const Cluster& cluster);

} // namespace nettopo
