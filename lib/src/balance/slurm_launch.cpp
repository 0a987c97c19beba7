// What a Slurm job script needs to run one MPI rank per task where a
// mapping puts it: SLURM_HOSTFILE for srun --distribution=arbitrary (line i
// is rank i's host), and --cpu-bind=map_cpu:LIST. srun applies map_cpu on
// every node to the node's local task ids (the node's ranks in rank order;
// entries are reused from the start when a node has more tasks than the
// list), with the operating system's CPU ids. So one list serves the job
// only when every node's list is a prefix of the longest; otherwise
// cpu_bind stays empty and the notes give each node's list.
//
// CPU ids are the PUs' os_index from the machine tree (hwloc's P#); a
// synthetic machine has none, and then the logical index is written and the
// notes say so.
#include "nettopo/balance/mapping_io.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace nettopo {

SlurmLaunch slurm_launch(const Cluster& cluster, std::span<const PeId> mapping) {
    SlurmLaunch launch;
    // Per machine, the CPU of each of its ranks in rank order.
    std::vector<std::vector<std::uint32_t>> cpus(cluster.num_machines());
    bool guessed = false;
    for (const PeId p : mapping) {
        const PeId pe = cluster.require_pe(p.value);
        const MachineId m = cluster.machine_of(pe);
        fmt::format_to(std::back_inserter(launch.hostfile), "{}\n", cluster.machine_name(m));
        const MachineTree& tree = cluster.machine_type(m).tree();
        const std::uint32_t logical = cluster.local_pu(pe);
        const std::uint32_t os = tree.object(tree.pu(logical)).os_index;
        guessed |= os == unknown_os_index;
        cpus[m.value].push_back(os == unknown_os_index ? logical : os);
    }
    const std::vector<std::uint32_t>* longest = nullptr;
    for (const auto& list : cpus)
        if (!longest || list.size() > longest->size()) longest = &list;
    const bool uniform = std::all_of(cpus.begin(), cpus.end(), [&](const auto& list) {
        return std::equal(list.begin(), list.end(), longest->begin());
    });
    if (guessed)
        launch.notes += "some PUs have no OS index (a synthetic machine): their logical index "
                        "inside the machine stands in for it in map_cpu\n";
    if (mapping.empty()) return launch;
    if (uniform) {
        launch.cpu_bind = fmt::format("map_cpu:{}", fmt::join(*longest, ","));
        return launch;
    }
    launch.notes += "the nodes need different CPU lists, which one --cpu-bind=map_cpu cannot "
                    "express; run one srun per node (or a heterogeneous job) with its list:\n";
    for (std::uint32_t m = 0; m < cluster.num_machines(); ++m)
        if (!cpus[m].empty())
            fmt::format_to(std::back_inserter(launch.notes), "{}: map_cpu:{}\n",
                           cluster.machine_name(MachineId(m)), fmt::join(cpus[m], ","));
    return launch;
}

} // namespace nettopo
