/// \file
/// Writes a cluster's network as a Slurm topology.conf or topology.yaml
/// (topology/tree).
/// \threads Every call may be made from several threads at once on one
/// const cluster, with distinct streams and files.
/// \cost O(V + E) plus the hostlists' compression (linear in the names).
/// Every call throws std::bad_alloc, and Error when the file cannot be
/// written, besides what it says.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <ostream>
#include <string>

namespace nettopo {

/// The network must be tree-shaped as Slurm's topology/tree plugin sees it:
/// machines are linked only to switches (a machine may hang off several, as
/// Slurm allows), every switch leads down to machines, and no switch has both
/// machines and child switches (Slurm rejects that). One line per switch:
/// "SwitchName=S Switches=<hostlist>" or "SwitchName=S Nodes=<hostlist>",
/// leaves first, then upwards; of two linked switches the one farther from
/// the machines is the parent. Latencies and cable counts are not written;
/// "LinkSpeed=N" ends a switch's line when every link from it down to its
/// children has the same known bandwidth: N in Mbit/s. read_slurm_topology
/// gives back the same switches, machines and links (it ignores LinkSpeed).
/// Throws InputError naming what is not tree-shaped; writes nothing then.
void write_slurm_topology(const Cluster& cluster, std::ostream& out);

/// The same tree as a topology.yaml (Slurm 23.11+): one topology "default",
/// cluster_default: true, tree: switches: one entry per line of
/// topology.conf, in the same order ("switch:" with "nodes:" or "children:"
/// hostlists). No LinkSpeed: topology.yaml has no key for it. Read back by
/// read_slurm_topology to the same switches, machines and links. Throws as
/// write_slurm_topology.
void write_slurm_topology_yaml(const Cluster& cluster, std::ostream& out);

/// write_slurm_topology to a file, atomically (write_atomically); the text is
/// checked whole before anything is written. Throws as write_slurm_topology,
/// and Error naming the file when it cannot be written.
void save_slurm_topology(const Cluster& cluster, const std::string& path);

} // namespace nettopo
