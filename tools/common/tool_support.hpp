// What every nettopo executable shares: the exit-code convention, --version,
// and where a topology comes from when the user does not say.
#pragma once

#include "nettopo/formats/description.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/limits.hpp"

#include <exception>
#include <functional>
#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace nettopo {

inline constexpr int exit_ok = 0;
inline constexpr int exit_bad_data = 1;
inline constexpr int exit_bad_usage = 2;
// A comparison with an expected cluster found differences (nettopo-query
// diff, nettopo-discover --expect): distinct from 1, so that a CI job tells
// a changed cluster from a broken file.
inline constexpr int exit_differences = 3;

// Runs a tool's body and turns exceptions into a one-line message on stderr
// ("<tool>: error: ...", with the flag of the error's remedy) and the
// documented exit code: UsageError -> 2, anything else -> 1; else the body's
// own code (exit_ok, or exit_differences for a comparison). Output that could
// not be written (a full disk, a closed pipe) is an error too: scripts must
// not read a truncated answer as complete. A terminating signal (SIGTERM,
// SIGINT, SIGHUP) removes the temporary files of the writes under way before
// it kills the tool (interrupt_cleanup.hpp).
int run_guarded(std::string_view tool, const std::function<int()>& body);

// What the user of a tool does for a library Remedy, in the tools' flags:
// "give --default-machine", "use --allow-disconnected if this is intended";
// for a file that another option reads, that option with `file` (the file
// the error is about, quoted for a shell; FILE when it names none, as
// "<stdin>"): "give it to nettopo-discover --ibnetdiscover ib.txt, with
// --hosts or --default-machine". Empty for Remedy::none. The one place
// remedies become flags.
std::string remedy_hint(Remedy remedy, std::string_view file = {});

// A library error's message for a tool's user: what() and, in parentheses,
// remedy_hint(remedy(), file()) when there is one.
std::string error_message(const std::exception& e);

// A command-line parsing error, reported like every other error; returns 2.
int report_usage_error(std::string_view tool, std::string_view message);

// Adds --version to a tool's command line. It prints version_text(tool) and
// exits 0 through CLI11's CLI::CallForVersion, a CLI::Success: the tool's
// `catch (const CLI::Success& e) { return app.exit(e); }` does it.
void add_version_flag(CLI::App& app, std::string_view tool);
// "nettopo-query 0.1.0\nhwloc 2.9.0": the tool and nettopo's version, and the
// version of the hwloc library the tool runs with.
std::string version_text(std::string_view tool);

// The input a query tool reads when -i is not given: $NETTOPO_ARCHIVE, else
// ./net_topo.xml if it exists, else "" (discover this machine), which the tool
// says on stderr in one line unless `quiet`. $NETTOPO_ARCHIVE naming no file is
// an InputError.
std::string default_input(std::string_view tool, bool quiet);

// Loads `input`, or discovers this machine when it is empty.
Cluster load_or_discover(const std::string& input, const LoadOptions& options);

// load_topology (an image, or an archive and the image beside it), or this
// machine when `input` is empty. An image beside the archive that no longer
// stands for it is said on stderr in one line, unless `quiet`.
LoadedTopology load_input(std::string_view tool, const std::string& input,
                          const LoadOptions& options, bool quiet);

// The declared limits (nettopo/support/limits.hpp) with those the user
// raised or lowered: $NETTOPO_MAX_VERTICES (machines + switches per cluster,
// and host names per Slurm topology file) and $NETTOPO_MAX_LINKS, each a
// whole number from 1 to what the 32-bit ids hold; UsageError otherwise.
// Every tool passes it down through its load, assemble or generate options.
Limits limits_from_environment();

// Parses a --node-level value ("auto", "l3", "core", "numa", ...); UsageError if unknown.
NodeLevel parse_node_level(std::string_view text);

} // namespace nettopo
