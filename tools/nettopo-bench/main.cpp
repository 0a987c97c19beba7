// nettopo-bench: time nettopo's queries the way the Net Topo and CombinACMP
// theses did, on their inputs or any other, against peers measured in the
// same run (hwloc, Boost.Graph, the slow twins).
#include "common/child_process_sandbox.hpp"
#include "common/common_options.hpp"
#include "common/completion_table.hpp"
#include "common/tool_support.hpp"
#include "nettopo-bench/bench_report.hpp"
#include "nettopo-bench/bench_runs.hpp"
#include "nettopo-bench/lca_bench.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/lca.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <functional>
#include <iostream>

namespace {

using namespace nettopo;
using namespace nettopo::bench;

struct Options {
    std::vector<std::string> presets, files, families;
    std::vector<std::string> latencies; // --latency TYPE=NS
    RunOptions run;
    std::size_t budget_mb = 0;
    bool csv = false, csv_comments = false, json = false, allow_disconnected = false;
    std::string plot;
    // lca
    std::vector<std::uint32_t> degrees;
    LcaBenchOptions lca;
    std::string command_line;
};

using Run = std::function<std::vector<Measurement>(const Input&, const RunOptions&)>;

struct SubCommand {
    const char* name;
    const char* help;
    std::vector<Run> runs; // empty: lca, which has inputs of its own
};

const std::vector<SubCommand>& commands() {
    static const std::vector<SubCommand> table = {
        {"init", "Build each input from its family (generated inputs only)", {run_init}},
        {"save", "Write each input's archive to a file", {run_save}},
        {"load", "Read each input's archive back", {run_load}},
        {"fill",
         "Fill the all-pairs distance table (the thesis' memo), on all threads",
         {run_fill}},
        {"proximity", "proximity(a, b) on random PE pairs", {run_proximity}},
        {"distance",
         "Latency queries: distance II (one machine to every machine within 2 hops) and "
         "random pairs, through the distance index and through a search per call",
         {run_distance}},
        {"hops", "Hop counts: hops II and random pairs, index and search", {run_hops}},
        {"peer",
         "Boost.Graph's Dijkstra and BFS against nettopo's index on the same graph and pairs",
         {run_peer}},
        {"lca",
         "Common ancestors inside one machine: Ascend, Ondul (hwloc's loop), Matrix, "
         "CombinACMP and hwloc_get_common_ancestor_obj, the CombinACMP thesis' method",
         {}},
        {"all",
         "init, save, load, fill, proximity, distance and hops on every input",
         {run_init, run_save, run_load, run_fill, run_proximity, run_distance, run_hops}},
    };
    return table;
}

// Inputs are made one at a time, so each is measured (memory included)
// without the previous ones still held.
std::vector<std::function<Input()>> inputs(const Options& o) {
    const LevelLatencyOverrides lat = parse_level_latencies(o.latencies);
    std::vector<std::function<Input()>> in;
    for (const auto& p : o.presets) in.emplace_back([p, lat] { return preset_input(p, lat); });
    for (const auto& f : o.families) in.emplace_back([f, lat] { return family_input(f, lat); });
    for (const auto& f : o.files)
        in.emplace_back([f, lat, &o] { return file_input(f, o.allow_disconnected, lat); });
    if (in.empty())
        for (const char* p : {"tree-M", "mesh2D", "mesh3D", "tree-G"})
            in.emplace_back([p, lat] { return preset_input(p, lat); });
    return in;
}

// The thesis' five trees (CombinACMP, Table 4 and its figures).
const std::vector<std::vector<std::uint32_t>> thesis_trees = {
    {2, 1, 1, 8, 1, 1, 1, 2},    {8, 1, 1, 6, 1, 1, 1},       {4, 4, 1, 3, 2, 1, 1, 1},
    {2, 2, 1, 5, 1, 1, 1, 1, 8}, {1, 4, 1, 1, 9, 2, 1, 1, 4},
};

// One tree: the timings, after the check every algorithm passes first.
void lca_tree(const MachineTree& tree, const std::string& name, LcaBenchOptions lca, bool verify,
              std::vector<Measurement>& out) {
    lca.verify = verify;
    if (verify) {
        const LcaVerification v = verify_lca(tree);
        if (v.mismatches)
            throw VerifyError(fmt::format("{}: {} of {} PU pairs differ from Ascend; first: {}",
                                          name, v.mismatches, v.pairs, v.first_mismatch));
    }
    for (auto& m : bench_lca(tree, name, lca)) out.push_back(std::move(m));
}

std::vector<Measurement> run_lca(const Options& o) {
    std::vector<Measurement> out;
    const ChildProcessSandbox hwloc_sandbox;
    for (const auto& f : o.files) {
        LcaBenchOptions lca = o.lca;
        lca.hwloc_xml = f;
        lca_tree(load_hwloc_xml(f, &hwloc_sandbox).tree, f, lca, o.run.verify, out);
    }
    const auto degrees = [&](const std::vector<std::uint32_t>& d) {
        lca_tree(tree_from_degrees(d), fmt::format("degrees {}", fmt::join(d, " ")), o.lca,
                 o.run.verify, out);
    };
    if (!o.degrees.empty()) degrees(o.degrees);
    if (o.files.empty() && o.degrees.empty())
        for (const auto& d : thesis_trees) degrees(d);
    return out;
}

Header header(const Options& o, const std::string& command) {
    Header h;
    h.command = o.command_line;
    const RunOptions& r = o.run;
    if (command == "lca") {
        h.parameters = {{"warmup", std::uint64_t{o.lca.warmup}},
                        {"rounds", std::uint64_t{o.lca.rounds}},
                        {"outer", std::uint64_t{o.lca.outer}},
                        {"seed", o.lca.seed},
                        {"verify", o.run.verify}};
    } else {
        h.parameters = {{"repetitions", std::uint64_t{r.repetitions}},
                        {"queries", std::uint64_t{r.queries}},
                        {"sources", std::uint64_t{r.sources}},
                        {"seed", r.seed},
                        {"threads", std::uint64_t{r.threads}},
                        {"budget_bytes", std::uint64_t{r.memory_budget_bytes}},
                        {"verify", r.verify}};
    }
    h.machine = machine_info();
    return h;
}

int run_command(Options& o, const SubCommand& c) {
    if (o.csv && o.json) throw UsageError("give --csv or --json, not both");
    if (o.csv_comments && !o.csv) throw UsageError("--csv-comments goes with --csv");
    if (o.budget_mb) o.run.memory_budget_bytes = o.budget_mb << 20;
    if (std::string_view(c.name) == "peer" && !peer_available())
        throw UsageError("this nettopo-bench was built without Boost.Graph (libboost-graph-dev): "
                         "peer is not available");
    std::vector<Measurement> results;
    if (c.runs.empty()) {
        results = run_lca(o);
    } else {
        for (const auto& make : inputs(o)) {
            const Input in = make();
            for (const Run& run : c.runs)
                for (auto& m : run(in, o.run)) results.push_back(std::move(m));
        }
    }
    const Header h = header(o, c.name);
    if (o.json)
        write_json(std::cout, h, results);
    else if (o.csv)
        write_csv(std::cout, h, results, o.csv_comments);
    else
        write_table(std::cout, h, results);
    if (!o.plot.empty()) save_scaling_svg(o.plot, h, results);
    if (o.run.verify)
        std::cerr << "nettopo-bench: verified: every fast path agrees with its slow twin\n";
    return exit_ok;
}

void add_options(CLI::App* sub, Options& o, bool lca) {
    sub->add_option("-i,--input", o.files,
                    lca ? "hwloc XML export of a machine; repeatable"
                        : "Cluster file (archive, description, hwloc XML); repeatable")
        ->type_name("FILE");
    if (lca) {
        sub->add_option("--degrees", o.degrees,
                        "Tree of per-level degrees, root first (e.g. 1 4 1 1 9 2 1 1 4); "
                        "default: the thesis' five trees");
        sub->add_option("--warmup", o.lca.warmup, "Rounds over all pairs before timing")
            ->capture_default_str();
        sub->add_option("--rounds", o.lca.rounds, "Timed rounds over all pairs")
            ->capture_default_str()
            ->check(CLI::Range(1u, 1000000000u));
        sub->add_option("--outer", o.lca.outer,
                        "Outer repetitions the rounds are split into, algorithms interleaved")
            ->capture_default_str()
            ->check(CLI::Range(1u, 1000000u));
        sub->add_option("--seed", o.lca.seed, "Seed of the pair shuffle")->capture_default_str();
        sub->add_option("--algorithms", o.lca.algorithms,
                        "Comma-separated subset of ascend, ondul, matrix, combin, hwloc, overhead")
            ->delimiter(',');
    } else {
        sub->add_option("--preset", o.presets,
                        "A case of the thesis: tree-M, mesh2D, mesh3D, tree-G; repeatable "
                        "(default: all four when no input is given)")
            ->check(completion_words(list_words(preset_names)));
        sub->add_option("--gen", o.families,
                        "A generated family as nettopo-gen takes it, e.g. \"torus --dims "
                        "32x32x32\"; repeatable");
        sub->add_option("-r,--repetitions", o.run.repetitions, "Timed repetitions")
            ->capture_default_str()
            ->check(CLI::Range(1u, 1000000u));
        sub->add_option("--queries", o.run.queries, "Random pairs per repetition")
            ->capture_default_str()
            ->check(CLI::Range(1u, 100000000u));
        sub->add_option("--sources", o.run.sources, "Origins of the distance II / hops II sets")
            ->capture_default_str()
            ->check(CLI::Range(1u, 1000000u));
        sub->add_option("--seed", o.run.seed, "Seed of every random choice")->capture_default_str();
        sub->add_option("--threads", o.run.threads, "Threads filling tables; 0: all cores")
            ->capture_default_str();
        sub->add_flag("--allow-disconnected", o.allow_disconnected,
                      "Accept a cluster file whose network is not connected");
        add_latency_option(*sub, o.latencies);
        sub->add_option("--budget", o.budget_mb,
                        "Memory the distance index may hold, in MiB (default 512)")
            ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30));
    }
    sub->add_flag("--verify", o.run.verify,
                  "Check every timed answer against its slow twin (search, Ascend, lookups); "
                  "exit 1 on a difference");
    sub->add_flag("--csv", o.csv, "CSV (RFC 4180): a heading line, then a row per measurement");
    sub->add_flag("--csv-comments", o.csv_comments,
                  "With --csv: the command, parameters and machine first, as # lines");
    sub->add_flag("--json", o.json, "JSON: header, and every repetition of every measurement");
    sub->add_option("--plot", o.plot,
                    "Also draw time against machines, one line per operation, to FILE.svg")
        ->type_name("FILE");
    sub->footer("Exit status: 0 success, 1 bad input data or a failed --verify, 2 bad usage.");
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 0; i < argc; ++i) o.command_line += fmt::format("{}{}", i ? " " : "", argv[i]);
    CLI::App app{"Time nettopo's queries as the Net Topo and CombinACMP theses did, against "
                 "hwloc and Boost.Graph in the same run.\n\n"
                 "  nettopo-bench COMMAND [--preset NAME | --gen FAMILY | -i FILE]... [OPTIONS]"};
    app.require_subcommand(1);
    const SubCommand* chosen = nullptr;
    for (const SubCommand& c : commands()) {
        CLI::App* sub = app.add_subcommand(c.name, c.help);
        add_options(sub, o, c.runs.empty());
        sub->callback([&chosen, &c] { chosen = &c; });
    }
    add_version_flag(app, "nettopo-bench");
    app.footer("COMMAND --help lists its options.\n"
               "Exit status: 0 success, 1 bad input data or a failed --verify, 2 bad usage.");
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
        return report_usage_error("nettopo-bench", e.what());
    }
    return run_guarded("nettopo-bench", [&] { return run_command(o, *chosen); });
}
