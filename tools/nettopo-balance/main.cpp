// nettopo-balance: compare load balancing strategies on a cluster model, or
// balance a given state once and write the new mapping and launch files.
#include "common/child_process_sandbox.hpp"
#include "common/index_option.hpp"
#include "common/json_writer.hpp"
#include "common/terminal_progress.hpp"
#include "common/tool_support.hpp"
#include "nettopo-balance/balance_output.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/progress.hpp"
#include "nettopo/query/index_choice.hpp"
#include "nettopo/support/error.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <optional>

namespace {

using namespace nettopo;

struct Options {
    std::string input, gen, node_level = "auto", decision_time = "measured";
    std::string index_use = "auto"; // --index: auto, always, never
    std::string workload, strategies;
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
};

std::string command_line(int argc, char** argv) {
    std::string text = "nettopo-balance";
    for (int i = 1; i < argc; ++i) fmt::format_to(std::back_inserter(text), " {}", argv[i]);
    return text;
}

ReportFormat format_of(const Options& o) {
    if (o.json && o.csv) throw UsageError("give --json or --csv, not both");
    if (o.csv_comments && !o.csv) throw UsageError("--csv-comments goes with --csv");
    return o.json ? ReportFormat::Json : o.csv ? ReportFormat::Csv : ReportFormat::Table;
}

// The cluster: -i, --gen, the preset workload's own, or the default input.
LoadedTopology load_input(const Options& o, const WorkloadPreset* preset, Progress* progress) {
    if (!o.input.empty() && !o.gen.empty()) throw UsageError("give -i or --gen, not both");
    const ChildProcessSandbox hwloc_sandbox;
    LoadOptions load;
    load.build.limits = limits_from_environment();
    load.hwloc_sandbox = &hwloc_sandbox;
    load.node_level = parse_node_level(o.node_level);
    load.progress = progress;
    load.pu_scope = o.allowed_only ? PuScope::allowed_only : PuScope::whole_machine;
    if (!o.gen.empty() || (o.input.empty() && preset)) {
        const std::string spec = !o.gen.empty() ? o.gen : std::string(preset->cluster);
        GenerateOptions gen;
        gen.limits = load.build.limits;
        gen.hwloc_sandbox = &hwloc_sandbox;
        gen.progress = progress;
        return {generate_from_spec(spec, gen), nullptr, {}, {}};
    }
    return nettopo::load_input(
        "nettopo-balance", o.input.empty() ? default_input("nettopo-balance", o.quiet) : o.input,
        load, o.quiet);
}

StrategyOptions strategy_options(const Options& o, std::uint64_t seed) {
    StrategyOptions s;
    s.seed = seed;
    s.faults.loss_probability = o.loss;
    s.faults.delay_probability = o.delay;
    s.faults.max_delay_rounds = o.delay > 0 ? o.max_delay : 0;
    return s;
}

std::vector<std::unique_ptr<Strategy>> make_strategies(const Options& o, std::uint64_t seed) {
    return read_named("--strategy", [&] {
        return nettopo::make_strategies(o.strategies, strategy_options(o, seed));
    });
}

CommModelOptions model_options(const Options& o, Progress* progress,
                               const LoadedTopology& topology) {
    CommModelOptions m;
    // A run asks millions of distances, so auto is always: the kept index,
    // else one built. never searches every distance.
    if (parse_index_use(o.index_use) == IndexUse::Never)
        m.index.kind = DistanceIndexKind::Search;
    else
        m.kept_index = topology.kept_index;
    m.intra_machine_gbps = o.intra_gbps;
    m.default_link_gbps = o.link_gbps;
    m.index.progress = progress;
    return m;
}

void add_fault_parameters(const Options& o, BalanceReportHeader& header) {
    if (o.loss > 0) header.parameters.push_back({"loss", o.loss});
    if (o.delay > 0) {
        header.parameters.push_back({"delay", o.delay});
        header.parameters.push_back({"max_delay_rounds", std::uint64_t{o.max_delay}});
    }
}

int list(const Options&) {
    std::cout << "strategies:\n";
    for (std::string_view name : strategy_names()) {
        const auto s = make_strategy(name);
        std::cout << fmt::format("  {:<12} {}\n", name,
                                 s->distributed() ? "distributed" : "centralised");
    }
    std::cout << "workload presets:\n";
    for (const WorkloadPreset& p : workload_presets())
        std::cout << fmt::format("  {:<15} {}\n  {:<15} cluster: {}\n", p.name, p.description, "",
                                 p.cluster);
    return exit_ok;
}

int compare(const Options& o, const BalanceReportHeader& base) {
    for (const auto* f :
         {&o.tasks, &o.graph, &o.mapping, &o.speeds, &o.output, &o.rankfile, &o.slurm})
        if (!f->empty())
            throw UsageError("--tasks, --graph, --mapping, --speeds, -o, --rankfile and --slurm "
                             "balance a given state once; --workload compares strategies on a "
                             "simulated run");
    LbTestParams params = parse_workload_spec(o.workload);
    if (o.iterations) params.iterations = *o.iterations;
    if (o.every) params.every = *o.every;
    if (o.seed) params.seed = *o.seed;
    TerminalProgress progress("nettopo-balance");
    Progress* shown = o.quiet ? nullptr : &progress;
    const LoadedTopology topology = load_input(o, workload_preset_of(o.workload), shown);
    const Cluster& cluster = topology.cluster;
    const CommModel model(cluster, model_options(o, shown, topology));
    SimulationOptions sim;
    sim.progress = shown;
    sim.measure_wall_time = o.decision_time == "measured";
    // One run per seed, the workload and the strategies drawing from it.
    std::vector<std::vector<SimulationResult>> runs;
    for (std::uint32_t i = 0; i < o.seeds; ++i) {
        LbTestParams seeded = params;
        seeded.seed = params.seed + i;
        const Workload workload(seeded);
        const auto strategies = make_strategies(o, seeded.seed);
        std::vector<const Strategy*> chosen;
        for (const auto& s : strategies) chosen.push_back(s.get());
        runs.push_back(compare_strategies(model, workload, chosen, sim));
    }
    const std::vector<SimulationResult> results = average_results(runs);
    progress.finish();

    BalanceReportHeader header = base;
    // Counts are num_<things> and numbers stay numbers, as in every tool's JSON.
    header.parameters.insert(header.parameters.end(),
                             {{"cluster", cluster.name()},
                              {"num_pes", std::uint64_t{cluster.num_pes()}},
                              {"num_machines", std::uint64_t{cluster.num_machines()}},
                              {"num_tasks", std::uint64_t{params.tasks}},
                              {"pattern", std::string(to_string(params.pattern))},
                              {"min_load_us", params.min_load_us},
                              {"max_load_us", params.max_load_us},
                              {"iterations", std::uint64_t{params.iterations}},
                              {"every", std::uint64_t{params.every}},
                              {"seed", params.seed}});
    // Over several seeds (seed, seed + 1, ...) the results are their means.
    if (o.seeds > 1) header.parameters.push_back({"seeds", std::uint64_t{o.seeds}});
    header.parameters.push_back({"distance_index", model.index().description()});
    add_fault_parameters(o, header);
    write_comparison(std::cout, format_of(o), header, results);
    return exit_ok;
}

int balance_once(const Options& o, const BalanceReportHeader& base) {
    if (o.iterations || o.every || o.seeds != 1)
        throw UsageError("--iterations, --every and --seeds go with --workload (a simulated run)");
    if (o.tasks.empty() || o.mapping.empty())
        throw UsageError("balancing a given state needs --tasks and --mapping (or --workload "
                         "to compare strategies)");
    TerminalProgress progress("nettopo-balance");
    Progress* shown = o.quiet ? nullptr : &progress;
    const LoadedTopology topology = load_input(o, nullptr, shown);
    const Cluster& cluster = topology.cluster;
    const CommModel model(cluster, model_options(o, shown, topology));
    progress.finish();
    const std::vector<double> loads = read_task_loads(o.tasks);
    const auto num_tasks = static_cast<std::uint32_t>(loads.size());
    const TaskGraph graph =
        o.graph.empty() ? TaskGraph(num_tasks, {}) : read_task_graph(o.graph, num_tasks);
    const std::vector<PeId> mapping = read_mapping(o.mapping, cluster, num_tasks);
    const std::vector<double> speeds =
        o.speeds.empty() ? std::vector<double>{} : read_pe_speeds(o.speeds, cluster);
    const auto strategies = make_strategies(o, o.seed.value_or(1));
    if (strategies.size() != 1) throw UsageError("balancing a given state takes one --strategy");
    const Strategy& strategy = *strategies.front();

    int to_stdout = 0;
    for (const auto* f : {&o.output, &o.rankfile, &o.slurm}) to_stdout += *f == "-";
    if (to_stdout > 1) throw UsageError("only one of -o, --rankfile and --slurm can be '-'");

    const BalanceInput in{model, loads, graph, speeds, mapping};
    check_balance_input(in);
    const auto start = std::chrono::steady_clock::now();
    const BalanceOutcome out = strategy.balance(in);
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
    const double wall_seconds = o.decision_time == "measured" ? wall.count() : 0.0;

    BalanceReportHeader header = base;
    header.parameters.insert(header.parameters.end(),
                             {{"cluster", cluster.name()},
                              {"num_pes", std::uint64_t{cluster.num_pes()}},
                              {"num_tasks", std::uint64_t{num_tasks}},
                              {"num_edges", std::uint64_t{graph.num_edges()}}});
    add_fault_parameters(o, header);
    if (!o.output.empty()) {
        save_mapping(o.output, out.mapping);
        header.outputs.emplace_back("mapping", o.output);
    }
    if (!o.rankfile.empty()) {
        save_rankfile(o.rankfile, cluster, out.mapping);
        header.outputs.emplace_back("rankfile", o.rankfile);
    }
    if (!o.slurm.empty()) {
        const SlurmLaunch launch = save_slurm_hostfile(o.slurm, cluster, out.mapping);
        header.outputs.emplace_back("slurm_hostfile", o.slurm);
        if (!launch.cpu_bind.empty())
            header.outputs.emplace_back("srun", fmt::format("SLURM_HOSTFILE={} srun "
                                                            "--distribution=arbitrary "
                                                            "--cpu-bind={}",
                                                            o.slurm, launch.cpu_bind));
        if (!launch.notes.empty()) header.outputs.emplace_back("slurm_notes", launch.notes);
    }
    // A file written to standard output keeps it for itself.
    write_balance_summary(to_stdout ? std::cerr : std::cout, format_of(o), header,
                          summarize_balance(strategy, in, out, wall_seconds));
    return exit_ok;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Compare load balancing strategies on a cluster model, or balance a given "
                 "state once.\n\n"
                 "  nettopo-balance [-i CLUSTER | --gen FAMILY] --workload SPEC "
                 "[--strategy LIST] [--iterations N --every K]\n"
                 "  nettopo-balance [-i CLUSTER] --tasks FILE --mapping FILE --strategy NAME "
                 "[-o NEW] [--rankfile FILE] [--slurm FILE]\n"
                 "  nettopo-balance --list"};
    app.add_option("-i,--input", o.input,
                   "Cluster: a nettopo archive, a text description or an hwloc XML export "
                   "(default $NETTOPO_ARCHIVE, else ./net_topo.xml, else this machine)");
    app.add_option("--gen", o.gen,
                   "Cluster of a generated family, as nettopo-gen's arguments "
                   "(\"torus --dims 4x4x4 --machine 'core:8 pu:1'\")");
    app.add_option("--node-level", o.node_level, "Level grouping PUs into nodes")
        ->capture_default_str();
    app.add_flag("--allowed-only", o.allowed_only,
                 "An hwloc export or this machine: only the PUs it allowed (default: the whole "
                 "machine)");
    app.add_option("-w,--workload", o.workload,
                   "lb_test:tasks=N,pattern=ring|mesh2d|mesh3d|randgraph,min=US,max=US,"
                   "bytes=B,task-bytes=B,iterations=N,every=K,seed=S, or a preset (--list)");
    app.add_option("-s,--strategy", o.strategies,
                   "Comma-separated strategies (--list), or all (the default)");
    app.add_option("--iterations", o.iterations, "Iterations of the simulated run");
    app.add_option("--every", o.every, "Balance after every K iterations")
        ->check(CLI::Range(1u, 4294967295u));
    app.add_option("--seed", o.seed, "Seed of the workload and of the strategies");
    app.add_option("--seeds", o.seeds,
                   "Compare over N seeds (--seed, --seed + 1, ...) and print the means")
        ->capture_default_str()
        ->check(CLI::Range(1u, 100000u));
    app.add_option("--tasks", o.tasks, "Task loads, CSV task,load (seconds)");
    app.add_option("--graph", o.graph, "Task communication, CSV a,b,bytes per iteration");
    app.add_option("--mapping", o.mapping, "Current mapping, CSV task,pe");
    app.add_option("--speeds", o.speeds, "Relative PE speeds, CSV pe,speed (default all 1)");
    app.add_option("-o,--output", o.output, "Write the new mapping, CSV task,pe ('-' = stdout)");
    app.add_option("--rankfile", o.rankfile, "Write an Open MPI rankfile of the new mapping");
    app.add_option("--slurm", o.slurm,
                   "Write a Slurm hostfile for --distribution=arbitrary (the --cpu-bind list "
                   "is printed)");
    app.add_option("--loss", o.loss, "Probability that a protocol message is lost")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--delay", o.delay, "Probability that a protocol message is late")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--max-delay", o.max_delay, "Rounds a late message may be late (1..N)")
        ->capture_default_str()
        ->check(CLI::Range(1u, 1000u));
    app.add_option("--intra-gbps", o.intra_gbps, "Bandwidth between two PUs of one machine")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--link-gbps", o.link_gbps, "Bandwidth of links whose bandwidth is unknown")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--decision-time", o.decision_time,
                   "What a centralised decision costs in the simulated run: its measured wall "
                   "time, or none (no wall time is measured: the output is reproducible to the "
                   "bit)")
        ->capture_default_str()
        ->check(CLI::IsMember({"measured", "none"}));
    add_index_option(app, o.index_use,
                     "How the communication model answers distances: auto and always (a run "
                     "asks millions of them) take the distance index kept in the binary image, "
                     "else build one (the family's closed form when the cluster still is its "
                     "family); never searches every distance (slow, the same answers)")
        ->capture_default_str();
    app.add_flag("--json", o.json, "Print JSON");
    app.add_flag("--csv", o.csv, "Print CSV (RFC 4180: a heading line, then one row per result)");
    app.add_flag("--csv-comments", o.csv_comments,
                 "With --csv: the command and its parameters first, as # lines");
    app.add_flag("-q,--quiet", o.quiet,
                 "No progress line, and no note when this machine is read for want of a topology");
    app.add_flag("--list", o.list, "List the strategies and the workload presets");
    add_version_flag(app, "nettopo-balance");
    app.footer("Exit status: 0 success, 1 bad input data, 2 bad usage.");
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) { // --help, --version
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return report_usage_error("nettopo-balance", e.what());
    }
    const BalanceReportHeader header{command_line(argc, argv), {}, {}, o.csv_comments};
    return run_guarded("nettopo-balance", [&] {
        if (o.list) return list(o);
        if (!o.workload.empty()) return compare(o, header);
        return balance_once(o, header);
    });
}
