// nettopo-discover: discover this machine through hwloc (or convert any
// topology input) and write the nettopo archive.
#include "nettopo/archive.hpp"
#include "nettopo/error.hpp"
#include "nettopo/progress.hpp"
#include "nettopo/report.hpp"
#include "nettopo/tool_support.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>

namespace {

struct Options {
    std::string input, output = "net_topo.xml", node_level = "auto", name;
    bool show = false, summary = false, allow_disconnected = false, quiet = false;
};

int discover(const Options& o) {
    if (o.output == "-" && (o.show || o.summary))
        throw nettopo::UsageError("--show and --summary print to standard output, which -o - "
                                  "already uses for the archive");
    nettopo::TerminalProgress progress("nettopo-discover");
    nettopo::LoadOptions load;
    load.progress = &progress;
    load.node_level = nettopo::parse_node_level(o.node_level);
    load.build.allow_disconnected = o.allow_disconnected;
    nettopo::Cluster cluster = nettopo::load_or_discover(o.input, load);
    if (!o.name.empty()) cluster.set_name(o.name);
    nettopo::save_archive(cluster, o.output, &progress);
    if (!o.quiet && o.output != "-")
        std::cerr << fmt::format("nettopo-discover: wrote {} ({})\n", o.output,
                                 nettopo::cluster_counts(cluster));
    if (o.summary) nettopo::write_summary_text(nettopo::summarize(cluster), std::cout);
    if (o.show) nettopo::write_show(cluster, std::cout);
    return nettopo::exit_ok;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    CLI::App app{"Discover this machine through hwloc (or convert a topology description, an "
                 "hwloc XML export or an archive) and write the nettopo archive."};
    app.add_option("-i,--input", o.input,
                   "Source: nettopo archive, description file or hwloc XML ('-' = stdin); "
                   "default: this machine");
    app.add_option("-o,--output", o.output, "Archive to write ('-' = stdout)")
        ->capture_default_str();
    app.add_flag("--show", o.show, "Print the lstopo-like view of the result");
    app.add_flag("--summary", o.summary, "Print the summary of the result");
    app.add_option("--node-level", o.node_level,
                   "Level grouping PUs into nodes where the input does not choose (auto, l3, "
                   "l2, core, numa, package, ...)")
        ->capture_default_str();
    app.add_option("--name", o.name, "Name of the cluster");
    app.add_flag("--allow-disconnected", o.allow_disconnected,
                 "Accept a network that is not connected");
    app.add_flag("-q,--quiet", o.quiet, "Do not report what was written");
    app.footer("Exit status: 0 success, 1 bad input data, 2 bad usage.");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return nettopo::report_usage_error("nettopo-discover", e.what());
    }
    return nettopo::run_guarded("nettopo-discover", [&] { return discover(o); });
}
