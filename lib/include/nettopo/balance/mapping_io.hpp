/// \file
/// Task states and mappings as files, and the launch files a job script uses
/// to run an MPI application with a mapping (one MPI rank per task).
///
/// CSV forms (a header line first, '#' comments and blank lines ignored):
///   tasks:   task,load            load in seconds at speed 1
///   graph:   a,b,bytes            bytes per iteration between tasks a and b
///   mapping: task,pe              pe = the PE's index in the cluster
/// Tasks must be 0..N-1, each exactly once (any order).
///
/// \threads Every call here may be made from several threads at once (on
/// distinct files and streams; a shared const cluster is only read).
/// \cost O(the file's size or the mapping's; slurm_launch: plus the
/// machines). Every call throws std::bad_alloc besides what it says; the
/// readers throw InputError "file:line: what is wrong". The writers build
/// the text whole, then write it once to `out` and leave checking the
/// stream to the caller.
#pragma once

#include "nettopo/balance/task_graph.hpp"
#include "nettopo/model/cluster.hpp"

#include <iosfwd>
#include <span>
#include <string>
#include <vector>

namespace nettopo {

/// Reads the tasks' loads.
std::vector<double> read_task_loads(const std::string& path);
/// Reads the task graph of `num_tasks` tasks.
TaskGraph read_task_graph(const std::string& path, std::uint32_t num_tasks);
/// Reads a mapping of `num_tasks` tasks onto PEs of `cluster`.
std::vector<PeId> read_mapping(const std::string& path, const Cluster& cluster,
                               std::uint32_t num_tasks);
/// CSV pe,speed (relative speeds > 0); PEs not listed run at 1.
std::vector<double> read_pe_speeds(const std::string& path, const Cluster& cluster);

/// Writes a mapping as CSV task,pe.
void write_mapping(std::ostream& out, std::span<const PeId> mapping);

/// Open MPI rankfile: "rank N=HOST slot=P" with P the PU's logical index
/// inside its machine (run with --use-hwthread-cpus when machines have SMT),
/// or with `physical`, its OS index (Open MPI's rmaps_rank_file_physical=1;
/// robust when the model's logical numbering is not Open MPI's, which counts
/// every PU of the machine: a model of the allowed PUs only). Physical slots
/// throw ValueError for a PU without an OS index.
enum class RankfileSlots : std::uint8_t {
    logical,  ///< the PU's logical index inside its machine
    physical, ///< the PU's OS index
};
/// Writes the rankfile of `mapping` (rank r = task r). UsageError for a PE
/// the cluster has not, before anything is written.
void write_rankfile(std::ostream& out, const Cluster& cluster, std::span<const PeId> mapping,
                    RankfileSlots slots = RankfileSlots::logical);
/// Reads a logical rankfile back into a mapping (tests, and users who hand-edit one).
std::vector<PeId> read_rankfile(const std::string& path, const Cluster& cluster);

/// Slurm: the hostfile for --distribution=arbitrary (SLURM_HOSTFILE), one
/// host per rank in rank order, and the CPU list for --cpu-bind=map_cpu:
/// (a node's i-th local task binds to the i-th entry; OS CPU indexes).
/// What a Slurm job script needs to launch a mapping.
struct SlurmLaunch {
    std::string hostfile; ///< its content, one line per rank
    std::string cpu_bind; ///< "map_cpu:3,0,5" when one list serves every node
    std::string notes;    ///< why a single list cannot express the mapping, if so
};
/// The Slurm launch files of `mapping` (rank r = task r). UsageError for a
/// PE the cluster has not.
SlurmLaunch slurm_launch(const Cluster& cluster, std::span<const PeId> mapping);

} // namespace nettopo
