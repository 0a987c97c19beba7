// nettopo-query distribute: prints the placement (rank, host, the PU's
// logical index inside the host, its OS index) or writes the launch files.
// The rankfile holds logical PU indexes (nettopo/balance/mapping_io.hpp), which
// Open MPI 4.1 reads as PUs only with --use-hwthread-cpus (or --bind-to
// hwthread); without it a slot is a logical core. With --physical-slots it
// holds OS indexes (mpirun --mca rmaps_rank_file_physical 1). The man page
// gives the command lines, tests/mpi/mpi_distribute.sh runs them.
#include "nettopo-query/distribute_command.hpp"

#include "common/json_writer.hpp"
#include "common/output.hpp"
#include "nettopo/balance/mapping_io.hpp"
#include "nettopo/query/distribute.hpp"
#include "nettopo/support/error.hpp"

#include <fmt/format.h>
#include <iostream>
#include <optional>
#include <sstream>
#include <string_view>

namespace nettopo {

namespace {

template <class F> void for_each_line(std::string_view text, F&& f) {
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        f(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    }
}

std::optional<std::uint32_t> os_index_of(const Cluster& cluster, PeId pe) {
    const MachineTree& tree = cluster.machine_type(cluster.machine_of(pe)).tree();
    const std::uint32_t os = tree.object(tree.pu(cluster.local_pu(pe))).os_index;
    if (os == unknown_os_index) return std::nullopt;
    return os;
}

void print_placement(const Cluster& cluster, std::span<const PeId> placement, bool json,
                     std::ostream& out) {
    std::string text;
    for (std::size_t rank = 0; rank < placement.size(); ++rank) {
        const PeId pe = placement[rank];
        const std::string_view host = cluster.machine_name(cluster.machine_of(pe));
        const std::uint32_t pu = cluster.local_pu(pe);
        const std::optional<std::uint32_t> os = os_index_of(cluster, pe);
        if (json) {
            std::ostringstream line;
            JsonWriter j(line);
            j.begin_object()
                .field("rank", static_cast<std::uint64_t>(rank))
                .field("machine", host)
                .field("pu", pu)
                .field("os_index", os)
                .end_object()
                .line();
            text += line.str();
        } else {
            fmt::format_to(std::back_inserter(text), "{} {} {} {}\n", rank, host, pu,
                           os ? fmt::format("{}", *os) : std::string("-"));
        }
        if (text.size() > (1u << 16)) { // bounded memory for a hundred million ranks
            out << text;
            text.clear();
        }
    }
    out << text;
}

} // namespace

void print_srun(const DistributeRequest& request, std::size_t ranks, const SrunBinding& binding,
                std::ostream& out) {
    const bool bound =
        !binding.cpu_bind.empty() && (!binding.gpu_bind || !binding.gpu_bind->empty());
    std::string gpu_option;
    if (binding.gpu_bind) gpu_option = fmt::format(" --gpu-bind={}", *binding.gpu_bind);
    const std::optional<std::string> srun =
        !bound ? std::nullopt
               : std::optional<std::string>(fmt::format(
                     "SLURM_HOSTFILE={} srun --distribution=arbitrary --ntasks={} --cpu-bind={}{}",
                     request.slurm == "-" ? "FILE" : request.slurm, ranks, binding.cpu_bind,
                     gpu_option));
    auto unless_empty = [](const std::string& s) {
        return s.empty() ? std::nullopt : std::optional<std::string>(s);
    };
    if (request.json) {
        JsonWriter j(out);
        j.begin_object()
            .field("slurm_hostfile", request.slurm)
            .field("num_tasks", static_cast<std::uint64_t>(ranks))
            .field("cpu_bind", unless_empty(binding.cpu_bind));
        if (binding.gpu_bind) j.field("gpu_bind", unless_empty(*binding.gpu_bind));
        j.field("srun", srun).key("notes").begin_array();
        for_each_line(binding.notes, [&](std::string_view note) { j.value(note); });
        j.end_array().end_object().line();
        return;
    }
    if (srun) out << *srun << '\n';
    for_each_line(binding.notes, [&](std::string_view note) { out << "# " << note << '\n'; });
}

void run_distribute(const Cluster& cluster, std::span<const MachineId> allocation,
                    const DistributeRequest& request, std::ostream& out) {
    if (request.rankfile == "-" && request.slurm == "-")
        throw UsageError("only one of --rankfile and --slurm can be '-'");
    if (request.gpus_per_rank) {
        run_gpu_distribute(cluster, allocation, request, out);
        return;
    }
    const CpuKindPreference prefer = request.prefer.empty()
                                         ? CpuKindPreference::none
                                         : parse_cpu_kind_preference(request.prefer);
    if (prefer != CpuKindPreference::none && !has_ranked_cpu_kinds(cluster, allocation))
        std::cerr << fmt::format("nettopo-query: warning: --prefer {} changes nothing: no "
                                 "machine here has CPU kinds of different efficiencies\n",
                                 request.prefer);
    const std::vector<PeId> placement = distribute(cluster, allocation, request.ranks,
                                                   parse_distribute_policy(request.policy), prefer);
    if (request.rankfile.empty() && request.slurm.empty()) {
        print_placement(cluster, placement, request.json, out);
        return;
    }
    if (!request.rankfile.empty())
        write_output(request.rankfile, [&](std::ostream& file) {
            write_rankfile(file, cluster, placement,
                           request.physical_slots ? RankfileSlots::physical
                                                  : RankfileSlots::logical);
        });
    if (!request.slurm.empty()) {
        const SlurmLaunch launch = slurm_launch(cluster, placement);
        write_output(request.slurm, [&](std::ostream& file) { file << launch.hostfile; });
        // A file written to standard output keeps it for itself.
        print_srun(request, placement.size(), {launch.cpu_bind, std::nullopt, launch.notes},
                   request.slurm == "-" || request.rankfile == "-" ? std::cerr : out);
    }
}

} // namespace nettopo
