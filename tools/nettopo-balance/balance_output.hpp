// What nettopo-balance prints (a table for people, CSV and JSON for
// scripts) and the files it writes (mapping, rankfile, Slurm hostfile), all
// of them atomically. The table starts with a header: the command and its
// parameters, as # comments; CSV has them only when asked (plain CSV
// otherwise); JSON holds them as members, numbers as numbers.
#pragma once

#include "common/report_fields.hpp"
#include "nettopo-balance/mpi_balance.hpp"
#include "nettopo/balance/detail/balance_summary.hpp"
#include "nettopo/balance/mapping_io.hpp"
#include "nettopo/balance/simulator.hpp"

#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace nettopo {

struct BalanceReportHeader {
    std::string command;
    ReportFields parameters;
    std::vector<std::pair<std::string, std::string>> outputs; // files written, how to use them
    bool csv_comments = false; // CSV: the header as # lines before the heading
};

enum class ReportFormat { Table, Csv, Json };

// One row per simulated run (the none run first).
// nettopo-balance --mpi: the MPI run beside the simulator's.
void write_mpi_comparison(std::ostream& out, ReportFormat format, const BalanceReportHeader& header,
                          const MpiBalanceComparison& c);

// spreads: empty, or one per result (several seeds): min, median and max
// of the main results are added to each row.
void write_comparison(std::ostream& out, ReportFormat format, const BalanceReportHeader& header,
                      std::span<const SimulationResult> results,
                      std::span<const SimulationSpread> spreads = {});
// One balancing of a given state.
void write_balance_summary(std::ostream& out, ReportFormat format,
                           const BalanceReportHeader& header, const BalanceSummary& summary);

// Files replaced atomically ("-": standard output).
void save_mapping(const std::string& path, std::span<const PeId> mapping);
void save_rankfile(const std::string& path, const Cluster& cluster, std::span<const PeId> mapping);
// Writes the hostfile and returns the launch (its cpu_bind and notes).
SlurmLaunch save_slurm_hostfile(const std::string& path, const Cluster& cluster,
                                std::span<const PeId> mapping);

} // namespace nettopo
