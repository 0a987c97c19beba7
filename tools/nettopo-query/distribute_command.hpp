// nettopo-query distribute: N processes spread over an allocation
// (nettopo/query/distribute.hpp places them), printed one line per rank or
// written as the launch files of Open MPI (a rankfile) and Slurm (a hostfile
// for --distribution=arbitrary and the --cpu-bind=map_cpu: list); for GPU
// jobs, each rank's GPUs, adapters and CPU set (gpu_distribute_command.cpp).
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>

namespace nettopo {

struct DistributeRequest {
    std::uint64_t ranks = 0;
    std::string policy = "scatter"; // scatter or compact
    std::string prefer;             // performance or efficiency; empty: none
    std::string rankfile;           // write an Open MPI rankfile there ('-': stdout)
    std::string slurm;              // write a Slurm hostfile there ('-': stdout)
    bool physical_slots = false;    // the rankfile's slots: OS indexes, not logical
    bool json = false;
    // GPU jobs (distribute_gpus): each rank's GPUs, adapters and CPU set.
    std::optional<std::uint32_t> gpus_per_rank;
    std::optional<std::uint32_t> nics_per_rank;
    bool env = false;    // print the file a rank's wrapper sources
    std::string command; // the command line, recorded in the --env file
};

// Places request.ranks over `allocation` (machines in the allocation's order)
// and prints the placement on `out`, or writes the files asked for and prints
// how to launch with them.
void run_distribute(const Cluster& cluster, std::span<const MachineId> allocation,
                    const DistributeRequest& request, std::ostream& out);

// What srun is given: --cpu-bind, --gpu-bind for GPU jobs, and why one
// list cannot serve every node (printed as comments).
struct SrunBinding {
    std::string cpu_bind;
    std::optional<std::string> gpu_bind;
    std::string notes;
};
// The srun command line that uses request.slurm's hostfile, or the notes.
void print_srun(const DistributeRequest& request, std::size_t ranks, const SrunBinding& binding,
                std::ostream& out);

// The same with request.gpus_per_rank set: one line per rank (rank, host,
// cpuset, GPUs, adapters), or the --env file, or the launch files.
void run_gpu_distribute(const Cluster& cluster, std::span<const MachineId> allocation,
                        const DistributeRequest& request, std::ostream& out);

} // namespace nettopo
