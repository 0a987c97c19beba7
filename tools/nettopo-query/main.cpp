// nettopo-query: ask a topology anything, in text (one value per line) or JSON.
// The driver: global options, reading the topology and the job's view, then
// the sub-command (sub_commands.cpp) with its arguments (sub_command_arguments.cpp).
#include "common/child_process_sandbox.hpp"
#include "common/common_options.hpp"
#include "common/completion_table.hpp"
#include "common/terminal_progress.hpp"
#include "common/tool_support.hpp"
#include "nettopo-query/job_options.hpp"
#include "nettopo-query/pe_naming.hpp"
#include "nettopo-query/query_options.hpp"
#include "nettopo-query/query_printer.hpp"
#include "nettopo-query/query_run.hpp"
#include "nettopo-query/sub_command_arguments.hpp"
#include "nettopo-query/sub_commands.hpp"
#include "nettopo/formats/image.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/query/query_engine.hpp"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <optional>

using namespace nettopo;

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Query a cluster topology: nettopo archive, description file or hwloc XML. "
                 "Without -i: $NETTOPO_ARCHIVE, else ./net_topo.xml, else this machine."};
    add_input_option(app, o.input);
    app.add_flag("--json", o.json, "One JSON object per result line");
    add_node_level_option(app, o.node_level);
    add_latency_option(app, o.latencies);
    app.add_flag("--allow-disconnected", o.allow_disconnected,
                 "Accept a description whose network is not connected");
    add_allowed_only_option(app, o.allowed_only);
    add_quiet_option(app, o.quiet);
    add_job_options(app, o.job);
    app.add_flag("-p,--physical", o.physical,
                 "PEs are read and printed as HOST:OS, the OS (physical) index of the PU on "
                 "its machine, as lstopo -p and hwloc-calc -p use (a bare OS index is read "
                 "while the cluster or allocation holds one machine)");
    add_index_option(app, o.index_use,
                     "Here: how hops and distance answer a pair or a --pairs batch")
        ->capture_default_str();
    app.require_subcommand(0, 1);
    app.fallthrough();
    add_version_flag(app, "nettopo-query");
    app.footer("With --nodes, --hostfile or --job, every query is about the allocation: PEs "
               "are numbered 0..N-1 within it (its machines in its order, each machine's PEs "
               "in logical order) and nodes likewise; switches, paths, export and diff "
               "stay the whole network's, and draw shows the whole network with the "
               "allocation in colour.\n"
               "Exit status: 0 success, 1 bad input data, 2 bad usage, 3 diff found differences.");
    for (const SubCommand& c : commands()) add_arguments(app.add_subcommand(c.name, c.help), c, o);
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
        return report_usage_error("nettopo-query", e.what());
    }
    if (app.get_subcommands().empty())
        return report_usage_error("nettopo-query", "a sub-command is required");
    return run_guarded("nettopo-query", [&] {
        check_standard_input(o.job, o.input, o.pairs);
        TerminalProgress progress("nettopo-query");
        const ChildProcessSandbox hwloc_sandbox;
        LoadOptions load;
        load.build.limits = limits_from_environment();
        load.hwloc_sandbox = &hwloc_sandbox;
        load.progress = &progress;
        load.node_level = parse_node_level(o.node_level);
        load.level_latencies = parse_level_latencies(o.latencies);
        load.build.allow_disconnected = o.allow_disconnected;
        load.pu_scope = o.allowed_only ? PuScope::allowed_only : PuScope::whole_machine;
        if (o.input.empty()) o.input = default_input("nettopo-query", o.quiet);
        // Before reading: an image (index) stamped with it stands for what was read or is stale.
        std::error_code ec;
        const std::optional<FileStamp> input_stamp = std::filesystem::is_regular_file(o.input, ec)
                                                         ? std::optional(file_stamp(o.input))
                                                         : std::nullopt;
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
                        QueryEngine(cluster, distance_policy(o, topology, std::nullopt)),
                        QueryPrinter(std::cout, o.json, naming)};
                run.topology = &topology;
                run.input_stamp = input_stamp;
                c.run(run);
                return run.code;
            }
        return exit_ok;
    });
}
