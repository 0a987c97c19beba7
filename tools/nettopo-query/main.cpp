// nettopo-query: ask a topology anything, in text (one value per line) or JSON.
#include "common/child_process_sandbox.hpp"
#include "common/cluster_printer.hpp"
#include "common/diff_printer.hpp"
#include "common/drawing.hpp"
#include "common/output.hpp"
#include "common/terminal_progress.hpp"
#include "common/tool_support.hpp"
#include "nettopo-query/allocation_printer.hpp"
#include "nettopo-query/distribute_command.hpp"
#include "nettopo-query/export_formats.hpp"
#include "nettopo-query/index_command.hpp"
#include "nettopo-query/job_options.hpp"
#include "nettopo-query/pe_naming.hpp"
#include "nettopo-query/query_printer.hpp"
#include "nettopo/fabric/dot_highlight.hpp"
#include "nettopo/fabric/dot_writer.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/model/cluster_diff.hpp"
#include "nettopo/query/allocation.hpp"
#include "nettopo/query/distribute.hpp"
#include "nettopo/query/index_choice.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/query/summary.hpp"
#include "nettopo/support/error.hpp"

#include <CLI/CLI.hpp>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

namespace {

using namespace nettopo;

struct Options {
    std::string input, node_level = "auto", pairs, name;
    std::string index_use = "auto"; // --index: auto, always, never
    std::string output, format;     // draw and export: -o FILE, export --format
    std::string expected;           // diff: the cluster expected
    std::string machine;            // export --format synthetic: whose type
    std::string highlight;          // draw --highlight: path:A,B or a hostlist
    std::uint32_t collapse = DotOptions{}.collapse_above;
    bool json = false, allow_disconnected = false, all = false, by_hops = false;
    bool allowed_only = false, quiet = false;
    bool physical = false, mask = false; // -p; cpuset-of --mask
    JobOptions job;                      // --nodes, --hostfile, --job
    std::vector<std::string> pes;        // the two PEs of a pair query, as PeNaming reads them
    std::string pe;                      // the PE of a single-PE query
    std::uint64_t index = 0;             // the node of a single-node query
    std::uint64_t k = 0;
    DistributeRequest distribute;    // distribute N [--policy] [--rankfile] [--slurm]
    std::string index_kind = "auto"; // index: --kind
    std::uint64_t budget_mb = 512;   // index: --budget-mb
};

// Context handed to every sub-command.
struct Run {
    const Options& o;
    const Cluster& cluster;
    const LoadOptions& load;
    // The job's allocation (--nodes, --hostfile, --job), nullptr for the
    // whole cluster; its machines() are the allocation's, in its order.
    const JobView* view;
    const PeNaming& naming; // how PEs and nodes are read and printed
    QueryEngine engine;
    QueryPrinter out;
    std::unique_ptr<DistanceIndex> index;     // what the engine looks distances up in, if any
    int code = exit_ok;                       // diff: exit_differences when the clusters differ
    const LoadedTopology* topology = nullptr; // what was read: the kept index, the image

    PeId pe() const { return naming.require_pe(o.pe); }
    PeId pair_pe(std::size_t i) const { return naming.require_pe(o.pes.at(i)); }

    // Gives the engine the index --index picks for this many questions
    // (nullopt: not known in advance; index_choice.hpp states the rule).
    void plan(std::optional<std::uint64_t> questions) {
        // A kept index costs nothing more: every batch takes it, unless never.
        const IndexUse use = parse_index_use(o.index_use);
        if (topology->kept_index && use != IndexUse::Never) {
            engine = QueryEngine(cluster, topology->kept_index.get());
            return;
        }
        index = index_for_batch(cluster, use, questions);
        engine = QueryEngine(cluster, index.get());
    }

