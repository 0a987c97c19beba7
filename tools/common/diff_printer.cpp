#include "common/diff_printer.hpp"

#include "common/format_units.hpp"
#include "common/json_writer.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/hostlist.hpp"

#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace nettopo {

namespace {

// What a difference is called, in the text (singular and plural, for the
// summary's counts) and in JSON (where a host is a machine, as in every
// tool's JSON; share/schema/query-diff.schema.json). One kind of the library can read as two
// (slower or faster), so the words follow the values.
struct Noun {
    const char* one;
    const char* many;
    const char* json;
};

// In the order the summary lists them.
constexpr std::array<Noun, 17> nouns = {{
    {"switch missing", "switches missing", "switch_missing"},
    {"switch added", "switches added", "switch_added"},
    {"host missing", "hosts missing", "machine_missing"},
    {"host added", "hosts added", "machine_added"},
    {"link missing", "links missing", "link_missing"},
    {"link added", "links added", "link_added"},
    {"link with fewer cables", "links with fewer cables", "cables_changed"},
    {"link with more cables", "links with more cables", "cables_changed"},
    {"link slower", "links slower", "bandwidth_changed"},
    {"link faster", "links faster", "bandwidth_changed"},
    {"link of another bandwidth", "links of another bandwidth", "bandwidth_changed"},
    {"link with higher latency", "links with higher latency", "latency_changed"},
    {"link with lower latency", "links with lower latency", "latency_changed"},
    {"host changed", "hosts changed", "machine_changed"},
    {"adapter moved", "adapters moved", "adapter_moved"},
    {"adapter missing", "adapters missing", "adapter_missing"},
    {"adapter added", "adapters added", "adapter_added"},
}};

std::size_t noun_of(const ClusterDifference& d) {
    switch (d.kind) {
    case DifferenceKind::switch_missing:
        return 0;
    case DifferenceKind::switch_added:
        return 1;
    case DifferenceKind::machine_missing:
        return 2;
    case DifferenceKind::machine_added:
        return 3;
    case DifferenceKind::link_missing:
        return 4;
    case DifferenceKind::link_added:
        return 5;
    case DifferenceKind::cables_changed:
        return d.actual < d.expected ? 6 : 7;
    case DifferenceKind::bandwidth_changed: // 0 is unknown: neither slower nor faster
        if (d.expected == 0 || d.actual == 0) return 10;
        return d.actual < d.expected ? 8 : 9;
    case DifferenceKind::latency_changed:
        return d.actual > d.expected ? 11 : 12;
    case DifferenceKind::machine_changed:
        break;
    case DifferenceKind::adapter_moved:
        return 14;
    case DifferenceKind::adapter_missing:
        return 15;
    case DifferenceKind::adapter_added:
        return 16;
    }
    return 13; // host changed
}

std::string bandwidth_text(double gbps) {
    return gbps == 0 ? "unknown" : format_number(gbps) + " Gbit/s";
}

std::string memory_change(std::uint64_t expected, std::uint64_t actual) {
    const double delta = static_cast<double>(actual) - static_cast<double>(expected);
    return fmt::format("memory {} -> {} ({}{})", format_bytes(static_cast<double>(expected)),
                       format_bytes(static_cast<double>(actual)), delta < 0 ? "-" : "+",
                       format_bytes(std::abs(delta)));
}

std::string machine_change_text(const MachineChange& c) {
    const MachineCounts &e = c.expected, &a = c.actual;
    std::vector<std::string> parts;
    auto count = [&](const char* what, std::uint64_t x, std::uint64_t y) {
        if (x != y) parts.push_back(fmt::format("{} {} -> {}", what, x, y));
    };
    count("packages", e.packages, a.packages);
    count("cores", e.cores, a.cores);
    count("PUs", e.pus, a.pus);
    count("NUMA nodes", e.numa_nodes, a.numa_nodes);
    if (e.memory_bytes != a.memory_bytes)
        parts.push_back(memory_change(e.memory_bytes, a.memory_bytes));
    if (e.node_type != a.node_type)
        parts.push_back(
            fmt::format("node level {} -> {}", to_string(e.node_type), to_string(a.node_type)));
    count("nodes", e.nodes, a.nodes);
    // What the counts do not show.
    if (c.layout && parts.empty()) parts.emplace_back("other layout of caches and cores");
    if (c.os_indexes) parts.emplace_back("other OS indexes");
    if (c.cache_sizes) parts.emplace_back("other cache sizes");
    if (c.numa_memory && e.memory_bytes == a.memory_bytes)
        parts.emplace_back("other memory per NUMA node");
    if (c.latencies) parts.emplace_back("other latencies");
    if (c.cpu_kinds) parts.emplace_back("other CPU kinds");
    return fmt::format("{}", fmt::join(parts, ", "));
}

std::vector<const char*> machine_change_others(const MachineChange& c) {
    std::vector<const char*> others;
    if (c.layout) others.push_back("layout");
    if (c.os_indexes) others.push_back("os_indexes");
    if (c.cache_sizes) others.push_back("cache_sizes");
    if (c.numa_memory) others.push_back("numa_memory");
    if (c.latencies) others.push_back("latencies");
    if (c.cpu_kinds) others.push_back("cpu_kinds");
    return others;
}

void counts_json(JsonWriter& j, const MachineCounts& c) {
    j.begin_object();
    j.field("num_packages", c.packages);
    j.field("num_cores", c.cores);
    j.field("num_pus", c.pus);
    j.field("num_numa_nodes", c.numa_nodes);
    j.field("memory_bytes", c.memory_bytes);
    j.field("num_nodes", c.nodes);
    j.field("node_level", to_string(c.node_type));
    j.end_object();
}

// " port 2" for an adapter's port, when known.
std::string port_text(const ClusterDifference& d) {
    return d.port ? fmt::format(" port {}", d.port) : std::string();
}

} // namespace

