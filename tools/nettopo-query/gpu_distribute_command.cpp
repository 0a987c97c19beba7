// nettopo-query distribute N --gpus-per-rank G: one line per rank (rank,
// host, its CPU set as OS indexes, its GPUs, its adapters), or the file a
// rank's wrapper sources (--env), or the launch files (--rankfile, --slurm).
// The binding is nettopo/query/gpu_binding.hpp's, the files
// nettopo/balance/gpu_launch.hpp's.
#include "common/json_writer.hpp"
#include "common/output.hpp"
#include "nettopo-query/distribute_command.hpp"
#include "nettopo/balance/gpu_launch.hpp"
#include "nettopo/support/error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>
#include <sstream>

namespace nettopo {

namespace {

std::vector<std::string> names(const MachineTree& tree, std::span<const std::uint32_t> devices) {
    std::vector<std::string> out;
    for (std::uint32_t d : devices) out.push_back(tree.devices()[d].name);
    return out;
}

void print_ranks(const Cluster& cluster, std::span<const GpuRank> ranks, bool json,
                 std::ostream& out) {
    std::ostringstream text;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const GpuRank& rank = ranks[r];
        const MachineTree& tree = cluster.machine_type(rank.machine).tree();
        const auto gpus = names(tree, rank.gpus), nics = names(tree, rank.nics);
        const std::string cpuset = rank_cpu_list(cluster, rank);
        if (!json) {
            text << fmt::format("{} {} {} {} {}\n", r, cluster.machine_name(rank.machine),
                                cpuset.empty() ? "-" : cpuset, fmt::join(gpus, ","),
                                nics.empty() ? "-" : fmt::format("{}", fmt::join(nics, ",")));
            continue;
        }
        JsonWriter j(text);
        j.begin_object()
            .field("rank", static_cast<std::uint64_t>(r))
            .field("machine", cluster.machine_name(rank.machine))
            .field("cpuset", cpuset)
            .key("gpus")
            .begin_array();
        for (const std::string& g : gpus) j.value(g);
        j.end_array().key("nics").begin_array();
        for (const std::string& n : nics) j.value(n);
        j.end_array().end_object().line();
    }
    out << text.str();
}

} // namespace

void run_gpu_distribute(const Cluster& cluster, std::span<const MachineId> allocation,
                        const DistributeRequest& request, std::ostream& out) {
    if (request.env && (request.rankfile == "-" || request.slurm == "-"))
        throw UsageError("--env prints on standard output: write --rankfile or --slurm to a file");
    if (request.env && request.json) throw UsageError("--env prints a shell file, not JSON");
    GpuBindRequest asked;
    asked.ranks = request.ranks;
    asked.gpus_per_rank = *request.gpus_per_rank;
    asked.nics_per_rank = request.nics_per_rank;
    const std::vector<GpuRank> ranks = distribute_gpus(cluster, allocation, asked);
    if (!request.rankfile.empty())
        write_output(request.rankfile, [&](std::ostream& file) {
            write_gpu_rankfile(file, cluster, ranks,
                               request.physical_slots ? RankfileSlots::physical
                                                      : RankfileSlots::logical);
        });
    if (!request.slurm.empty()) {
        const SlurmGpuLaunch launch = slurm_gpu_launch(cluster, ranks);
        write_output(request.slurm, [&](std::ostream& file) { file << launch.hostfile; });
        print_srun(request, ranks.size(), {launch.cpu_bind, launch.gpu_bind, launch.notes},
                   request.slurm == "-" || request.rankfile == "-" ? std::cerr : out);
    }
    if (request.env) {
        out << gpu_env_script(cluster, ranks, request.command);
        return;
    }
    if (request.rankfile.empty() && request.slurm.empty())
        print_ranks(cluster, ranks, request.json, out);
}

} // namespace nettopo
