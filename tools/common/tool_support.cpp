#include "common/tool_support.hpp"

#include "common/interrupt_cleanup.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/version.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <optional>

namespace nettopo {

int run_guarded(std::string_view tool, const std::function<int()>& body) {
    remove_temporaries_on_termination();
    int code = exit_ok;
    try {
        code = body();
    } catch (const UsageError& e) {
        std::cerr << fmt::format("{}: error: {}\n", tool, error_message(e));
        return exit_bad_usage;
    } catch (const std::bad_alloc&) {
        std::cerr << fmt::format("{}: error: out of memory\n", tool);
        return exit_bad_data;
    } catch (const std::exception& e) {
        std::cerr << fmt::format("{}: error: {}\n", tool, error_message(e));
        return exit_bad_data;
    }
    if (!std::cout.flush()) {
        std::cerr << fmt::format("{}: error: cannot write to standard output\n", tool);
        return exit_bad_data;
    }
    return code;
}

namespace {
// `file` as a shell reads it back: as it is when it holds nothing a shell
// would take apart, else in single quotes; FILE for no file ("<stdin>").
std::string shell_word(std::string_view file) {
    if (file.empty() || file.starts_with('<')) return "FILE";
    if (file.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                               "_-+.,/:=@%") == std::string_view::npos)
        return std::string(file);
    std::string quoted = "'";
    for (const char c : file) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}
} // namespace

std::string remedy_hint(Remedy remedy, std::string_view file) {
    switch (remedy) {
    case Remedy::none:
        return {};
    case Remedy::allow_disconnected:
        return "use --allow-disconnected if this is intended";
    case Remedy::default_machine:
        return "give --default-machine";
    case Remedy::hosts_or_default_machine:
        return "give --hosts, or --default-machine";
    case Remedy::allowed_only:
        return "--allowed-only models only the allowed PUs";
    case Remedy::host_naming:
        return "--host-name export|file forces one rule";
    case Remedy::raise_vertex_limit:
        return "set NETTOPO_MAX_VERTICES to raise the limit";
    case Remedy::raise_link_limit:
        return "set NETTOPO_MAX_LINKS to raise the limit";
    case Remedy::force_generation:
        return "nettopo-gen --force generates it anyway";
    case Remedy::read_as_ibnetdiscover:
        return fmt::format("give it to nettopo-discover --ibnetdiscover {}, with --hosts or "
                           "--default-machine",
                           shell_word(file));
    case Remedy::read_as_slurm:
        return fmt::format("give it to nettopo-discover --slurm {}, with --hosts or "
                           "--default-machine",
                           shell_word(file));
    case Remedy::read_as_host_export:
        return fmt::format("give it to nettopo-discover --hosts {}, with a fabric or --hosts-only",
                           shell_word(file));
    case Remedy::node_name_map:
        return "a --node-name-map names them by GUID";
    }
    return {};
}

std::string error_message(const std::exception& e) {
    const auto* error = dynamic_cast<const Error*>(&e);
    const auto* input = dynamic_cast<const InputError*>(&e);
    const std::string hint =
        error ? remedy_hint(error->remedy(), input ? std::string_view(input->file()) : "")
              : std::string();
    // A message may quote bytes of the input (a hint, a file name): none
    // reaches the terminal as a control.
    const std::string what = printable_text(e.what());
    return hint.empty() ? what : fmt::format("{} ({})", what, printable_text(hint));
}

int report_usage_error(std::string_view tool, std::string_view message) {
    std::cerr << fmt::format("{}: error: {} (see {} --help)\n", tool, message, tool);
    return exit_bad_usage;
}

void add_version_flag(CLI::App& app, std::string_view tool) {
    app.set_version_flag(
        "--version", [name = std::string(tool)] { return version_text(name); },
        "Print the version of nettopo and of the hwloc it runs with, and exit");
}

std::string version_text(std::string_view tool) {
    return fmt::format("{} {}\nhwloc {}", tool, NETTOPO_VERSION, hwloc_runtime_version());
}

std::string default_input(std::string_view tool, bool quiet) {
    std::error_code ec;
    if (const char* env = std::getenv("NETTOPO_ARCHIVE"); env && *env) {
        // A job script that names an archive means it: answering about this
        // machine instead would be plausible nonsense.
        if (!std::filesystem::exists(env, ec))
            throw InputError(fmt::format("{}: no such file (named by $NETTOPO_ARCHIVE)", env));
        return env;
    }
    if (std::filesystem::exists("net_topo.xml", ec)) return "net_topo.xml";
    if (!quiet)
        std::cerr << fmt::format("{}: no topology given (-i, $NETTOPO_ARCHIVE or ./net_topo.xml): "
                                 "answering about this machine\n",
                                 tool);
    return {};
}

Cluster load_or_discover(const std::string& input, const LoadOptions& options) {
    return input.empty() ? discover_cluster(options) : load_cluster(input, options);
}

LoadedTopology load_input(std::string_view tool, const std::string& input,
                          const LoadOptions& options, bool quiet) {
    if (input.empty()) return {discover_cluster(options), nullptr, {}, {}};
    LoadedTopology t = load_topology(input, options);
    if (!t.stale_image.empty() && !quiet)
        std::cerr << fmt::format("{}: {} no longer stands for {} (rebuild it with nettopo-query "
                                 "-i {} index): read {} instead\n",
                                 tool, t.stale_image, input, input, input);
    return t;
}

NodeLevel parse_node_level(std::string_view text) {
    if (auto level = node_level_from(text)) return *level;
    throw UsageError(
        fmt::format("unknown node level '{}' (expected {})", text, node_level_choices));
}

Limits limits_from_environment() {
    Limits limits;
    auto read = [](const char* name, std::uint64_t& limit, std::uint64_t most) {
        const char* text = std::getenv(name);
        if (!text || !*text) return;
        const std::optional<std::uint64_t> value = parse_uint(text);
        if (!value || *value == 0 || *value > most)
            throw UsageError(
                fmt::format("{}='{}': expected a whole number from 1 to {}", name, text, most));
        limit = *value;
    };
    const Limits most = Limits::ids_only();
    read("NETTOPO_MAX_VERTICES", limits.max_vertices, most.max_vertices);
    read("NETTOPO_MAX_LINKS", limits.max_links, most.max_links);
    return limits;
}

} // namespace nettopo
