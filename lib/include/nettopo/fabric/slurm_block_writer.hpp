/// \file
/// Writes a cluster's units (model/host_units.hpp: hosts cabled to exactly
/// the same switches) as the base blocks of Slurm's topology/block plugin, in
/// topology.conf or topology.yaml. The rules and their sources are in
/// share/doc/exports.md ("Slurm: topology/block").
/// \threads Every call may be made from several threads at once on one
/// const cluster, with distinct streams and files.
/// \cost O(L log L) for the machines' L links to switches (the units), plus
/// the hostlists' compression (linear in the names). Every call throws
/// std::bad_alloc besides what it says.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <ostream>
#include <string>

namespace nettopo {

/// One "BlockName=bN Nodes=<hostlist>" line per unit, then "BlockSizes=S,2S,
/// 4S,...": S, the hosts of every unit (Slurm's base block size), and its
/// power-of-two multiples up to the first that holds all the blocks. Blocks
/// are numbered b1, b2, ... in the natural order of their first host (Slurm
/// joins neighbouring blocks into its larger ones), each line ending with a
/// comment naming the unit's switches. Throws InputError, writing nothing,
/// when a machine is linked to no switch (naming them) or when the units
/// are not all of one size (naming the hosts of the units of other sizes
/// than the most common one), and for names topology.conf cannot hold.
/// read_slurm_topology reads the file back to one switch per block with its
/// hosts.
void write_slurm_block_topology(const Cluster& cluster, std::ostream& out);

/// The same blocks as a topology.yaml (Slurm 23.11+): one topology "default",
/// cluster_default: true, block: block_sizes: [S, 2S, ...], blocks: one entry
/// per block ("block:" and "nodes:"). Throws as write_slurm_block_topology.
void write_slurm_block_topology_yaml(const Cluster& cluster, std::ostream& out);

/// write_slurm_block_topology to a file, atomically (write_atomically): the
/// text is made whole before anything is written. Throws as
/// write_slurm_block_topology, and Error naming the file when it cannot be
/// written.
void save_slurm_block_topology(const Cluster& cluster, const std::string& path);

/// write_slurm_block_topology_yaml to a file, as save_slurm_block_topology.
void save_slurm_block_topology_yaml(const Cluster& cluster, const std::string& path);

} // namespace nettopo
