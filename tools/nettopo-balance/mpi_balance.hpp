// nettopo-balance --mpi: a real message-passing run of a distributed
// strategy, one MPI rank per simulated PE, on the same state the simulator
// balances; rank 0 compares the two (mapping, messages, max/avg). Built only
// with MPI (mpi_balance.cpp); without it (mpi_balance_unavailable.cpp) the
// call says so. Every distributed strategy runs over MPI: NeighborLB's
// (neighbor, neighbor-charm) and the gossip protocols (grapevine,
// grapevine-6.8, packdrop, packdrop-sbac) as per-PE programs
// (pe_agents.hpp, which the simulator runs in one process), each checked
// against the simulator move for move.
#pragma once

#include "nettopo/balance/balance.hpp"
#include "nettopo/balance/comm_model.hpp"
#include "nettopo/balance/task_graph.hpp"
#include "nettopo/model/cluster.hpp"

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

// What every rank builds, the same way, before the run.
struct MpiBalanceState {
    std::unique_ptr<Cluster> cluster;
    std::unique_ptr<CommModel> model; // over *cluster
    std::vector<double> loads;        // per task, at speed 1
    std::vector<PeId> mapping;        // per task
    std::vector<double> speeds;       // per PE, empty: all 1
    TaskGraph graph;
    std::uint32_t measured_iterations = 1; // the loads are means over so many
    std::string strategy;                  // a distributed strategy
    StrategyOptions options;
};

// What rank 0 prints: the MPI run beside the simulator's on the same state.
struct MpiBalanceComparison {
    std::string strategy, cluster;
    // What the MPI run must equal, move for move and message for message:
    // "simulator" (the key stays for the JSON schema's sake).
    std::string reference;
    std::uint32_t num_tasks = 0;
    std::uint32_t ranks = 0;
    std::uint64_t mpi_messages = 0, reference_messages = 0, simulated_messages = 0;
    std::uint64_t mpi_migrations = 0, simulated_migrations = 0;
    double max_avg_before = 0, mpi_max_avg_after = 0, simulated_max_avg_after = 0;
    double mpi_seconds = 0;    // wall time of the MPI protocol, rank 0's view
    bool same_mapping = false; // as the reference's
};

struct MpiBalanceOptions {
    std::string_view tool;
    std::function<MpiBalanceState()> build; // throws UsageError, InputError
    std::function<void(const MpiBalanceComparison&)> print_on_root;
};

// Runs this process as one rank (MPI_Init to MPI_Finalize); returns its exit
// status: 0 when the MPI run and its reference agree (the same mapping and
// message count), 3 when they differ, 1 bad data, 2 bad usage (among them a
// number of ranks that is not the number of PEs). Messages come from rank 0.
int balance_over_mpi(const MpiBalanceOptions& options);

// A command-line error of an --mpi run: every rank parses the same line, so
// the ranks meet (MPI_Init, a barrier) and rank 0 alone says what is wrong,
// before any rank exits (a rank exiting early would have mpirun kill rank 0
// before it speaks). Returns 2 on every rank. Without MPI, says it at once.
int report_mpi_usage_error(std::string_view tool, std::string_view message);

} // namespace nettopo
