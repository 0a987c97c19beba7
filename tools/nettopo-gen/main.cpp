// nettopo-gen: generate a synthetic cluster of a common network family and
// write its archive (or its text description).
#include "common/child_process_sandbox.hpp"
#include "common/cluster_printer.hpp"
#include "common/common_options.hpp"
#include "common/completion_table.hpp"
#include "common/output.hpp"
#include "common/terminal_progress.hpp"
#include "common/tool_support.hpp"
#include "nettopo-gen/gen_report.hpp"
#include "nettopo/families/detail/family_registry.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/gen/detail/family_check.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/progress.hpp"
#include "nettopo/query/summary.hpp"
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace nettopo;

struct Options {
    std::string preset, machine, machine_xml, node_level = "auto", output, name;
    std::vector<std::string> latencies, bandwidths;
    bool describe = false, summary = false, json = false, quiet = false, verify = false;
    bool force = false; // past the declared limits (share/doc/limits.md)
    bool allowed_only = false;
    std::uint32_t verify_sources = 16;
};

// A family's sub-command, built from its registry entry: where CLI11 puts
// each parameter it reads, by the parameter's index in the entry.
struct FamilyCommand {
    const FamilyEntry* family = nullptr;
    std::vector<CLI::Option*> options;
    std::vector<std::uint32_t> counts; // ParamKind::Count
    std::vector<std::string> texts;    // ParamKind::Dims and Xgft, parsed by the library
};

void add_family_options(CLI::App& sub, FamilyCommand& c) {
    const std::span<const FamilyParam> params = c.family->params;
    c.counts.assign(params.size(), 0);
    c.texts.assign(params.size(), "");
    for (std::size_t i = 0; i < params.size(); ++i) {
        const FamilyParam& p = params[i];
        const std::string name(p.name), help(p.help);
        c.counts[i] = p.fallback;
        CLI::Option* o = p.kind == ParamKind::Count ? sub.add_option(name, c.counts[i], help)
                                                    : sub.add_option(name, c.texts[i], help);
        if (p.use == ParamUse::Required && p.alternative == 0) o->required();
        if (p.use == ParamUse::Default) o->capture_default_str();
        c.options.push_back(o);
    }
    // A later form of the family excludes the earlier ones (fat-tree's --xgft: --k, --n).
    for (std::size_t i = 0; i < params.size(); ++i)
        for (std::size_t j = 0; j < params.size(); ++j)
            if (params[j].alternative != 0 && params[j].alternative < params[i].alternative)
                c.options[i]->excludes(c.options[j]);
}

// The family the command line describes. CLI11 has checked the required
// options and the exclusions; what it cannot check is that a family made in
// several ways gets one of them whole.
std::unique_ptr<Family> make_family(const FamilyCommand& c) {
    const FamilyEntry& f = *c.family;
    const std::span<const FamilyParam> params = f.params;
    const auto given = [&](std::size_t i) { return c.options[i]->count() > 0; };
    if (f.forms() > 0) {
        bool whole = false;
        for (std::uint8_t form = 1; form <= f.forms() && !whole; ++form) {
            whole = true;
            for (std::size_t i = 0; i < params.size(); ++i)
                if (params[i].alternative == form && params[i].use == ParamUse::Required)
                    whole = whole && given(i);
        }
        if (!whole) {
            std::string forms;
            for (std::uint8_t form = 1; form <= f.forms(); ++form)
                forms += (form > 1 ? ", or " : "") + f.form_params(form);
            throw UsageError(fmt::format("{}: give {}", f.name, forms));
        }
    }
    FamilyValues values(f);
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (!given(i)) continue;
        switch (params[i].kind) {
        case ParamKind::Count:
            values.set(params[i].name, c.counts[i]);
            break;
        case ParamKind::Dims:
            values.set(params[i].name, parse_dims(c.texts[i]));
            break;
        case ParamKind::Xgft:
            values.set(params[i].name, parse_xgft(c.texts[i]));
            break;
        }
    }
    return f.make(values);
}

