// Arguments and checks of nettopo-query's sub-commands (sub_command_arguments.hpp).
#include "nettopo-query/sub_command_arguments.hpp"

#include "common/completion_table.hpp"
#include "nettopo-query/export_formats.hpp"

#include <string>
#include <string_view>

namespace nettopo {

namespace {

// strtoull would read "-1" as 2^64-1; indexes are plain decimal numbers.
const CLI::Validator index_check(
    [](std::string& v) -> std::string {
        if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
            return "expected a non-negative integer, got '" + v + "'";
        if (v.size() > 10 || std::stoull(v) > 0xffffffffull)
            return "index " + v + " is out of range";
        return {};
    },
    "INDEX");

// A PE argument: the index check, unless it is -p's HOST:OS, which
// PeNaming checks against the cluster.
const CLI::Validator pe_check(
    [](std::string& v) -> std::string {
        if (v.find(':') != std::string::npos) return {};
        return index_check(v);
    },
    "PE");

// nearest's first argument may also be a device, which PeNaming checks.
const CLI::Validator pe_or_device_check(
    [](std::string& v) -> std::string {
        if (v.empty()) return "expected a PE or a device";
        if (v.find_first_not_of("0123456789") != std::string::npos) return {};
        return index_check(v);
    },
    "PE|DEVICE");

// draw --collapse: auto, or a count of machines (collapse_auto itself is
// not a count).
const CLI::Validator collapse_check(
    [](std::string& v) -> std::string {
        if (v == "auto") return {};
        if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
            return "expected a number of machines or auto, got '" + v + "'";
        if (v.size() > 10 || std::stoull(v) >= collapse_auto) return v + " is out of range";
        return {};
    },
    "N|auto");

const CLI::Validator format_check(
    [](std::string& v) -> std::string {
        if (is_export_format(v)) return {};
        return "unknown export format '" + v + "' (expected " + std::string(export_formats) + ")";
    },
    "FORMAT");

} // namespace

void add_arguments(CLI::App* sub, const SubCommand& c, Options& o) {
    const std::string_view args = c.args;
    if (args == "pe") sub->add_option("pe", o.pe, "PE index")->required()->check(pe_check);
    if (args == "node")
        sub->add_option("node", o.index, "Node index")->required()->check(index_check);
    if (args == "machine")
        sub->add_option("machine", o.name, "Machine name or hostlist ('node[01-04]')")->required();
    if (args == "devices")
        sub->add_option("machine", o.name,
                        "Machine name or hostlist ('node[01-04]'); all machines without it");
    if (args == "vertex") sub->add_option("name", o.name, "Machine or switch name")->required();
    if (args == "cpuset") {
        sub->add_option("what", o.pe,
                        "A PE (HOST:OS with -p), a machine name or hostlist, node:N, or a "
                        "device (gpu2, mlx5_0, HOST:gpu2): the PUs local to it")
            ->required();
        sub->add_flag("--mask", o.mask,
                      "Print hwloc's hex cpuset mask (0x000000ff) instead of a list");
    }
    if (args == "expected")
        sub->add_option("expected", o.expected,
                        "The cluster expected: archive, description or hwloc XML ('-' = stdin)")
            ->required()
            ->type_name("FILE");
    if (args == "nearest-device") {
        sub->add_option("pe", o.pe, "PE index")->required()->check(pe_check);
        sub->add_option("--kind", o.device_kind, "Only devices of this kind")
            ->check(CLI::IsMember({"gpu", "nic", "storage", "other"}));
    }
    if (args == "nearest") {
        sub->add_option("pe", o.pe, "PE index, or a device (gpu2, HOST:mlx5_0)")
            ->required()
            ->check(pe_or_device_check);
        sub->add_option("k", o.k, "How many PEs")->required()->check(index_check);
    }
    if (args == "pair") {
        sub->add_option("pes", o.pes, "Two PE indexes A B")->expected(0, 2)->check(pe_check);
        sub->add_option("--pairs", o.pairs,
                        "File of 'A B' lines ('-' = stdin), one result per line")
            ->type_name("FILE");
    }
    if (args == "distribute") {
        sub->add_option("n", o.distribute.ranks,
                        "Number of processes (more than the PUs: "
                        "consecutive ranks share a PU)")
            ->required()
            ->check(index_check);
        sub->add_option("--policy", o.distribute.policy,
                        "scatter (hwloc-distrib's spread, from leaf switches down) or compact "
                        "(fill the closest PUs first)")
            ->capture_default_str()
            ->check(completion_words({"scatter", "compact"}));
        sub->add_option("--prefer", o.distribute.prefer,
                        "On hybrid CPUs, fill the PUs of this CPU kind first: performance (the "
                        "kind hwloc ranks highest) or efficiency (the lowest); a machine of one "
                        "kind or none places as without it")
            ->check(completion_words({"performance", "efficiency"}));
        sub->add_option("--rankfile", o.distribute.rankfile,
                        "Write an Open MPI rankfile ('-' = stdout; logical PUs: run mpirun "
                        "--use-hwthread-cpus --rankfile FILE)")
            ->type_name("FILE");
        sub->add_flag("--physical-slots", o.distribute.physical_slots,
                      "The rankfile's slots are OS indexes (mpirun --mca "
                      "rmaps_rank_file_physical 1 --use-hwthread-cpus; needed with "
                      "--allowed-only, as Open MPI numbers every PU)");
        sub->add_option("--slurm", o.distribute.slurm,
                        "Write a Slurm hostfile for srun --distribution=arbitrary and print the "
                        "srun command line with its --cpu-bind=map_cpu: list (with "
                        "--gpus-per-rank: mask_cpu and --gpu-bind)")
            ->type_name("FILE");
        auto* gpus = sub->add_option("--gpus-per-rank", o.distribute.gpus_per_rank,
                                     "A GPU job: each rank gets G GPUs of one host, the PUs "
                                     "local to them and its nearest adapters; one line per "
                                     "rank: rank host cpuset gpus nics")
                         ->type_name("G")
                         ->check(CLI::Range(1u, 1u << 16));
        sub->add_option("--nics-per-rank", o.distribute.nics_per_rank,
                        "With --gpus-per-rank: adapters a rank (default 1 where a host has one)")
            ->type_name("M")
            ->check(CLI::Range(0u, 1u << 16))
            ->needs(gpus);
        sub->add_flag("--env", o.distribute.env,
                      "With --gpus-per-rank: print the shell file a rank's wrapper sources "
                      "(CUDA_VISIBLE_DEVICES or the vendor's, UCX_NET_DEVICES, NCCL_IB_HCA, "
                      "NETTOPO_CPUSET)")
            ->needs(gpus);
        gpus->excludes(sub->get_option("--policy"));
        gpus->excludes(sub->get_option("--prefer"));
    }
    if (std::string_view(c.name) == "path")
        sub->add_flag("--hops", o.by_hops, "Fewest hops instead of least latency");
    if (std::string_view(c.name) == "show") {
        sub->add_flag("--all", o.all, "List every machine and switch");
        sub->add_flag("--no-io", o.no_io,
                      "Leave out the PCI tree and the devices (GPUs, adapters) under it");
    }
    if (std::string_view(c.name) == "draw") {
        sub->add_option("-o,--output", o.output,
                        "Write FILE instead of standard output: .dot/.gv as text, "
                        ".svg/.png/.pdf rendered by Graphviz's dot")
            ->type_name("FILE");
        sub->add_option("--collapse", o.collapse,
                        "Draw more than N machines of one type cabled to the same switches as "
                        "one box (0: never); auto: 8, switches too, fewer while the picture is "
                        "wider than a screen")
            ->capture_default_str()
            ->check(collapse_check);
        sub->add_option("--highlight", o.highlight,
                        "Draw in colour, the rest in grey: path:A,B (the shortest path between "
                        "A and B, each a PE as every query reads it or a machine name) or a "
                        "hostlist of machines ('node[01-04]', with the switches and links "
                        "joining them); default in a job's view: its allocation");
    }
    if (std::string_view(c.name) == "index") {
        sub->add_option("-o,--output", o.output,
                        "Image to write (default: beside the archive, its extension "
                        "replaced by .ntimg)")
            ->type_name("FILE");
        sub->add_option("--kind", o.index_kind,
                        "Index kept: auto (the family's closed form, else a dense table or "
                        "labels as the budget allows), dense, labels, none (the cluster alone)")
            ->capture_default_str()
            ->check(CLI::IsMember({"auto", "dense", "labels", "none"}));
        sub->add_option("--budget-mb", o.budget_mb, "Largest memory the index may take, in MiB")
            ->capture_default_str()
            ->check(index_check);
    }
    if (std::string_view(c.name) == "export") {
        sub->add_option("--format", o.format,
                        "Output format: slurm (topology.conf), slurm-yaml (topology.yaml), "
                        "slurm-block and slurm-block-yaml (topology/block: one block per unit), "
                        "scotch (Scotch target architecture .tgt, PEs as terminals), synthetic "
                        "(the machine type as an hwloc synthetic description), nccl (the machine "
                        "type as NCCL's NCCL_TOPO_FILE)")
            ->required()
            ->check(format_check)
            ->check(completion_words(list_words(export_formats)));
        sub->add_option("--machine", o.machine,
                        "synthetic, nccl: the type of this machine (needed when the cluster "
                        "has several types)");
        sub->add_option("-o,--output", o.output, "Write FILE instead of standard output")
            ->type_name("FILE");
    }
}

} // namespace nettopo
