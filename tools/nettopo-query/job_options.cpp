#include "nettopo-query/job_options.hpp"

#include "nettopo/support/error.hpp"
#include "nettopo/support/hostfile.hpp"
#include "nettopo/support/hostlist.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iostream>

namespace nettopo {

void add_job_options(CLI::App& app, JobOptions& o) {
    app.add_option("--nodes", o.nodes,
                   "Restrict every query to these machines, a Slurm hostlist "
                   "('node[001-016,020]'): PEs and nodes are then numbered within them, "
                   "0..N-1, the machines in the list's order, each machine's PEs in logical "
                   "order")
        ->type_name("HOSTLIST");
    app.add_option("--hostfile", o.hostfile,
                   "The same with the machines of a host file ('-' = stdin): one host a line "
                   "as mpirun reads it ('node01 slots=4'), '#' comments; a host repeated (as "
                   "in $PBS_NODEFILE) counts once, at its first line")
        ->type_name("FILE")
        ->type_name("FILE");
    app.add_flag("--job", o.job,
                 "The same with this job's machines: $SLURM_JOB_NODELIST, else the host file "
                 "$PBS_NODEFILE");
}

void check_standard_input(const JobOptions& o, std::string_view input, std::string_view pairs) {
    if (o.hostfile != "-") return;
    if (input == "-") throw UsageError("-i - and --hostfile - cannot both read standard input");
    if (pairs == "-")
        throw UsageError("--hostfile - and --pairs - cannot both read standard input");
}

namespace {
std::vector<HostfileHost> hostfile_hosts(const std::string& path) {
    if (path == "-") return read_hostfile_lines(std::cin, "<stdin>");
    std::ifstream in(path);
    if (!in)
        throw InputError(path, 0,
                         fmt::format("cannot read the host file: {}", std::strerror(errno)));
    return read_hostfile_lines(in, path);
}

std::vector<std::string> hostlist_names(const std::string& expression, const std::string& what) {
    try {
        return expand_hostlist(expression);
    } catch (const InputError& e) {
        throw InputError(what, 0, e);
    }
}
} // namespace

std::optional<JobView> job_view_from_options(const Cluster& cluster, const JobOptions& o) {
    if (int(!o.nodes.empty()) + int(!o.hostfile.empty()) + int(o.job) > 1)
        throw UsageError("give one of --nodes, --hostfile and --job");
    std::vector<std::string> names;
    std::vector<std::size_t> lines; // of each name, when they come from a file
    std::string source;
    const auto add_hostfile = [&](const std::string& path) {
        for (HostfileHost& host : hostfile_hosts(path)) {
            names.push_back(std::move(host.name));
            lines.push_back(host.line);
        }
    };
    if (!o.nodes.empty()) {
        // The hostlist is a command-line argument: what is wrong with it is
        // bad usage, as for a machine argument, not bad data.
        try {
            return JobView(cluster, machines_of_hostlist(cluster, o.nodes, "--nodes"));
        } catch (const InputError& e) {
            throw UsageError(e.what());
        }
    }
    if (!o.hostfile.empty()) {
        source = o.hostfile == "-" ? "<stdin>" : o.hostfile;
        add_hostfile(o.hostfile);
    } else if (o.job) {
        // Environment variables are read here, in the tool: the library reads none.
        if (const char* list = std::getenv("SLURM_JOB_NODELIST"); list && *list) {
            source = "$SLURM_JOB_NODELIST";
            names = hostlist_names(list, source);
        } else if (const char* file = std::getenv("PBS_NODEFILE"); file && *file) {
            source = file;
            add_hostfile(file);
        } else {
            throw UsageError("--job: neither SLURM_JOB_NODELIST nor PBS_NODEFILE is set (not "
                             "inside a Slurm or PBS job?); give --nodes or --hostfile");
        }
    } else {
        return std::nullopt;
    }
    if (names.empty()) throw InputError(source, 0, "names no host");
    return JobView(cluster, machines_named(cluster, names, source, lines));
}

} // namespace nettopo
