// nettopo-query's allocation options: --nodes HOSTLIST, --hostfile FILE and
// --job (Slurm's $SLURM_JOB_NODELIST, else PBS's $PBS_NODEFILE), which
// restrict every query to a job's machines (model/job_view.hpp).
#pragma once

#include "nettopo/model/job_view.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace nettopo {

struct JobOptions {
    std::string nodes;    // --nodes
    std::string hostfile; // --hostfile ('-' = stdin)
    bool job = false;     // --job
    bool any() const { return !nodes.empty() || !hostfile.empty() || job; }
};

void add_job_options(CLI::App& app, JobOptions& o);

// UsageError when --hostfile - and another input (-i -, --pairs -) would
// both read standard input.
void check_standard_input(const JobOptions& o, std::string_view input, std::string_view pairs);

// The allocation the options name (nullopt when none is given). UsageError
// for two of them or --job outside a job; InputError for a malformed
// hostlist or host file, or hosts not in the cluster.
std::optional<JobView> job_view_from_options(const Cluster& cluster, const JobOptions& o);

} // namespace nettopo