// `nettopo-gen --completion-lists`, for the shell completion
// (share/completion/nettopo.bash): a line per family of the registry, its
// name and its options. Not in --help: it is for the completion script.
void print_completion_lists() {
    for (const FamilyEntry& f : family_registry()) {
        std::cout << f.name;
        for (const FamilyParam& p : f.params) std::cout << ' ' << p.name;
        std::cout << '\n';
    }
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

int generate_cluster(const Options& o, const FamilyCommand* command) {
    const std::string output = o.output.empty() ? (o.describe ? "-" : "net_topo.xml") : o.output;
    if (output == "-" && (o.summary || o.json)) {
        const char* option = o.json ? "--json" : "--summary";
        throw UsageError(o.describe ? fmt::format("--describe and {} both print to standard "
                                                  "output; give -o FILE for the description",
                                                  option)
                                    : fmt::format("{} prints to standard output, which -o - "
                                                  "already uses",
                                                  option));
    }
    const bool preset = !o.preset.empty();
    const std::unique_ptr<Family> family = preset ? make_preset(o.preset) : make_family(*command);
    if (!o.machine.empty() && !o.machine_xml.empty())
        throw UsageError("give --machine or --machine-xml, not both");
    const NodeLevel node_level = parse_node_level(o.node_level);
    const ChildProcessSandbox hwloc_sandbox;
    const MachineType machine =
        !o.machine_xml.empty()
            ? machine_from_file(o.machine_xml, node_level, &hwloc_sandbox,
                                o.allowed_only ? PuScope::allowed_only : PuScope::whole_machine)
        : !o.machine.empty()
            ? read_named("--machine",
                         [&] { return synthetic_machine(o.machine, node_level, &hwloc_sandbox); })
            : synthetic_machine(preset ? preset_machine : default_machine, node_level);
    if (const std::string problem = name_problem(o.name); !problem.empty())
        throw UsageError(fmt::format("--name '{}' {}", shown_name(o.name), problem));
    GenerateOptions options;
    // --force: the user asked for this size; only the ids bound it then.
    options.limits = o.force ? Limits::ids_only() : limits_from_environment();
    options.name = preset && o.name.empty() ? o.preset : o.name;
    if (preset) options.links = LinkClasses::uniform(preset_latency_ns, 0);
    const LatencyValues latency = split_latency_values(o.latencies);
    for (const auto& l : latency.links)
        read_named("--latency", [&] { set_link_class(options.links, LinkField::Latency, l); });
    options.level_latencies = latency.levels;
    for (const auto& b : o.bandwidths)
        read_named("--bandwidth", [&] { set_link_class(options.links, LinkField::Bandwidth, b); });

    TerminalProgress progress("nettopo-gen");
    options.progress = &progress;
    const Cluster cluster = generate(*family, machine, options);
    if (o.verify) verify(*family, cluster, o, progress);
    write_output(output, [&](std::ostream& out) {
        if (o.describe)
            write_description(cluster, out, &progress, &hwloc_sandbox);
        else
            write_archive(cluster, out, &progress);
    });
    progress.finish();
    if (!o.quiet && output != "-")
        std::cerr << fmt::format("nettopo-gen: wrote {} ({}; {}, diameter {})\n", output,
                                 cluster_counts(cluster), family->spec(),
                                 counted(family->diameter(), "hop"));
    if (o.json) {
        GenReport report{*family, cluster, o.preset, output, o.describe, o.verify, std::nullopt};
        if (o.summary) report.summary = summarize(cluster);
        write_gen_report_json(report, std::cout);
    } else if (o.summary) {
        write_summary_text(summarize(cluster), std::cout);
    }
    return exit_ok;
}

} // namespace

