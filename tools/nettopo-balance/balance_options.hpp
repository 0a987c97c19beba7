// nettopo-balance's command line: what the user asked for (Options) and the
// option table that fills it. main.cpp turns Options into runs.
#pragma once

#include "nettopo/balance/comm_model.hpp"
#include "nettopo/balance/detail/platform.hpp"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nettopo {

struct BalanceToolOptions {
    std::string input, gen, node_level = "auto", decision_time = "measured";
    std::string index_use = "auto"; // --index: auto, always, never
    std::string workload, strategies;
    std::vector<std::string> latencies; // --latency TYPE=NS
    std::optional<std::uint32_t> iterations, every;
    std::optional<std::uint64_t> seed;
    std::uint32_t seeds = 1;
    std::string tasks, graph, mapping, speeds, output, rankfile, slurm;
    double loss = 0, delay = 0;
    std::uint32_t max_delay = 4;
    double intra_gbps = CommModelOptions{}.intra_machine_gbps;
    double link_gbps = CommModelOptions{}.default_link_gbps;
    bool json = false, csv = false, csv_comments = false, quiet = false, list = false;
    bool allowed_only = false;
    bool mpi = false; // one MPI rank per PE (mpi_balance.hpp)
    // Costs (platform.hpp): a network kind, then each knob on its own.
    std::string network; // empty: the preset's, else none
    CostOverrides costs; // --overhead-us ... --gather
    // Strategy parameters (StrategyOptions), unset: their defaults.
    std::optional<double> refine_tolerance, refine_step, smart_threshold, smart_gap, topo_slack;
    std::optional<double> grapevine_tolerance, packdrop_tolerance;
    std::optional<std::uint32_t> smart_passes, gossip_fanout, grapevine_phases, packdrop_tries;
    std::optional<std::uint32_t> reply_timeout;
};

// Adds every option of nettopo-balance to `app`, filling `o`.
void add_balance_options(CLI::App& app, BalanceToolOptions& o);

} // namespace nettopo
