// nettopo-balance: compare load balancing strategies on a cluster model, or
// balance a given state once and write the new mapping and launch files.
#include "common/child_process_sandbox.hpp"
#include "common/common_options.hpp"
#include "common/completion_table.hpp"
#include "common/json_writer.hpp"
#include "common/terminal_progress.hpp"
#include "common/tool_support.hpp"
#include "nettopo-balance/balance_options.hpp"
#include "nettopo-balance/balance_output.hpp"
#include "nettopo-balance/mpi_balance.hpp"
#include "nettopo/balance/detail/platform.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/progress.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/support/error.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

namespace {

using namespace nettopo;

using Options = BalanceToolOptions;

// "0.75 x 8, 1 x 4": runs of equal speeds.
std::string speeds_text(const std::vector<double>& speeds) {
    std::string text;
    for (std::size_t i = 0; i < speeds.size();) {
        std::size_t j = i;
        while (j < speeds.size() && speeds[j] == speeds[i]) ++j;
        fmt::format_to(std::back_inserter(text), "{}{:g} x {}", text.empty() ? "" : ", ", speeds[i],
                       j - i);
        i = j;
    }
    return text;
}

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
    load.level_latencies = parse_level_latencies(o.latencies);
    load.progress = progress;
    load.pu_scope = o.allowed_only ? PuScope::allowed_only : PuScope::whole_machine;
    if (o.gen.empty() && o.input.empty() && preset && preset->cluster_is_description) {
        std::istringstream text{std::string(preset->cluster)};
        return {read_description(text, std::string(preset->name), load), nullptr, {}, {}};
    }
    if (!o.gen.empty() || (o.input.empty() && preset)) {
        const std::string spec = !o.gen.empty() ? o.gen : std::string(preset->cluster);
        GenerateOptions gen;
        gen.limits = load.build.limits;
        gen.hwloc_sandbox = &hwloc_sandbox;
        gen.progress = progress;
        gen.level_latencies = load.level_latencies;
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
    s.refine_tolerance = o.refine_tolerance.value_or(s.refine_tolerance);
    s.refine_step = o.refine_step.value_or(s.refine_step);
    s.smart_threshold = o.smart_threshold.value_or(s.smart_threshold);
    s.smart_gap_factor = o.smart_gap.value_or(s.smart_gap_factor);
    s.smart_passes = o.smart_passes.value_or(s.smart_passes);
    s.topo_slack = o.topo_slack.value_or(s.topo_slack);
    s.gossip_fanout = o.gossip_fanout.value_or(s.gossip_fanout);
    s.grapevine_tolerance = o.grapevine_tolerance.value_or(s.grapevine_tolerance);
    s.grapevine_phases = o.grapevine_phases.value_or(s.grapevine_phases);
    s.packdrop_tolerance = o.packdrop_tolerance.value_or(s.packdrop_tolerance);
    s.packdrop_max_tries = o.packdrop_tries.value_or(s.packdrop_max_tries);
    s.reply_timeout_rounds = o.reply_timeout.value_or(s.reply_timeout_rounds);
    return s;
}

std::vector<std::unique_ptr<Strategy>> make_strategies(const Options& o, std::uint64_t seed) {
    return read_named("--strategy", [&] {
        return nettopo::make_strategies(o.strategies, strategy_options(o, seed));
    });
}

// The network kind: --network, else the preset's, else none.
const PlatformCosts& platform_of(const Options& o, const WorkloadPreset* preset) {
    if (!o.network.empty()) return platform_costs(o.network);
    return platform_costs(preset ? preset->network : "none");
}

// The costs in the report's parameters, when any is set; step_costs: those
// of a simulated run too (balancing once has no step to charge).
void add_cost_parameters(const PlatformCosts& platform, const CommModelOptions& m,
                         const StepCosts* step_costs, BalanceReportHeader& header) {
    const StepCosts step = step_costs ? *step_costs : StepCosts{};
    const bool any = m.network_costs.any() || m.intra_machine_costs.any() ||
                     m.min_round_seconds > 0 || step.gather_statistics ||
                     step.migration_seconds_per_task > 0 || step.local_seconds_per_task > 0 ||
                     step.load_noise > 0;
    if (!any && platform.name == "none") return;
    // Twelve digits: 0.4 us stored in seconds prints as 0.4, not 0.39999999999999997.
    const auto tidy = [](double v) { return std::stod(fmt::format("{:.12g}", v)); };
    header.parameters.insert(
        header.parameters.end(),
        {{"network", std::string(platform.name)},
         {"overhead_us", tidy(m.network_costs.overhead_seconds * 1e6)},
         {"gap_us", tidy(m.network_costs.gap_seconds * 1e6)},
         {"intra_overhead_us", tidy(m.intra_machine_costs.overhead_seconds * 1e6)},
         {"intra_gap_us", tidy(m.intra_machine_costs.gap_seconds * 1e6)},
         {"round_us", tidy(m.min_round_seconds * 1e6)}});
    if (!step_costs) return;
    header.parameters.insert(header.parameters.end(),
                             {{"gather", step.gather_statistics},
                              {"migration_us", tidy(step.migration_seconds_per_task * 1e6)},
                              {"local_ns_per_task", tidy(step.local_seconds_per_task * 1e9)},
                              {"noise", step.load_noise}});
}

CommModelOptions model_options(const Options& o, Progress* progress,
                               const LoadedTopology& topology) {
    CommModelOptions m;
    // A run asks millions of distances, so auto is always (the model's
    // rule): the kept index, else one built. never searches every distance.
    m.index.use = parse_index_use(o.index_use);
    m.index.kept = topology.kept_index;
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

// The workload spec with --iterations, --every and --seed applied.
LbTestParams workload_params(const Options& o) {
    LbTestParams params = parse_workload_spec(o.workload);
    if (o.iterations) params.iterations = *o.iterations;
    if (o.every) params.every = *o.every;
    if (o.seed) params.seed = *o.seed;
    return params;
}

// PE speeds: --speeds, else the preset's when the run is on its own cluster.
std::vector<double> run_speeds(const Options& o, const WorkloadPreset* preset,
                               const Cluster& cluster) {
    if (!o.speeds.empty()) return read_pe_speeds(o.speeds, cluster);
    if (preset && o.input.empty() && o.gen.empty())
        return {preset->pe_speeds.begin(), preset->pe_speeds.end()};
    return {};
}

int compare(const Options& o, const BalanceReportHeader& base) {
    for (const auto* f : {&o.tasks, &o.graph, &o.mapping, &o.output, &o.rankfile, &o.slurm})
        if (!f->empty())
            throw UsageError("--tasks, --graph, --mapping, -o, --rankfile and --slurm balance a "
                             "given state once; --workload compares strategies on a simulated "
                             "run");
    const LbTestParams params = workload_params(o);
    TerminalProgress progress("nettopo-balance");
    Progress* shown = o.quiet ? nullptr : &progress;
    const WorkloadPreset* preset = workload_preset_of(o.workload);
    const LoadedTopology topology = load_input(o, preset, shown);
    const Cluster& cluster = topology.cluster;
    CommModelOptions model_choice = model_options(o, shown, topology);
    SimulationOptions sim;
    const PlatformCosts& platform = platform_of(o, preset);
    apply_costs(platform, o.costs, model_choice, sim.step_costs);
    const CommModel model(cluster, model_choice);
    sim.progress = shown;
    sim.measure_wall_time = o.decision_time == "measured";
    sim.pe_speeds = run_speeds(o, preset, cluster);
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
    if (preset && !preset->charm_version.empty())
        header.parameters.push_back({"charm_version", std::string(preset->charm_version)});
    if (!sim.pe_speeds.empty())
        header.parameters.push_back({"pe_speeds", speeds_text(sim.pe_speeds)});
    add_cost_parameters(platform, model_choice, &sim.step_costs, header);
    add_fault_parameters(o, header);
    const std::vector<SimulationSpread> spreads =
        o.seeds > 1 ? spread_results(runs) : std::vector<SimulationSpread>{};
    write_comparison(std::cout, format_of(o), header, results, spreads);
    return exit_ok;
}

// --mpi: the state every rank builds alike: the workload's loads as the
// simulator's first step measures them (their mean over the first `every`
// iterations), its initial mapping, the cluster and speeds.
MpiBalanceState mpi_state(const Options& o) {
    if (o.workload.empty())
        throw UsageError("--mpi balances a workload's first step: give --workload");
    MpiBalanceState s;
    const LbTestParams params = workload_params(o);
    const WorkloadPreset* preset = workload_preset_of(o.workload);
    s.cluster = std::make_unique<Cluster>(load_input(o, preset, nullptr).cluster);
    s.model = std::make_unique<CommModel>(*s.cluster);
    const Workload workload(params);
    s.measured_iterations = std::min(params.every, params.iterations);
    s.loads = workload.mean_loads(s.measured_iterations);
    s.mapping = workload.initial_mapping(s.cluster->num_pes());
    s.graph = workload.graph();
    s.speeds = run_speeds(o, preset, *s.cluster);
    if (o.strategies.empty() || o.strategies.find(',') != std::string::npos)
        throw UsageError("--mpi runs one --strategy, a distributed one");
    s.strategy = o.strategies;
    s.options = strategy_options(o, params.seed);
    return s;
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
    CommModelOptions model_choice = model_options(o, shown, topology);
    StepCosts unused_step; // balancing once: no run, no step to charge
    const PlatformCosts& platform = platform_of(o, nullptr);
    apply_costs(platform, o.costs, model_choice, unused_step);
    const CommModel model(cluster, model_choice);
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
    add_cost_parameters(platform, model_choice, nullptr, header);
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
                 "  mpirun -np P nettopo-balance --mpi --workload SPEC --strategy DISTRIBUTED\n"
                 "  nettopo-balance --list"};
    add_balance_options(app, o);
    add_version_flag(app, "nettopo-balance");
    app.footer("Exit status: 0 success, 1 bad input data, 2 bad usage.");
    // The shell completion's table, at build time (completion_table.hpp).
    if (completion_table_asked(argc, argv)) {
        write_completion_table(app, std::cout);
        return 0;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) { // --help, --version
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // Under mpirun --mpi, rank 0 says it once for all the ranks.
        const bool mpi = std::any_of(argv + 1, argv + argc,
                                     [](const char* a) { return std::string_view(a) == "--mpi"; });
        return mpi ? report_mpi_usage_error("nettopo-balance", e.what())
                   : report_usage_error("nettopo-balance", e.what());
    }
    const BalanceReportHeader header{command_line(argc, argv), {}, {}, o.csv_comments};
    if (o.mpi) {
        MpiBalanceOptions mpi;
        mpi.tool = "nettopo-balance";
        mpi.build = [&] { return mpi_state(o); };
        mpi.print_on_root = [&](const MpiBalanceComparison& c) {
            BalanceReportHeader h = header;
            h.parameters.insert(h.parameters.end(), {{"cluster", c.cluster},
                                                     {"num_pes", std::uint64_t{c.ranks}},
                                                     {"num_tasks", std::uint64_t{c.num_tasks}}});
            write_mpi_comparison(std::cout, format_of(o), h, c);
        };
        return balance_over_mpi(mpi);
    }
    return run_guarded("nettopo-balance", [&] {
        if (o.list) return list(o);
        if (!o.workload.empty()) return compare(o, header);
        return balance_once(o, header);
    });
}
