// The launch files of a GPU binding (gpu_launch.hpp states the naming rules).
// Slurm applies one --cpu-bind/--gpu-bind list on every node to the node's
// local task ids, as slurm_launch.cpp explains for map_cpu: one list serves
// the job only when every node's list is a prefix of the longest.
#include "nettopo/balance/gpu_launch.hpp"

#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ostream>
#include <tuple>

namespace nettopo {

namespace {

enum class Vendor : std::uint8_t { Nvidia, Amd, Intel, Unknown };

Vendor vendor_of(const MachineTree& tree, const IoDevice& gpu) {
    if (gpu.pci != no_pci) switch (tree.pci()[gpu.pci].vendor_id) {
        case 0x10de:
            return Vendor::Nvidia;
        case 0x1002:
            return Vendor::Amd;
        case 0x8086:
            return Vendor::Intel;
        default:
            break;
        }
    for (const std::string& n : gpu.names) {
        if (n.starts_with("cuda") || n.starts_with("nvml")) return Vendor::Nvidia;
        if (n.starts_with("rsmi")) return Vendor::Amd;
        if (n.starts_with("ze")) return Vendor::Intel;
    }
    return Vendor::Unknown;
}

std::vector<std::uint32_t> os_cpus(const Cluster& cluster, const GpuRank& r, bool* guessed) {
    const MachineTree& tree = cluster.machine_type(r.machine).tree();
    std::vector<std::uint32_t> os;
    for (std::uint32_t pu : r.pus) {
        const std::uint32_t i = tree.object(tree.pu(pu)).os_index;
        if (i == unknown_os_index && guessed) *guessed = true;
        os.push_back(i == unknown_os_index ? pu : i);
    }
    return os;
}

std::vector<std::uint32_t> runtime_indexes(const MachineTree& tree, const GpuRank& r) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t g : r.gpus) out.push_back(gpu_runtime_index(tree, g));
    return out;
}

// A shell word: as is when it holds only safe characters, else single-quoted.
std::string shell_word(std::string_view s) {
    const bool safe = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("._,:=/+-@%").find(c) != std::string_view::npos;
    });
    if (safe) return std::string(s);
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// A set of CPU or GPU indexes as Slurm's hex mask ("0x3fff"), any length.
std::string hex_mask(std::span<const std::uint32_t> bits) {
    if (bits.empty()) return "0x0";
    const std::uint32_t top = *std::max_element(bits.begin(), bits.end());
    std::vector<std::uint8_t> nibbles(top / 4 + 1, 0);
    for (std::uint32_t b : bits) nibbles[b / 4] |= static_cast<std::uint8_t>(1u << (b % 4));
    std::string out = "0x";
    for (auto it = nibbles.rbegin(); it != nibbles.rend(); ++it) out += "0123456789abcdef"[*it];
    return out;
}

// Per node, its ranks' entries in rank order; one list when every node's is
// a prefix of the longest, else per-node notes.
struct PerNode {
    std::vector<std::vector<std::string>> lists;
    std::string joined(const Cluster& cluster, std::string_view form, std::string& notes) const {
        const std::vector<std::string>* longest = nullptr;
        for (const auto& l : lists)
            if (!longest || l.size() > longest->size()) longest = &l;
        if (!longest || longest->empty()) return {};
        if (std::all_of(lists.begin(), lists.end(), [&](const auto& l) {
                return std::equal(l.begin(), l.end(), longest->begin());
            }))
            return fmt::format("{}:{}", form, fmt::join(*longest, ","));
        notes += fmt::format("the nodes need different {} lists, which one srun option cannot "
                             "express; run one srun per node (or a heterogeneous job) with its "
                             "list:\n",
                             form);
        for (std::uint32_t m = 0; m < lists.size(); ++m)
            if (!lists[m].empty())
                notes += fmt::format("{}: {}:{}\n", cluster.machine_name(MachineId(m)), form,
                                     fmt::join(lists[m], ","));
        return {};
    }
};

} // namespace

std::string rank_cpu_list(const Cluster& cluster, const GpuRank& rank) {
    return format_cpu_list(os_cpus(cluster, rank, nullptr));
}

std::uint32_t gpu_runtime_index(const MachineTree& tree, std::uint32_t device) {
    const auto devices = tree.devices();
    const Vendor vendor = vendor_of(tree, devices[device]);
    auto key = [&](std::uint32_t i) {
        const IoDevice& d = devices[i];
        if (d.pci == no_pci) return std::make_tuple(1u, 0u, 0u, 0u, i);
        const PciObject& p = tree.pci()[d.pci];
        return std::make_tuple(0u, p.domain, std::uint32_t{p.bus},
                               std::uint32_t{p.dev} << 8 | p.func, i);
    };
    std::uint32_t index = 0;
    for (std::uint32_t i = 0; i < devices.size(); ++i)
        if (i != device && devices[i].kind == DeviceKind::Gpu &&
            vendor_of(tree, devices[i]) == vendor && key(i) < key(device))
            ++index;
    return index;
}

