// nettopo-discover --mpi: every rank of an MPI job discovers its own machine
// and rank 0 assembles the cluster from what they send. Built only with MPI
// (mpi_gather.cpp); without it (mpi_unavailable.cpp) the call says so.
#pragma once

#include "nettopo/assemble/assemble.hpp"

#include <functional>
#include <string_view>

namespace nettopo {

struct MpiDiscoverOptions {
    std::string_view tool;             // names the messages ("nettopo-discover: error: ...")
    std::function<void()> check_usage; // throws UsageError; run on every rank before the gather
    std::function<int(const GatheredHosts&)> assemble_on_root; // rank 0: assemble, write; exit code
    bool quiet = false;                                        // no summary of the gather on stderr
    PuScope pu_scope = PuScope::whole_machine; // each rank's machine: whole, or its allowed PUs
};

// Runs this process as one rank of the gather (MPI_Init to MPI_Finalize) and
// returns its exit status: rank 0's is the run's (0, 1 bad data, 2 bad
// usage); when a rank cannot discover its machine every rank returns 1 and
// rank 0 names the hosts, before anything is written. Messages come from
// rank 0 only. UsageError when built without MPI.
int discover_over_mpi(const MpiDiscoverOptions& options);

} // namespace nettopo