int main(int argc, char** argv) {
    // Read before CLI11, which would list even a hidden option's group in --help.
    if (argc == 2 && std::string_view(argv[1]) == "--completion-lists") {
        print_completion_lists();
        return exit_ok;
    }
    Options o;
    CLI::App app{"Generate a synthetic cluster of a common network family and write its "
                 "nettopo archive (or, with --describe, its text description).\n\n"
                 "  nettopo-gen FAMILY [FAMILY OPTIONS] [OPTIONS]\n"
                 "  nettopo-gen --preset tree-M|mesh2D|mesh3D|tree-G [OPTIONS]\n\n"
                 "FAMILY --help lists a family's own options."};
    app.fallthrough();
    app.add_option("--preset", o.preset,
                   "A case of the Net Topo thesis (Table 11): tree-M, mesh2D, mesh3D or tree-G; "
                   "one-PU machines and 1 ns links of unknown bandwidth unless overridden")
        ->check(completion_words(list_words(preset_names)))
        ->check(completion_alone());
    app.add_option("--machine", o.machine,
                   "Machine inside, as an hwloc synthetic description (default \"" +
                       std::string(default_machine) +
                       "\"); gpu:N nic:N after its levels add GPUs and adapters");
    app.add_option("--machine-xml", o.machine_xml,
                   "Machine inside from an hwloc XML export (or any file of one machine type)")
        ->type_name("FILE");
    add_allowed_only_option(app, o.allowed_only);
    add_node_level_option(app, o.node_level);
    add_latency_option(app, o.latencies,
                       "KIND=NS for a link class: host-switch (200), switch-switch (100), local "
                       "(100), global (300), or all",
                       {"host-switch=", "switch-switch=", "local=", "global=", "all="});
    app.add_option("--bandwidth", o.bandwidths,
                   "KIND=GBITS for a link class (default 200 Gbit/s for all); repeatable")
        ->check(completion_words({"host-switch=", "switch-switch=", "local=", "global=", "all="}));
    app.add_option("-o,--output", o.output,
                   "File to write ('-' = stdout); default net_topo.xml, or stdout with --describe")
        ->type_name("FILE");
    app.add_flag("--describe", o.describe, "Write the text description instead of an archive");
    app.add_option("--name", o.name, "Name of the cluster (default: the family and parameters)");
    app.add_flag("--summary", o.summary, "Print the summary of the result");
    app.add_flag("--json", o.json,
                 "Print what was generated as one JSON object: family, parameters, counts, "
                 "output file (and the summary with --summary)");
    add_quiet_option(app, o.quiet);
    app.add_flag("--force", o.force,
                 "Generate past the declared limits: the estimate of memory, "
                 "NETTOPO_MAX_VERTICES and NETTOPO_MAX_LINKS (share/doc/limits.md)");
    app.add_flag("--verify", o.verify,
                 "Check the family's formulas (counts, degrees, hop counts, diameter) against "
                 "the built network and BFS before writing; exit 1 if they disagree");
    app.add_option("--verify-sources", o.verify_sources,
                   "Machines BFS starts from for --verify (all when there are no more)")
        ->capture_default_str()
        ->check(CLI::Range(1u, 4294967295u));
    add_version_flag(app, "nettopo-gen");
    app.footer("Families take the options above too, before or after their own.\n"
               "Exit status: 0 success, 1 bad input data, 2 bad usage.");
    app.require_subcommand(0, 1);
    const std::span<const FamilyEntry> registry = family_registry();
    std::vector<FamilyCommand> commands(registry.size());
    const FamilyCommand* chosen = nullptr;
    for (std::size_t i = 0; i < registry.size(); ++i) {
        FamilyCommand& c = commands[i];
        c.family = &registry[i];
        std::string help(c.family->description);
        for (std::size_t e = 0; e < c.family->examples.size(); ++e)
            help += (e == 0 ? " Example: " : "; ") + std::string(c.family->examples[e]);
        CLI::App* sub = app.add_subcommand(std::string(c.family->name), help);
        add_family_options(*sub, c);
        sub->callback([&chosen, &c] { chosen = &c; });
        sub->footer("The common options (--machine, --latency, -o, --describe, ...) are listed "
                    "by nettopo-gen --help.\nExit status: 0 success, 1 bad input data, 2 bad "
                    "usage.");
    }
    // The shell completion's table, at build time (completion_table.hpp).
    if (completion_table_asked(argc, argv)) {
        write_completion_table(app, std::cout);
        return 0;
    }
    try {
        app.parse(argc, argv);
        if (o.preset.empty() == !chosen)
            throw CLI::ValidationError(chosen ? "give a family or --preset, not both"
                                              : "give a family or --preset");
    } catch (const CLI::Success& e) { // --help, --version
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return report_usage_error("nettopo-gen", e.what());
    }
    return run_guarded("nettopo-gen", [&] { return generate_cluster(o, chosen); });
}