std::string difference_text(const ClusterDifference& d, const Rails* rails) {
    std::string text = difference_text(d);
    if (!rails || d.kind != DifferenceKind::adapter_moved) return text;
    // Which rails the two leaves serve, by the expected cluster's rails.
    const auto serves = [&](const std::string& leaf) -> std::string {
        for (const RailLeaf& l : rails->leaves)
            if (l.name == leaf) {
                std::string r;
                for (const std::uint32_t i : l.serves)
                    r += fmt::format("{}{}", r.empty() ? "" : ",", i);
                return fmt::format("rail {}", r);
            }
        return "no rail";
    };
    const std::string was = serves(d.was), now = serves(d.peer);
    if (was != now) text += fmt::format(" (from a leaf of {} to a leaf of {})", was, now);
    return text;
}

std::string difference_text(const ClusterDifference& d) {
    const char* noun = nouns[noun_of(d)].one;
    const std::string ends = fmt::format("{} -- {}", d.name, d.peer);
    switch (d.kind) {
    case DifferenceKind::switch_missing:
    case DifferenceKind::switch_added:
    case DifferenceKind::machine_missing:
    case DifferenceKind::machine_added:
        if (d.neighbors.empty()) return fmt::format("{}: {} (not linked)", noun, d.name);
        return fmt::format("{}: {} (linked to {})", noun, d.name,
                           hostlist_excerpt(d.neighbors, 16));
    case DifferenceKind::link_missing:
    case DifferenceKind::link_added: {
        const double cables = d.kind == DifferenceKind::link_missing ? d.expected : d.actual;
        return cables > 1 ? fmt::format("{}: {} ({} cables)", noun, ends, format_number(cables))
                          : fmt::format("{}: {}", noun, ends);
    }
    case DifferenceKind::cables_changed:
        return fmt::format("{}: {}: cables {} -> {}", noun, ends, format_number(d.expected),
                           format_number(d.actual));
    case DifferenceKind::bandwidth_changed:
        if (d.expected == 0 || d.actual == 0)
            return fmt::format("{}: {}: bandwidth {} -> {}", noun, ends, bandwidth_text(d.expected),
                               bandwidth_text(d.actual));
        return fmt::format("{}: {}: bandwidth {} -> {} Gbit/s", noun, ends,
                           format_number(d.expected), format_number(d.actual));
    case DifferenceKind::latency_changed:
        return fmt::format("{}: {}: latency {} -> {} ns", noun, ends, format_number(d.expected),
                           format_number(d.actual));
    case DifferenceKind::machine_changed:
        return fmt::format("{}: {}: {}", noun, d.name, machine_change_text(d.machine));
    case DifferenceKind::adapter_moved:
        return fmt::format("{}: {}{}: {} -> {}", noun, d.name, port_text(d), d.was, d.peer);
    case DifferenceKind::adapter_missing:
    case DifferenceKind::adapter_added:
        return fmt::format("{}: {}{} (cabled to {})", noun, d.name, port_text(d), d.peer);
    }
    return {};
}