    // Pair queries answer either the two positional PEs or every pair of --pairs;
    // those that ask the network for distances (hops, distance) first plan how.
    void for_pairs(const std::function<void(PeId, PeId)>& f, bool distances = false) {
        if (o.pairs.empty()) {
            if (o.pes.size() != 2) throw UsageError("expected two PE indexes, or --pairs FILE");
            if (distances) plan(1);
            f(pair_pe(0), pair_pe(1));
            return;
        }
        if (!o.pes.empty()) throw UsageError("give either two PE indexes or --pairs, not both");
        if (o.pairs == "-" && o.input == "-")
            throw UsageError("-i - and --pairs - cannot both read standard input");
        if (o.pairs == "-") { // answer as each line arrives: usable as a co-process
            if (distances) plan(std::nullopt);
            for_each_pe_pair(std::cin, "<stdin>", naming, [&](PeId a, PeId b) {
                f(a, b);
                std::cout.flush();
            });
        } else {
            const auto pairs = read_pe_pairs_file(o.pairs, naming);
            if (distances) plan(pairs.size());
            for (auto [a, b] : pairs) f(a, b);
        }
    }
};

// The machines a job's commands see, in the allocation's order (distribute
// places ranks over them): the job's allocation (--nodes, --hostfile, --job),
// else the whole cluster.
std::vector<MachineId> allocation_of(const Run& r) {
    if (r.view) return {r.view->machines().begin(), r.view->machines().end()};
    return all_machines(r.cluster);
}

using Command = std::function<void(Run&)>;

// name, help, positional arguments ("pe", "pair", "machine", "node", "vertex", "nearest",
// "expected", "distribute" or ""), action
struct SubCommand {
    const char* name;
    const char* help;
    const char* args;
    Command run;
};

const std::vector<SubCommand>& commands() {
    static const std::vector<SubCommand> table = {
        {"num-pes", "Number of PEs", "",
         [](Run& r) { r.out.count("num_pes", r.naming.num_pes()); }},
        {"num-machines", "Number of machines", "",
         [](Run& r) { r.out.count("num_machines", r.naming.num_machines()); }},
        {"num-nodes", "Number of nodes", "",
         [](Run& r) { r.out.count("num_nodes", r.naming.num_nodes()); }},
        {"num-switches", "Number of switches", "",
         [](Run& r) { r.out.count("num_switches", r.cluster.num_switches()); }},
        {"num-links", "Number of network links", "",
         [](Run& r) { r.out.count("num_links", r.cluster.num_net_links()); }},
        {"machine-of", "Machine of a PE", "pe", [](Run& r) { r.out.machine_of(r.pe()); }},
        {"node-of", "Node of a PE", "pe", [](Run& r) { r.out.node_of(r.pe()); }},
        {"pes-of-machine", "PEs of a machine (a hostlist: one line per machine)", "machine",
         [](Run& r) {
             for (MachineId m : r.naming.require_machines(r.o.name)) r.out.pes_of_machine(m);
         }},
        {"pes-of-node", "PEs of a node", "node",
         [](Run& r) { r.out.pes_of_node(r.naming.require_node(r.o.index)); }},
        {"on-same-machine", "The other PEs of a PE's machine", "pe",
         [](Run& r) {
             r.out.pes_around("on_same_machine", r.pe(), r.cluster.on_same_machine(r.pe()));
         }},
        {"on-same-node", "The other PEs of a PE's node", "pe",
         [](Run& r) { r.out.pes_around("on_same_node", r.pe(), r.cluster.on_same_node(r.pe())); }},
        {"neighbors", "Machines and switches adjacent to a machine or switch", "vertex",
         [](Run& r) { r.out.neighbors(r.naming.require_vertex(r.o.name)); }},
        {"proximity", "3 same PE, 2 same node, 1 same machine, 0 different machines", "pair",
         [](Run& r) { r.for_pairs([&](PeId a, PeId b) { r.out.proximity(a, b); }); }},
        {"ancestor", "Deepest common object of two PEs of one machine", "pair",
         [](Run& r) { r.for_pairs([&](PeId a, PeId b) { r.out.ancestor(a, b); }); }},
        {"hops", "Fewest network links between the PEs' machines", "pair",
         [](Run& r) {
             r.for_pairs([&](PeId a, PeId b) { r.out.hops(a, b, r.engine.hop_count(a, b)); }, true);
         }},
        {"distance", "Latency between two PEs (ns)", "pair",
         [](Run& r) {
             r.for_pairs([&](PeId a, PeId b) { r.out.distance(a, b, r.engine.distance(a, b)); },
                         true);
         }},
        {"path", "Machines and switches on one shortest path", "pair",
         [](Run& r) {
             const PathMetric m = r.o.by_hops ? PathMetric::Hops : PathMetric::Latency;
             r.for_pairs([&](PeId a, PeId b) { r.out.path(a, b, r.engine.path(a, b, m)); });
         }},
        {"nearest", "The K PEs closest to a PE (ties by PE id)", "nearest",
         [](Run& r) {
             const PeId p = r.pe();
             // No more than every PE can be asked for; the answer says what was asked.
             const auto k =
                 static_cast<std::uint32_t>(std::min<std::uint64_t>(r.o.k, r.naming.num_pes()));
             if (!r.view) {
                 r.out.nearest(p, r.o.k, r.engine.nearest(p, k));
                 return;
             }
             r.plan(r.view->num_machines()); // one distance per allocation machine
             r.out.nearest(p, r.o.k, nearest_in_view(r.engine, *r.view, p, k));
         }},
        {"distribute",
         "One line per rank (rank, host, PU logical and OS index): N processes spread over the "
         "machines, scatter (as far apart as switches, hosts and each host's tree allow) or "
         "compact (closest first); or an Open MPI rankfile, or a Slurm hostfile and srun line",
         "distribute",
         [](Run& r) {
             DistributeRequest request = r.o.distribute;
             request.json = r.o.json;
             run_distribute(r.cluster, allocation_of(r), request, std::cout);
         }},
        {"summary", "Counts, machine types, node level, degrees, diameter", "",
         [](Run& r) {
             if (r.view) {
                 const AllocationSummary s = summarize_allocation(*r.view);
                 r.o.json ? write_allocation_summary_json(*r.view, s, std::cout)
                          : write_allocation_summary_text(*r.view, s, std::cout);
                 return;
             }
             const ClusterSummary s = summarize(r.cluster);
             r.o.json ? write_summary_json(s, std::cout) : write_summary_text(s, std::cout);
         }},
        {"show", "lstopo-like view of the cluster", "",
         [](Run& r) {
             if (r.o.json)
                 throw UsageError("show has no JSON form: use summary --json, or nettopo-discover "
                                  "-o - for the whole topology as XML");
             write_show(r.cluster, std::cout, ShowOptions{r.o.all ? 0u : 32u, r.view});
         }},
        {"draw", "Graphviz drawing of the network (DOT; -o FILE.svg/.png/.pdf renders it)", "",
         [](Run& r) {
             if (r.o.json) throw UsageError("draw has no JSON form");
             DotOptions options{r.o.collapse};
             DotHighlight highlight;
             if (!r.o.highlight.empty()) {
                 highlight = read_named(
                     "--highlight", [&] { return read_dot_highlight(r.cluster, r.o.highlight); });
                 options.highlight = &highlight;
             }
             if (r.o.output.empty())
                 write_dot(r.cluster, std::cout, options);
             else
                 save_drawing(r.cluster, r.o.output, options);
         }},
        {"export",
         "The cluster in another tool's format (--format slurm, slurm-yaml, scotch, synthetic)", "",
         [](Run& r) {
             if (r.o.json) throw UsageError("export has no JSON form");
             // The text is whole before anything is written: a network that
             // is not a tree, a type no synthetic string gives, writes nothing.
             std::ostringstream text;
             write_export(r.cluster, r.o.format, r.o.machine, text);
             write_output(r.o.output.empty() ? "-" : r.o.output,
                          [&](std::ostream& out) { out << text.str(); });
         }},
        {"cpuset-of",
         "OS indexes of the PUs of a PE, a machine (or hostlist: one line per machine) or "
         "node:N, as a list (0-3,8) or with --mask as hwloc's hex mask",
         "cpuset",
         [](Run& r) {
             const auto sets = r.naming.require_pu_sets(r.o.pe);
             for (const PuSet& set : sets) r.out.cpuset(set, r.o.mask, sets.size() > 1);
         }},
        {"diff",
         "Differences from an expected cluster, one per line, then a summary; exit 3 when "
         "there are some",
         "expected",
         [](Run& r) {
             if (r.o.expected == "-" && r.o.input == "-")
                 throw UsageError("-i - and diff - cannot both read standard input");
             const Cluster expected = load_cluster(r.o.expected, r.load);
             const ClusterDiff diff = diff_clusters(expected, r.cluster);
             r.o.json ? write_diff_json(diff, std::cout) : write_diff_text(diff, std::cout);
             if (!diff.identical()) r.code = exit_differences;
         }},
        {"index",
         "Build the distance index and keep it with the cluster in a binary image, which later "
         "calls read instead of the archive",
         "",
         [](Run& r) {
             run_index_command(
                 *r.topology,
                 {r.o.input, r.o.output, r.o.index_kind, r.o.budget_mb, r.o.json, r.load.progress},
                 std::cout);
         }},
    };
    return table;
}

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

const CLI::Validator format_check(
    [](std::string& v) -> std::string {
        if (is_export_format(v)) return {};
        return "unknown export format '" + v + "' (expected " + std::string(export_formats) + ")";
    },
    "FORMAT");

void add_arguments(CLI::App* sub, const SubCommand& c, Options& o) {
    const std::string_view args = c.args;
    if (args == "pe") sub->add_option("pe", o.pe, "PE index")->required()->check(pe_check);
    if (args == "node")
        sub->add_option("node", o.index, "Node index")->required()->check(index_check);
    if (args == "machine")
        sub->add_option("machine", o.name, "Machine name or hostlist ('node[01-04]')")->required();
    if (args == "vertex") sub->add_option("name", o.name, "Machine or switch name")->required();
    if (args == "cpuset") {
        sub->add_option("what", o.pe,
                        "A PE (HOST:OS with -p), a machine name or hostlist, or node:N")
            ->required();
        sub->add_flag("--mask", o.mask,
                      "Print hwloc's hex cpuset mask (0x000000ff) instead of a list");
    }
    if (args == "expected")
        sub->add_option("expected", o.expected,
                        "The cluster expected: archive, description or hwloc XML ('-' = stdin)")
            ->required();
    if (args == "nearest") {
        sub->add_option("pe", o.pe, "PE index")->required()->check(pe_check);
        sub->add_option("k", o.k, "How many PEs")->required()->check(index_check);
    }
    if (args == "pair") {
        sub->add_option("pes", o.pes, "Two PE indexes A B")->expected(0, 2)->check(pe_check);
        sub->add_option("--pairs", o.pairs,
                        "File of 'A B' lines ('-' = stdin), one result per line");
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
            ->capture_default_str();
        sub->add_option("--rankfile", o.distribute.rankfile,
                        "Write an Open MPI rankfile ('-' = stdout; logical PUs: run mpirun "
                        "--use-hwthread-cpus --rankfile FILE)");
        sub->add_flag("--physical-slots", o.distribute.physical_slots,
                      "The rankfile's slots are OS indexes (mpirun --mca "
                      "rmaps_rank_file_physical 1 --use-hwthread-cpus; needed with "
                      "--allowed-only, as Open MPI numbers every PU)");
        sub->add_option("--slurm", o.distribute.slurm,
                        "Write a Slurm hostfile for srun --distribution=arbitrary and print the "
                        "srun command line with its --cpu-bind=map_cpu: list");
    }
    if (std::string_view(c.name) == "path")
        sub->add_flag("--hops", o.by_hops, "Fewest hops instead of least latency");
    if (std::string_view(c.name) == "show")
        sub->add_flag("--all", o.all, "List every machine and switch");
    if (std::string_view(c.name) == "draw") {
        sub->add_option("-o,--output", o.output,
                        "Write FILE instead of standard output: .dot/.gv as text, "
                        ".svg/.png/.pdf rendered by Graphviz's dot");
        sub->add_option("--collapse", o.collapse,
                        "Draw more than N machines of one type under one switch as one box "
                        "(0: never)")
            ->capture_default_str()
            ->check(index_check);
        sub->add_option("--highlight", o.highlight,
                        "Draw in colour, the rest in grey: path:A,B (the shortest path between "
                        "A and B, each a PE index or a machine name) or a hostlist of machines "
                        "('node[01-04]', with the switches and links joining them)");
    }
    if (std::string_view(c.name) == "index") {
        sub->add_option("-o,--output", o.output,
                        "Image to write (default: beside the archive, its extension "
                        "replaced by .ntimg)");
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
                        "scotch (Scotch target architecture .tgt, PEs as terminals), synthetic "
                        "(the machine type as an hwloc synthetic description)")
            ->required()
            ->check(format_check);
        sub->add_option("--machine", o.machine,
                        "synthetic: the type of this machine (needed when the cluster has "
                        "several types)");
        sub->add_option("-o,--output", o.output, "Write FILE instead of standard output");
    }
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Query a cluster topology: nettopo archive, description file or hwloc XML. "
                 "Without -i: $NETTOPO_ARCHIVE, else ./net_topo.xml, else this machine."};
    app.add_option("-i,--input", o.input, "LoadedTopology to read ('-' = stdin)");
    app.add_flag("--json", o.json, "One JSON object per result line");
    app.add_option("--node-level", o.node_level, "Node level where the input does not choose")
        ->capture_default_str();
    app.add_flag("--allow-disconnected", o.allow_disconnected,
                 "Accept a description whose network is not connected");
    app.add_flag("--allowed-only", o.allowed_only,
                 "An hwloc export or this machine: only the PUs it allowed (default: the whole "
                 "machine)");
    app.add_flag("-q,--quiet", o.quiet,
                 "Say nothing on stderr when no topology is given and this machine is read");
    add_job_options(app, o.job);
    app.add_flag("-p,--physical", o.physical,
                 "PEs are read and printed as HOST:OS, the OS (physical) index of the PU on "
                 "its machine, as lstopo -p and hwloc-calc -p use (a bare OS index is read "
                 "while the cluster or allocation holds one machine)");
    app.add_option("--index", o.index_use,
                   "How hops and distance answer: auto (the family's "
                   "closed form when the cluster still is its family, else a distance index "
                   "when the batch pays for building it, else a search per pair), always, "
                   "never (search)")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "always", "never"}));
    app.require_subcommand(0, 1);
    app.fallthrough();
    add_version_flag(app, "nettopo-query");
    app.footer("With --nodes, --hostfile or --job, every query is about the allocation: PEs "
               "are numbered 0..N-1 within it (its machines in its order, each machine's PEs "
               "in logical order) and nodes likewise; switches, paths, draw, export and diff "
               "stay the whole network's.\n"
               "Exit status: 0 success, 1 bad input data, 2 bad usage, 3 diff found differences.");
    for (const SubCommand& c : commands()) add_arguments(app.add_subcommand(c.name, c.help), c, o);
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) { // --help, --version
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return report_usage_error("nettopo-query", e.what());
    }
    if (app.get_subcommands().empty())
        return report_usage_error("nettopo-query", "a sub-command is required");
    return run_guarded("nettopo-query", [&] {
        check_standard_input(o.job, o.input, o.pairs);
        TerminalProgress progress("nettopo-query");
        const ChildProcessSandbox hwloc_sandbox;
        LoadOptions load;
        load.hwloc_sandbox = &hwloc_sandbox;
        load.progress = &progress;
        load.node_level = parse_node_level(o.node_level);
        load.build.allow_disconnected = o.allow_disconnected;
        load.pu_scope = o.allowed_only ? PuScope::allowed_only : PuScope::whole_machine;
        if (o.input.empty()) o.input = default_input("nettopo-query", o.quiet);
        const LoadedTopology topology = load_input("nettopo-query", o.input, load, o.quiet);
        const Cluster& cluster = topology.cluster;
        const std::optional<JobView> view = job_view_from_options(cluster, o.job);
        const PeNaming naming(cluster, view ? &*view : nullptr, o.physical);
        const std::string name = app.get_subcommands().front()->get_name();
        for (const SubCommand& c : commands())
            if (name == c.name) {
                Run run{o,
                        cluster,
                        load,
                        view ? &*view : nullptr,
                        naming,
                        QueryEngine(cluster),
                        QueryPrinter(std::cout, o.json, naming),
                        nullptr};
                run.topology = &topology;
                c.run(run);
                return run.code;
            }
        return exit_ok;
    });
}
