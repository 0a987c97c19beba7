// nettopo-gen: generate a synthetic cluster of a common network family and
// write its archive (or its text description).
#include "common/child_process_sandbox.hpp"
#include "common/cluster_printer.hpp"
#include "common/terminal_progress.hpp"
#include "common/tool_support.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/gen/family_check.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/progress.hpp"
#include "nettopo/query/summary.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/text.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <functional>
#include <iostream>
#include <memory>

namespace {

using namespace nettopo;

struct Options {
    std::string preset, machine, machine_xml, node_level = "auto", output, name;
    std::vector<std::string> latencies, bandwidths;
    bool describe = false, summary = false, quiet = false, verify = false;
    std::uint32_t verify_sources = 16;
    // Family parameters; 0 = not given.
    std::uint32_t k = 0, n = 0, levels = 0, dim = 0, concentration = 0, p = 0, a = 0, h = 0, g = 0,
                  q = 0, machines = 0;
    std::string dims, xgft;
};

using Factory = std::function<std::unique_ptr<Family>(const Options&)>;

// One row per family: its sub-command, help with an example, its options, and
// the library factory it calls.
struct FamilyCommand {
    const char* name;
    const char* help;
    std::function<void(CLI::App&, Options&)> options;
    Factory make;
};

void need(CLI::Option* o) {
    o->required();
}

constexpr const char* vertices_help =
    "Vertices: machines, or with --concentration C switches of C machines each";

void concentration_option(CLI::App& c, Options& o) {
    c.add_option("--concentration", o.concentration,
                 "Machines per router; 0: the routers are the machines")
        ->capture_default_str();
}

const std::vector<FamilyCommand>& families() {
    static const std::vector<FamilyCommand> table = {
        {"fat-tree",
         "k-ary n-tree (k^n machines, n levels of k^(n-1) switches) or XGFT. "
         "Example: fat-tree --k 4 --n 3; fat-tree --xgft \"2;16,8;1,8\"",
         [](CLI::App& c, Options& o) {
             auto* k = c.add_option("--k", o.k, "Arity: children and parents per switch");
             auto* n = c.add_option("--n", o.n, "Levels of switches");
             auto* x = c.add_option("--xgft", o.xgft,
                                    "XGFT(h; m1..mh; w1..wh) as \"h;m1,..,mh;w1,..,wh\"");
             x->excludes(k)->excludes(n);
         },
         [](const Options& o) {
             if (o.xgft.empty() && (o.k == 0 || o.n == 0))
                 throw UsageError("fat-tree: give --k and --n, or --xgft");
             if (!o.xgft.empty()) {
                 auto x = parse_xgft(o.xgft);
                 return make_xgft(std::move(x.m), std::move(x.w));
             }
             return make_fat_tree(o.k, o.n);
         }},
        {"tree",
         "Complete binary tree (the original Net Topo's \"fat-tree\"), of machines or, with "
         "--concentration, of switches. Example: tree --levels 7",
         [](CLI::App& c, Options& o) {
             need(c.add_option("--levels", o.levels, "Levels (2^L - 1 vertices)"));
             concentration_option(c, o);
         },
         [](const Options& o) { return make_binary_tree(o.levels, o.concentration); }},
        {"mesh", "Mesh of any number of dimensions. Example: mesh --dims 16x16",
         [](CLI::App& c, Options& o) {
             need(c.add_option("--dims", o.dims, "Sizes, e.g. 16x16 or 4x4x4x4x2"));
             concentration_option(c, o);
         },
         [](const Options& o) { return make_mesh(parse_dims(o.dims), o.concentration); }},
        {"torus", "Torus of any number of dimensions. Example: torus --dims 8x8x8",
         [](CLI::App& c, Options& o) {
             need(c.add_option("--dims", o.dims, "Sizes, e.g. 8x8x8 or 4x4x4x4x2"));
             concentration_option(c, o);
         },
         [](const Options& o) { return make_torus(parse_dims(o.dims), o.concentration); }},
        {"hypercube", "Hypercube of dimension d (2^d vertices). Example: hypercube --dim 10",
         [](CLI::App& c, Options& o) {
             need(c.add_option("--dim", o.dim, "Dimension"));
             concentration_option(c, o);
         },
         [](const Options& o) { return make_hypercube(o.dim, o.concentration); }},
        {"dragonfly",
         "Dragonfly (Kim et al. 2008): p machines per router, a routers per group, h global "
         "links per router, g groups (h < g <= a*h+1). Example: dragonfly --p 4 --a 8 --h 4",
         [](CLI::App& c, Options& o) {
             need(c.add_option("--p", o.p, "Machines per router"));
             c.add_option("--a", o.a, "Routers per group (default 2p)");
             c.add_option("--h", o.h, "Global links per router (default p)");
             c.add_option("--g", o.g, "Groups, more than h (default a*h+1)");
         },
         [](const Options& o) { return make_dragonfly(o.p, o.a, o.h, o.g); }},
        {"butterfly",
         "k-ary n-fly: k^n machines, n stages of k^(n-1) switches. "
         "Example: butterfly --k 4 --n 3",
         [](CLI::App& c, Options& o) {
             need(c.add_option("--k", o.k, "Arity of the switches"));
             need(c.add_option("--n", o.n, "Stages"));
         },
         [](const Options& o) { return make_butterfly(o.k, o.n); }},
        {"slimfly",
         "Slim Fly on MMS graphs (q a prime power, 2q^2 routers, diameter 2). "
         "Example: slimfly --q 5",
         [](CLI::App& c, Options& o) {
             need(c.add_option("--q", o.q, "Prime power q"));
             c.add_option("--p", o.p,
                          "Machines per router (default ceil(k'/2), k' = (3q-delta)/2 the "
                          "router-to-router degree, q = 4w+delta)");
         },
         [](const Options& o) { return make_slimfly(o.q, o.p); }},
        {"complete",
         "Complete graph: every pair of vertices linked. Example: complete --machines 8",
         [](CLI::App& c, Options& o) {
             need(c.add_option("--machines", o.machines, vertices_help));
             concentration_option(c, o);
         },
         [](const Options& o) { return make_complete(o.machines, o.concentration); }},
        {"ring", "Ring. Example: ring --machines 16",
         [](CLI::App& c, Options& o) {
             need(c.add_option("--machines", o.machines, vertices_help));
             concentration_option(c, o);
         },
         [](const Options& o) { return make_ring(o.machines, o.concentration); }},
    };
    return table;
}

// Before anything is written: a cluster that contradicts its own formulas is
// a bug to report, not an archive to hand on.
void verify(const Family& family, const Cluster& cluster, const Options& o, Progress& progress) {
    FamilyCheckOptions options;
    options.sources = o.verify_sources;
    options.progress = &progress;
    const FamilyCheck check = check_family(family, cluster, options);
    if (!check.ok()) {
        std::string text = fmt::format("{}: {} disagreement(s) between the formulas and the built "
                                       "network (a bug in nettopo; please report it):",
                                       family.spec(), check.num_problems);
        for (const auto& p : check.problems) fmt::format_to(std::back_inserter(text), "\n  {}", p);
        throw Error(text);
    }
    if (!o.quiet)
        std::cerr << fmt::format(
            "nettopo-gen: verified {}: counts, {} degrees and {} hop counts from {} {} "
            "({} BFS){} agree with the formulas\n",
            family.spec(), cluster.network().num_vertices(), check.pairs, check.sources,
            check.all_sources ? "machines (all)" : "sampled machines",
            family.hop_rule() == HopRule::Shortest ? "equal to" : "minimal routing, at least",
            check.all_sources ? ", and the diameter" : "");
}

int generate_cluster(const Options& o, const Factory& make) {
    const std::string output = o.output.empty() ? (o.describe ? "-" : "net_topo.xml") : o.output;
    if (output == "-" && o.summary)
        throw UsageError(o.describe ? "--describe and --summary both print to standard output; "
                                      "give -o FILE for the description"
                                    : "--summary prints to standard output, which -o - "
                                      "already uses");
    const bool preset = !o.preset.empty();
    const std::unique_ptr<Family> family = preset ? make_preset(o.preset) : make(o);
    if (!o.machine.empty() && !o.machine_xml.empty())
        throw UsageError("give --machine or --machine-xml, not both");
    const NodeLevel node_level = parse_node_level(o.node_level);
    const ChildProcessSandbox hwloc_sandbox;
    const MachineType machine =
        !o.machine_xml.empty() ? machine_from_file(o.machine_xml, node_level, &hwloc_sandbox)
        : !o.machine.empty()
            ? synthetic_machine(o.machine, node_level, &hwloc_sandbox)
            : synthetic_machine(preset ? preset_machine : default_machine, node_level);
    GenerateOptions options;
    options.name = preset && o.name.empty() ? o.preset : o.name;
    if (preset) options.links = LinkClasses::uniform(preset_latency_ns, 0);
    for (const auto& l : o.latencies) set_link_class(options.links, LinkField::Latency, l);
    for (const auto& b : o.bandwidths) set_link_class(options.links, LinkField::Bandwidth, b);

    TerminalProgress progress("nettopo-gen");
    options.progress = &progress;
    const Cluster cluster = generate(*family, machine, options);
    if (o.verify) verify(*family, cluster, o, progress);
    if (o.describe)
        save_description(cluster, output, &progress, &hwloc_sandbox);
    else
        save_archive(cluster, output, &progress);
    if (!o.quiet && output != "-")
        std::cerr << fmt::format("nettopo-gen: wrote {} ({}; {}, diameter {})\n", output,
                                 cluster_counts(cluster), family->spec(),
                                 counted(family->diameter(), "hop"));
    if (o.summary) write_summary_text(summarize(cluster), std::cout);
    return exit_ok;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Generate a synthetic cluster of a common network family and write its "
                 "nettopo archive (or, with --describe, its text description).\n\n"
                 "  nettopo-gen FAMILY [FAMILY OPTIONS] [OPTIONS]\n"
                 "  nettopo-gen --preset tree-M|mesh2D|mesh3D|tree-G [OPTIONS]\n\n"
                 "FAMILY --help lists a family's own options."};
    app.fallthrough();
    app.add_option("--preset", o.preset,
                   "A case of the Net Topo thesis (Table 11): tree-M, mesh2D, mesh3D or tree-G; "
                   "one-PU machines and 1 ns links of unknown bandwidth unless overridden");
    app.add_option("--machine", o.machine,
                   "Machine inside, as an hwloc synthetic description (default \"" +
                       std::string(default_machine) + "\")");
    app.add_option("--machine-xml", o.machine_xml,
                   "Machine inside from an hwloc XML export (or any file of one machine type)");
    app.add_option("--node-level", o.node_level, "Level grouping PUs into nodes")
        ->capture_default_str();
    app.add_option("--latency", o.latencies,
                   "KIND=NS for a link class: host-switch (200), switch-switch (100), local "
                   "(100), global (300), or all; repeatable");
    app.add_option("--bandwidth", o.bandwidths,
                   "KIND=GBITS for a link class (default 200 Gbit/s for all); repeatable");
    app.add_option("-o,--output", o.output,
                   "File to write ('-' = stdout); default net_topo.xml, or stdout with --describe");
    app.add_flag("--describe", o.describe, "Write the text description instead of an archive");
    app.add_option("--name", o.name, "Name of the cluster (default: the family and parameters)");
    app.add_flag("--summary", o.summary, "Print the summary of the result");
    app.add_flag("-q,--quiet", o.quiet, "Do not report what was written");
    app.add_flag("--verify", o.verify,
                 "Check the family's formulas (counts, degrees, hop counts, diameter) against "
                 "the built network and BFS before writing; exit 1 if they disagree");
    app.add_option("--verify-sources", o.verify_sources,
                   "Machines BFS starts from for --verify (all when there are no more)")
        ->capture_default_str()
        ->check(CLI::Range(1u, 4294967295u));
    app.footer("Families take the options above too, before or after their own.\n"
               "Exit status: 0 success, 1 bad input data, 2 bad usage.");
    app.require_subcommand(0, 1);
    Factory chosen;
    for (const auto& f : families()) {
        CLI::App* sub = app.add_subcommand(f.name, f.help);
        f.options(*sub, o);
        sub->callback([&chosen, &f] { chosen = f.make; });
        sub->footer("The common options (--machine, --latency, -o, --describe, ...) are listed "
                    "by nettopo-gen --help.\nExit status: 0 success, 1 bad input data, 2 bad "
                    "usage.");
    }
    try {
        app.parse(argc, argv);
        if (o.preset.empty() == !chosen)
            throw CLI::ValidationError(chosen ? "give a family or --preset, not both"
                                              : "give a family or --preset");
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return report_usage_error("nettopo-gen", e.what());
    }
    return run_guarded("nettopo-gen", [&] { return generate_cluster(o, chosen); });
}