std::string diff_summary_text(const ClusterDiff& diff) {
    if (diff.identical()) return "no differences";
    std::array<std::size_t, nouns.size()> n{};
    for (const ClusterDifference& d : diff.differences) ++n[noun_of(d)];
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < nouns.size(); ++i)
        if (n[i])
            parts.push_back(fmt::format("{} {}", n[i], n[i] == 1 ? nouns[i].one : nouns[i].many));
    return fmt::format("{}: {}", counted(diff.differences.size(), "difference"),
                       fmt::join(parts, ", "));
}

void write_diff_text(const ClusterDiff& diff, std::ostream& out, const Rails* rails) {
    for (const ClusterDifference& d : diff.differences) out << difference_text(d, rails) << '\n';
    out << diff_summary_text(diff) << '\n';
}

void write_diff_json(const ClusterDiff& diff, std::ostream& out) {
    for (const ClusterDifference& d : diff.differences) {
        JsonWriter j(out);
        j.begin_object().field("difference", nouns[noun_of(d)].json);
        switch (d.kind) {
        case DifferenceKind::switch_missing:
        case DifferenceKind::switch_added:
        case DifferenceKind::machine_missing:
        case DifferenceKind::machine_added: {
            const bool is_switch =
                d.kind == DifferenceKind::switch_missing || d.kind == DifferenceKind::switch_added;
            j.field(is_switch ? "switch" : "machine", d.name).key("linked_to").begin_array();
            for (const std::string& n : d.neighbors) j.value(n);
            j.end_array();
            break;
        }
        case DifferenceKind::machine_changed: {
            j.field("machine", d.name).key("expected");
            counts_json(j, d.machine.expected);
            j.key("actual");
            counts_json(j, d.machine.actual);
            j.key("other").begin_array();
            for (const char* o : machine_change_others(d.machine)) j.value(o);
            j.end_array();
            break;
        }
        case DifferenceKind::adapter_moved:
        case DifferenceKind::adapter_missing:
        case DifferenceKind::adapter_added:
            j.field("adapter", d.name).field("port", d.port);
            if (d.kind == DifferenceKind::adapter_moved)
                j.field("expected_peer", d.was).field("actual_peer", d.peer);
            else
                j.field("peer", d.peer);
            break;
        default: { // a link
            j.key("ends").begin_array().value(d.name).value(d.peer).end_array();
            auto number = [&](const char* key, double v, bool zero_unknown) {
                j.key(key);
                if (zero_unknown && v == 0)
                    j.null();
                else
                    j.value(v);
            };
            if (d.kind == DifferenceKind::link_missing)
                j.field("cables", static_cast<std::uint64_t>(d.expected));
            else if (d.kind == DifferenceKind::link_added)
                j.field("cables", static_cast<std::uint64_t>(d.actual));
            else if (d.kind == DifferenceKind::cables_changed) {
                j.field("expected_cables", static_cast<std::uint64_t>(d.expected));
                j.field("actual_cables", static_cast<std::uint64_t>(d.actual));
            } else if (d.kind == DifferenceKind::bandwidth_changed) {
                number("expected_bandwidth_gbps", d.expected, true);
                number("actual_bandwidth_gbps", d.actual, true);
            } else {
                number("expected_latency_ns", d.expected, false);
                number("actual_latency_ns", d.actual, false);
            }
        }
        }
        j.end_object().line();
    }
    JsonWriter j(out);
    j.begin_object()
        .field("identical", diff.identical())
        .field("differences", diff.differences.size());
    j.key("counts").begin_object();
    std::array<std::size_t, nouns.size()> n{};
    for (const ClusterDifference& d : diff.differences) ++n[noun_of(d)];
    // Kinds the text splits (slower, faster) are one count here.
    std::vector<std::pair<const char*, std::size_t>> counts;
    for (std::size_t i = 0; i < nouns.size(); ++i) {
        if (!n[i]) continue;
        if (!counts.empty() && std::string_view(counts.back().first) == nouns[i].json)
            counts.back().second += n[i];
        else
            counts.emplace_back(nouns[i].json, n[i]);
    }
    for (const auto& [key, count] : counts) j.field(key, count);
    j.end_object().end_object().line();
}

} // namespace nettopo