std::string gpu_env_script(const Cluster& cluster, std::span<const GpuRank> ranks,
                           std::string_view command) {
    // The command is a comment: a line break in it would start a command.
    std::string comment(command);
    std::replace_if(
        comment.begin(), comment.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    std::string text = fmt::format(
        "# {}\n"
        "# Source in each rank's launch wrapper; it reads the rank from OMPI_COMM_WORLD_RANK,\n"
        "# PMIX_RANK, PMI_RANK or SLURM_PROCID. Bind with: exec taskset -c \"$NETTOPO_CPUSET\" "
        "\"$@\"\n"
        "nettopo_rank=\"${{OMPI_COMM_WORLD_RANK:-${{PMIX_RANK:-${{PMI_RANK:-${{SLURM_PROCID:-}}}}}}"
        "}}\"\n"
        "case \"$nettopo_rank\" in\n",
        comment);
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const GpuRank& rank = ranks[r];
        const MachineTree& tree = cluster.machine_type(rank.machine).tree();
        const auto devices = tree.devices();
        std::vector<std::string> vars;
        auto set = [&](std::string_view name, std::string_view value) {
            vars.push_back(fmt::format("{}={}", name, shell_word(value)));
        };
        set("NETTOPO_HOST", cluster.machine_name(rank.machine));
        set("NETTOPO_CPUSET", rank_cpu_list(cluster, rank));
        std::vector<std::string> gpus, nics, hcas, ucx, sockets;
        for (std::uint32_t g : rank.gpus) gpus.push_back(devices[g].name);
        set("NETTOPO_GPUS", fmt::format("{}", fmt::join(gpus, ",")));
        for (std::uint32_t n : rank.nics) {
            nics.push_back(devices[n].name);
            if (devices[n].subtype == "OpenFabrics") {
                hcas.push_back(devices[n].name + ":1");
                ucx.push_back(devices[n].name + ":1");
            } else {
                sockets.push_back(devices[n].name);
                ucx.push_back(devices[n].name);
            }
        }
        set("NETTOPO_NICS", fmt::format("{}", fmt::join(nics, ",")));
        const std::string visible = fmt::format("{}", fmt::join(runtime_indexes(tree, rank), ","));
        switch (vendor_of(tree, devices[rank.gpus.front()])) {
        case Vendor::Nvidia:
            set("CUDA_DEVICE_ORDER", "PCI_BUS_ID");
            set("CUDA_VISIBLE_DEVICES", visible);
            break;
        case Vendor::Amd:
            set("ROCR_VISIBLE_DEVICES", visible);
            break;
        case Vendor::Intel:
            set("ZE_ENABLE_PCI_ID_DEVICE_ORDER", "1");
            set("ZE_AFFINITY_MASK", visible);
            break;
        case Vendor::Unknown:
            break;
        }
        if (!ucx.empty()) set("UCX_NET_DEVICES", fmt::format("{}", fmt::join(ucx, ",")));
        // NCCL reads a leading '=' as "exactly these": mlx5_1 alone would also match mlx5_10.
        if (!hcas.empty()) set("NCCL_IB_HCA", fmt::format("={}", fmt::join(hcas, ",")));
        if (!sockets.empty())
            set("NCCL_SOCKET_IFNAME", fmt::format("={}", fmt::join(sockets, ",")));
        fmt::format_to(std::back_inserter(text), "{}) export {} ;;\n", r, fmt::join(vars, " "));
    }
    fmt::format_to(std::back_inserter(text),
                   "*) echo \"nettopo: no binding for rank '$nettopo_rank' (ranks 0-{})\" >&2\n"
                   "   return 1 2>/dev/null || exit 1 ;;\n"
                   "esac\n",
                   ranks.empty() ? 0 : ranks.size() - 1);
    return text;
}

SlurmGpuLaunch slurm_gpu_launch(const Cluster& cluster, std::span<const GpuRank> ranks) {
    SlurmGpuLaunch launch;
    PerNode cpus, gpus;
    cpus.lists.resize(cluster.num_machines());
    gpus.lists.resize(cluster.num_machines());
    bool guessed = false;
    const bool one_gpu = std::all_of(ranks.begin(), ranks.end(),
                                     [](const GpuRank& r) { return r.gpus.size() == 1; });
    for (const GpuRank& r : ranks) {
        fmt::format_to(std::back_inserter(launch.hostfile), "{}\n",
                       cluster.machine_name(r.machine));
        cpus.lists[r.machine.value].push_back(hex_mask(os_cpus(cluster, r, &guessed)));
        const auto indexes = runtime_indexes(cluster.machine_type(r.machine).tree(), r);
        gpus.lists[r.machine.value].push_back(one_gpu ? fmt::format("{}", indexes.front())
                                                      : hex_mask(indexes));
    }
    if (guessed)
        launch.notes += "some PUs have no OS index (a synthetic machine): their logical index "
                        "inside the machine stands in for it in mask_cpu\n";
    launch.cpu_bind = cpus.joined(cluster, "mask_cpu", launch.notes);
    launch.gpu_bind = gpus.joined(cluster, one_gpu ? "map_gpu" : "mask_gpu", launch.notes);
    return launch;
}

void write_gpu_rankfile(std::ostream& out, const Cluster& cluster, std::span<const GpuRank> ranks,
                        RankfileSlots slots) {
    std::string text;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const GpuRank& rank = ranks[r];
        std::vector<std::uint32_t> cpus = rank.pus;
        if (slots == RankfileSlots::physical) {
            const MachineTree& tree = cluster.machine_type(rank.machine).tree();
            for (std::uint32_t& c : cpus) {
                const std::uint32_t pu = c;
                c = tree.object(tree.pu(pu)).os_index;
                if (c == unknown_os_index)
                    throw ValueError(
                        std::string(cluster.machine_name(rank.machine)),
                        fmt::format("PU L#{} has no OS index for a physical rankfile", pu));
            }
        }
        fmt::format_to(std::back_inserter(text), "rank {}={} slot={}\n", r,
                       cluster.machine_name(rank.machine), format_cpu_list(cpus));
    }
    out << text;
}

} // namespace nettopo
