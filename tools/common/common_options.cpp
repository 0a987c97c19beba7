// The tools' common options (see common_options.hpp).
#include "common/common_options.hpp"

#include "common/completion_table.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/model/machine_type.hpp"
#include "nettopo/model/network.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace nettopo {

namespace {

// The types a latency can be given for, as lstopo prints them: every type
// but the memory ones.
std::vector<std::string> level_names() {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < object_type_count; ++i)
        if (!is_memory(static_cast<ObjectType>(i)))
            names.emplace_back(to_string(static_cast<ObjectType>(i)));
    return names;
}

// "Machine, Package, ... or PU", for messages.
std::string level_list() {
    const std::vector<std::string> names = level_names();
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return list;
}

// hwloc's name of one Group level (lstopo prints "Group0", "Group1").
bool names_group_depth(std::string_view word) {
    return word.size() > 5 && iequals(word.substr(0, 5), "group") &&
           word.substr(5).find_first_not_of("0123456789") == std::string_view::npos;
}

// Whether `word` names link kinds (nettopo-discover's and nettopo-gen's KIND).
bool names_link_kind(std::string_view word) {
    if (word == "all") return true;
    for (std::size_t i = 0; i < link_class_count; ++i)
        if (word == link_class_name(static_cast<LinkClass>(i))) return true;
    return false;
}

// Whether `word` (before '=') means a machine latency: an object type, or a
// word refused as one (a memory type, a Group level's name).
bool names_level(std::string_view word) {
    return parse_object_type(word).has_value() || names_group_depth(word);
}

// One TYPE=NS value into `levels`; ValueError (the value, the problem) if
// it does not read.
void read_level_latency(std::string_view text, LevelLatencyOverrides& levels) {
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos)
        throw ValueError(std::string(text), "expected TYPE=NS, e.g. L3=40");
    const std::string_view word = text.substr(0, eq), number = text.substr(eq + 1);
    // The table, and the archive that records it, hold one Group value for
    // every Group level: applying Group1's to all would be a silent lie.
    if (names_group_depth(word))
        throw ValueError(std::string(text),
                         fmt::format("'{}' names one Group level, but one latency serves them "
                                     "all (a machine type's table and its archive hold one Group "
                                     "value): give Group=NS",
                                     word));
    const std::optional<ObjectType> type = parse_object_type(word);
    if (!type && names_link_kind(word))
        throw ValueError(std::string(text),
                         fmt::format("'{}' is a kind of link: link latencies are set where the "
                                     "cluster is made (nettopo-discover or nettopo-gen --latency "
                                     "KIND=NS); here TYPE=NS only",
                                     word));
    if (!type)
        throw ValueError(std::string(text),
                         fmt::format("unknown object type '{}' ({})", word, level_list()));
    if (is_memory(*type))
        throw ValueError(std::string(text),
                         fmt::format("{} is a memory object, never where two PUs meet (across "
                                     "NUMA nodes, the tree and the machine's NUMA distances "
                                     "decide)",
                                     to_string(*type)));
    // The bound of the link latencies the same option sets in two tools.
    const std::optional<double> ns = parse_double(number);
    if (!ns || *ns < 0 || *ns > max_link_latency_ns)
        throw ValueError(std::string(text),
                         fmt::format("'{}' is not a latency in ns (0 to 1e9)", number));
    levels.set(*type, *ns);
}

} // namespace

CLI::Option* add_input_option(CLI::App& app, std::string& value) {
    return app
        .add_option("-i,--input", value,
                    "Cluster: a nettopo archive (or its binary image), a text description, "
                    "an hwloc XML export or an hwloc synthetic string ('-' = stdin)")
        ->type_name("FILE");
}

CLI::Option* add_node_level_option(CLI::App& app, std::string& value) {
    return app
        .add_option("--node-level", value,
                    "Level grouping PUs into nodes where the input does not choose (auto, l3, "
                    "l2, core, numa, package, ...)")
        ->capture_default_str()
        ->check(completion_words(list_words(node_level_choices)));
}

CLI::Option* add_allowed_only_option(CLI::App& app, bool& value) {
    return app.add_flag("--allowed-only", value,
                        "hwloc input (an export, or this machine): only the PUs it allowed, as "
                        "an export made inside a job; default: the whole machine");
}

CLI::Option* add_quiet_option(CLI::App& app, bool& value) {
    return app.add_flag("-q,--quiet", value,
                        "Nothing on stderr but errors and warnings (no notes, no report of "
                        "what was read or written)");
}

CLI::Option* add_index_option(CLI::App& app, std::string& value, std::string_view here) {
    return app
        .add_option("--index", value,
                    fmt::format("How distances between machines are answered: auto (the "
                                "family's closed form when the cluster still is its family, "
                                "else a distance index when the questions pay for building "
                                "it, else a search each), always (build the index), never (a "
                                "search each). {}",
                                here))
        ->check(CLI::IsMember({"auto", "always", "never"}));
}

IndexUse parse_index_use(std::string_view word) {
    if (word == "auto") return IndexUse::Auto;
    if (word == "always") return IndexUse::Always;
    if (word == "never") return IndexUse::Never;
    throw UsageError(fmt::format("--index: '{}' is not auto, always or never", word));
}

CLI::Option* add_latency_option(CLI::App& app, std::vector<std::string>& values,
                                std::string_view links_help,
                                const std::vector<std::string>& link_words) {
    std::vector<std::string> words = link_words;
    for (const std::string& name : level_names()) words.push_back(name + "=");
    const std::string levels =
        fmt::format("TYPE=NS: latency between two PUs whose deepest common object is a TYPE ({}; "
                    "any case), over every machine type's own, whatever the input",
                    level_list());
    return app
        .add_option("--latency", values,
                    links_help.empty() ? fmt::format("{}; repeatable", levels)
                                       : fmt::format("{}; or {}; repeatable", links_help, levels))
        ->type_name(links_help.empty() ? "TYPE=NS" : "KIND=NS|TYPE=NS")
        ->check(completion_words(words));
}

LevelLatencyOverrides parse_level_latencies(const std::vector<std::string>& values) {
    LevelLatencyOverrides levels;
    for (const std::string& v : values)
        read_named("--latency", [&] { read_level_latency(v, levels); });
    return levels;
}

LatencyValues split_latency_values(const std::vector<std::string>& values) {
    LatencyValues out;
    for (const std::string& v : values) {
        if (names_level(std::string_view(v).substr(0, v.find('='))))
            read_named("--latency", [&] { read_level_latency(v, out.levels); });
        else
            out.links.push_back(v);
    }
    return out;
}

} // namespace nettopo
