// nettopo-discover: discover this machine through hwloc (or convert any
// topology input) and write the nettopo archive.
#include "common/child_process_sandbox.hpp"
#include "common/cluster_printer.hpp"
#include "common/common_options.hpp"
#include "common/completion_table.hpp"
#include "common/diff_printer.hpp"
#include "common/output.hpp"
#include "common/terminal_progress.hpp"
#include "common/tool_support.hpp"
#include "nettopo-discover/check_printer.hpp"
#include "nettopo-discover/mpi_gather.hpp"
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/assemble/detail/accept_list.hpp"
#include "nettopo/assemble/detail/check_report.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/image.hpp"
#include "nettopo/model/cluster_diff.hpp"
#include "nettopo/model/progress.hpp"
#include "nettopo/query/detail/kept_index.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/summary.hpp"
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <optional>
#include <sstream>

namespace {

// hwloc parses every user's file in a child process: a file that crashes it
// is an error for that file, not a crash of the tool.
const nettopo::ChildProcessSandbox hwloc_sandbox;

struct Options {
    std::string input, output = "net_topo.xml", node_level = "auto", name;
    std::string expect; // the cluster expected, compared with the result
    std::string accept; // --check's known exceptions (accept_list.hpp)
    bool show = false, summary = false, allow_disconnected = false, quiet = false;
    // Real-cluster sources.
    nettopo::ClusterSources sources;
    std::string default_machine, host_name = "auto", switch_names = "description";
    // --latency: link kinds (assembling only) and machine levels (any input).
    std::vector<std::string> latencies;
    nettopo::LatencyValues latency; // read from `latencies` before anything else
    bool hosts_only = false, strict = false, check = false, json = false, output_given = false;
    bool allowed_only = false;
    // --index: how --check's hop counts are answered; always (a bare --index)
    // also keeps the index in the binary image beside the archive.
    std::string index_use = "auto";
    bool mpi = false; // the hosts are the ranks of an MPI job (mpi_gather.hpp)
    bool keep_index() const { return index_use == "always"; }
    bool assembling() const {
        return !sources.hosts.empty() || !sources.ibnetdiscover.empty() || !sources.slurm.empty() ||
               hosts_only || mpi;
    }
};

// --mpi gathers the hosts: no other source of hosts, and a fabric or
// --hosts-only as with --hosts. Unnamed, a flat cluster is named after -o
// (the hosts have no common file to be named after).
void check_mpi_usage(Options& o) {
    if (!o.input.empty() || !o.sources.hosts.empty())
        throw nettopo::UsageError("--mpi gathers the hosts' topologies: no -i or --hosts with it");
    if (o.sources.ibnetdiscover.empty() && o.sources.slurm.empty() && !o.hosts_only)
        throw nettopo::UsageError("--mpi: give a fabric (--ibnetdiscover or --slurm), or "
                                  "--hosts-only for hosts on one flat network");
    if (o.name.empty() && o.hosts_only)
        o.name = o.output == "-" ? "cluster" : nettopo::file_stem(o.output);
    // A bad --latency TYPE=NS too, before any rank discovers (discover()
    // reads them again, to the same result).
    o.latency = nettopo::split_latency_values(o.latencies);
}

// Joins --hosts with a fabric; warnings are summarised on stderr.
nettopo::Assembly assemble(const Options& o, bool for_check) {
    if (!o.input.empty())
        throw nettopo::UsageError("-i reads one complete source; --hosts, --ibnetdiscover, "
                                  "--slurm and --hosts-only assemble several: not both");
    // The combinations of flags, in their words; the library checks its options again.
    const bool fabric = !o.sources.ibnetdiscover.empty() || !o.sources.slurm.empty();
    if (!o.sources.ibnetdiscover.empty() && !o.sources.slurm.empty())
        throw nettopo::UsageError("give one fabric: --ibnetdiscover or --slurm, not both");
    if (!fabric && !o.hosts_only)
        throw nettopo::UsageError("give a fabric (--ibnetdiscover or --slurm), or --hosts-only "
                                  "for hosts on one flat network");
    if (fabric && o.hosts_only)
        throw nettopo::UsageError("--hosts-only means no fabric: give one or the other");
    nettopo::AssembleOptions a;
    a.build.limits = nettopo::limits_from_environment();
    a.hwloc_sandbox = &hwloc_sandbox;
    a.name = o.name;
    a.node_level = nettopo::parse_node_level(o.node_level);
    if (!o.default_machine.empty()) a.default_machine = o.default_machine;
    for (const auto& l : o.latency.links)
        nettopo::read_named("--latency", [&] { nettopo::set_latency_override(a, l); });
    a.level_latencies = o.latency.levels;
    a.hosts_only = o.hosts_only;
    a.pu_scope = o.allowed_only ? nettopo::PuScope::allowed_only : nettopo::PuScope::whole_machine;
    a.host_naming = o.host_name == "export" ? nettopo::HostNaming::export_name
                    : o.host_name == "file" ? nettopo::HostNaming::file_name
                                            : nettopo::HostNaming::automatic;
    a.switch_naming =
        o.switch_names == "guid" ? nettopo::SwitchNaming::guid : nettopo::SwitchNaming::description;
    a.strict = o.strict;
    // --check reports a disconnected network as a problem instead of stopping.
    a.build.allow_disconnected = o.allow_disconnected || for_check;
    nettopo::Assembly assembly = [&] {
        try {
            return nettopo::assemble_from_files(o.sources, a);
        } catch (const nettopo::AssemblyMismatchError& e) {
            std::string text = "--strict: the sources disagree";
            for (const auto& issue : e.issues())
                fmt::format_to(std::back_inserter(text), "; {}", nettopo::issue_text(issue));
            throw nettopo::InputError(text);
        }
    }();
    if (!o.quiet && !for_check) {
        // Exports renamed after their files are a warning; the other notes
        // (restricted exports read whole, SHARP nodes) are notes.
        for (const auto& note : assembly.notes)
            std::cerr << fmt::format("nettopo-discover: {}: {}\n",
                                     note.remedy == nettopo::Remedy::host_naming ? "warning"
                                                                                 : "note",
                                     nettopo::issue_text(note));
        for (const auto& issue : assembly.issues)
            std::cerr << fmt::format("nettopo-discover: warning: {}\n", nettopo::issue_text(issue));
        for (const auto& problem : assembly.fabric_problems)
            std::cerr << fmt::format("nettopo-discover: warning: {}\n",
                                     nettopo::issue_text(problem));
    }
    return assembly;
}

// --expect: the cluster expected, read before anything is discovered or
// written, so that a bad file fails the run at once and leaves no archive.
std::optional<nettopo::Cluster> load_expected(const Options& o, nettopo::Progress& progress) {
    if (o.expect.empty()) return std::nullopt;
    nettopo::LoadOptions load;
    load.build.limits = nettopo::limits_from_environment();
    load.hwloc_sandbox = &hwloc_sandbox;
    load.progress = &progress;
    load.node_level = nettopo::parse_node_level(o.node_level);
    load.level_latencies = o.latency.levels;
    load.build.allow_disconnected = o.allow_disconnected;
    std::optional<nettopo::Cluster> expected(nettopo::load_cluster(o.expect, load));
    progress.finish();
    return expected;
}

// The result compared with the cluster expected: each difference and a
// summary on stderr (standard output may hold the archive). Returns
// exit_differences when they differ.
int compare_with_expected(const Options& o, const std::optional<nettopo::Cluster>& expected,
                          const nettopo::Cluster& cluster) {
    if (!expected) return nettopo::exit_ok;
    const nettopo::ClusterDiff diff = nettopo::diff_clusters(*expected, cluster);
    const nettopo::Rails rails = nettopo::infer_rails(*expected);
    for (const nettopo::ClusterDifference& d : diff.differences)
        std::cerr << fmt::format("nettopo-discover: {}\n", nettopo::difference_text(d, &rails));
    if (!diff.identical()) {
        std::cerr << fmt::format("nettopo-discover: the cluster differs from {}: {}\n", o.expect,
                                 nettopo::diff_summary_text(diff));
        return nettopo::exit_differences;
    }
    if (!o.quiet)
        std::cerr << fmt::format(
            "nettopo-discover: the cluster is as {} expects (no differences)\n", o.expect);
    return nettopo::exit_ok;
}

int discover(Options& o) {
    if (o.output == "-" && (o.show || o.summary || o.check))
        throw nettopo::UsageError("--show, --summary and --check print to standard output, "
                                  "which -o - already uses for the archive");
    if (o.expect == "-" && o.input == "-")
        throw nettopo::UsageError("-i - and --expect - cannot both read standard input");
    if (o.keep_index() && (o.output == "-" || o.output.empty()))
        throw nettopo::UsageError("--index writes the image beside the archive: give -o FILE");
    if (o.json && !o.summary && !o.check)
        throw nettopo::UsageError("--json applies to --summary or --check");
    if (o.switch_names != "description" && o.sources.ibnetdiscover.empty())
        throw nettopo::UsageError("--switch-names names the switches of an --ibnetdiscover "
                                  "dump: give one");
    if (!o.sources.node_name_map.empty() && o.sources.ibnetdiscover.empty())
        throw nettopo::UsageError("--node-name-map names the nodes of an --ibnetdiscover dump: "
                                  "give one");
    o.latency = nettopo::split_latency_values(o.latencies);
    if (!o.assembling() && (o.check || o.strict || !o.default_machine.empty() ||
                            !o.latency.links.empty() || o.host_name != "auto"))
        throw nettopo::UsageError("--check, --strict, --default-machine, --latency and "
                                  "--host-name apply when assembling --hosts with a fabric");
    if (const std::string problem = nettopo::name_problem(o.name); !problem.empty())
        throw nettopo::UsageError(
            fmt::format("--name '{}' {}", nettopo::shown_name(o.name), problem));
    if (!o.accept.empty() && !o.check)
        throw nettopo::UsageError("--accept lists the known exceptions of --check: give --check");
    // Read before anything is assembled: a bad file fails the run at once.
    std::optional<nettopo::AcceptList> accept;
    if (!o.accept.empty()) {
        std::istringstream text(nettopo::read_all(o.accept));
        accept = nettopo::read_accept_list(text, o.accept);
    }
    nettopo::TerminalProgress progress("nettopo-discover");
    const std::optional<nettopo::Cluster> expected = load_expected(o, progress);
    std::optional<nettopo::Cluster> cluster;
    if (o.assembling()) {
        nettopo::Assembly assembly = assemble(o, o.check);
        if (o.check) {
            nettopo::CheckReport report = nettopo::check_assembly(
                assembly, o.allow_disconnected, nettopo::parse_index_use(o.index_use));
            if (accept) nettopo::accept_problems(report, *accept);
            if (o.json)
                nettopo::write_check_json(report, std::cout);
            else
                nettopo::write_check_text(report, std::cout);
            if (!report.ok()) return nettopo::exit_bad_data;
            // A check writes an archive only when asked to, and only a good one.
            if (!o.output_given) return compare_with_expected(o, expected, assembly.cluster);
        }
        cluster.emplace(std::move(assembly.cluster));
    } else {
        nettopo::LoadOptions load;
        load.build.limits = nettopo::limits_from_environment();
        load.build.limits = nettopo::limits_from_environment();
        load.hwloc_sandbox = &hwloc_sandbox;
        load.progress = &progress;
        load.node_level = nettopo::parse_node_level(o.node_level);
        load.level_latencies = o.latency.levels;
        load.build.allow_disconnected = o.allow_disconnected;
        load.pu_scope =
            o.allowed_only ? nettopo::PuScope::allowed_only : nettopo::PuScope::whole_machine;
        cluster.emplace(nettopo::load_or_discover(o.input, load));
        if (!o.name.empty()) cluster->set_name(o.name);
    }
    nettopo::write_output(
        o.output, [&](std::ostream& out) { nettopo::write_archive(*cluster, out, &progress); });
    progress.finish();
    if (!o.quiet && o.output != "-")
        std::cerr << fmt::format("nettopo-discover: wrote {} ({})\n", o.output,
                                 nettopo::cluster_counts(*cluster));
    if (o.keep_index()) {
        // Stamped with the archive just written: the image stands for it.
        const std::string image = nettopo::sibling_image_path(o.output);
        nettopo::DistancePolicy policy;
        policy.progress = &progress;
        auto index = nettopo::build_distance_index(*cluster, policy);
        const bool kept = index && nettopo::keeps(*index);
        nettopo::save_image(*cluster, kept ? index.get() : nullptr, image,
                            nettopo::file_stamp(o.output));
        if (!o.quiet)
            std::cerr << fmt::format("nettopo-discover: wrote {} ({})\n", image,
                                     kept    ? index->description()
                                     : index ? "no index: a row cache fills itself on demand"
                                             : "no index");
    }
    if (o.summary && !o.check) { // a check has printed it
        const nettopo::ClusterSummary summary = nettopo::summarize(*cluster);
        if (o.json)
            nettopo::write_summary_json(summary, std::cout);
        else
            nettopo::write_summary_text(summary, std::cout);
    }
    if (o.show) nettopo::write_show(*cluster, std::cout);
    return compare_with_expected(o, expected, *cluster);
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Discover this machine through hwloc (or convert a topology description, an "
                 "hwloc XML export or an archive) and write the nettopo archive."};
    nettopo::add_input_option(app, o.input);
    auto* output = app.add_option("-o,--output", o.output, "Archive to write ('-' = stdout)")
                       ->capture_default_str()
                       ->type_name("FILE");
    app.add_flag("--show", o.show, "Print the lstopo-like view of the result");
    app.add_flag("--summary", o.summary, "Print the summary of the result");
    nettopo::add_node_level_option(app, o.node_level);
    app.add_option("--name", o.name, "Name of the cluster");
    app.add_flag("--allow-disconnected", o.allow_disconnected,
                 "Accept a network that is not connected");
    nettopo::add_quiet_option(app, o.quiet);
    app.add_option("--hosts", o.sources.hosts,
                   "Per-host hwloc exports (files or directories of *.xml; full exports and "
                   "topology diffs), matched with the fabric by host name")
        ->expected(1, -1)
        ->type_name("FILE");
    app.add_option("--ibnetdiscover", o.sources.ibnetdiscover,
                   "InfiniBand fabric: ibnetdiscover output (topology file or -p report); "
                   "repeatable, one per subnet")
        ->expected(1, -1)
        ->type_name("FILE");
    app.add_option("--node-name-map", o.sources.node_name_map,
                   "ibnetdiscover's node-name map (lines '<guid> \"<name>\"'): names the "
                   "--ibnetdiscover nodes by GUID")
        ->type_name("FILE");
    app.add_option("--switch-names", o.switch_names,
                   "How --ibnetdiscover switches without a --node-name-map entry are named: "
                   "description (what the description names, e.g. 'MF0;NAME:MODEL/U1' gives "
                   "NAME, where unique; else the GUID) or guid (S-<guid>, as ibnetdiscover)")
        ->check(CLI::IsMember({"description", "guid"}));
    app.add_option("--slurm", o.sources.slurm, "Fabric from Slurm's topology.conf or topology.yaml")
        ->type_name("FILE");
    app.add_flag("--hosts-only", o.hosts_only, "No fabric: the --hosts on one flat switch");
    nettopo::add_allowed_only_option(app, o.allowed_only);
    app.add_option("--host-name", o.host_name,
                   "How --hosts exports name their host: auto (the export's HostName, else the "
                   "file name; exports claiming one HostName are named after their files), "
                   "export (the HostName) or file (the file name)")
        ->check(CLI::IsMember({"auto", "export", "file"}))
        ->capture_default_str();
    app.add_flag("--mpi", o.mpi,
                 "The hosts are this MPI job's ranks (one per host): each discovers its own "
                 "machine, rank 0 assembles and writes");
    app.add_option("--default-machine", o.default_machine,
                   "hwloc synthetic description for fabric hosts without an hwloc export "
                   "(otherwise they are left out and reported)");
    nettopo::add_latency_option(app, o.latencies,
                                "KIND=NS latency of host-switch (default 200) or switch-switch "
                                "(100) links, replacing what the source gives (when assembling)",
                                {"host-switch=", "switch-switch=", "all="});
    app.add_flag("--strict", o.strict, "Mismatches between the sources are errors, not warnings");
    app.add_flag("--check", o.check,
                 "Print a validation report of the assembled cluster (counts, connectivity, "
                 "hop counts between hosts, problems) and exit 1 on problems; writes the "
                 "archive only with an explicit -o");
    app.add_option("--accept", o.accept,
                   "--check: known exceptions, one pattern a line ('*', '?'; '#' comments) "
                   "matched against each problem's host, adapter or leaf; a match becomes an "
                   "'accepted:' line, anything else still fails; patterns matching nothing are "
                   "noted")
        ->type_name("FILE");
    app.add_flag("--json", o.json, "--summary or --check as JSON");
    nettopo::add_index_option(
        app, o.index_use,
        "Here: --check's hop counts from each host; always, or --index alone, also writes "
        "the binary image beside the archive (its extension replaced by .ntimg) with the "
        "distance index built, which the tools then read instead")
        ->expected(0, 1);
    app.add_option("--expect", o.expect,
                   "Compare the result with this cluster (archive, description or hwloc XML): "
                   "each difference and a summary on stderr, exit 3 when they differ")
        ->type_name("FILE");
    nettopo::add_version_flag(app, "nettopo-discover");
    app.footer("Exit status: 0 success, 1 bad input data, 2 bad usage, 3 the result differs from "
               "--expect.");
    // The shell completion's table, at build time (completion_table.hpp).
    if (nettopo::completion_table_asked(argc, argv)) {
        nettopo::write_completion_table(app, std::cout);
        return 0;
    }
    try {
        app.parse(argc, argv);
        o.output_given = output->count() > 0;
        if (o.index_use.empty()) o.index_use = "always"; // a bare --index
    } catch (const CLI::Success& e) {                    // --help, --version
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return nettopo::report_usage_error("nettopo-discover", e.what());
    }
    if (o.mpi)
        return nettopo::discover_over_mpi(
            {"nettopo-discover", [&] { check_mpi_usage(o); },
             [&](const nettopo::GatheredHosts& hosts) {
                 o.sources.gathered = &hosts;
                 return discover(o);
             },
             o.quiet,
             o.allowed_only ? nettopo::PuScope::allowed_only : nettopo::PuScope::whole_machine});
    return nettopo::run_guarded("nettopo-discover", [&] { return discover(o); });
}
