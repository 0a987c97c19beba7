// nettopo-query distribute: N processes spread over an allocation
// (nettopo/query/distribute.hpp places them), printed one line per rank or
// written as the launch files of Open MPI (a rankfile) and Slurm (a hostfile
// for --distribution=arbitrary and the --cpu-bind=map_cpu: list).
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>
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
};

// Places request.ranks over `allocation` (machines in the allocation's order)
// and prints the placement on `out`, or writes the files asked for and prints
// how to launch with them.
void run_distribute(const Cluster& cluster, std::span<const MachineId> allocation,
                    const DistributeRequest& request, std::ostream& out);

} // namespace nettopo
