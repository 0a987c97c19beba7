#include "nettopo-query/allocation_printer.hpp"

#include "common/json_writer.hpp"
#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"

#include <fmt/format.h>

namespace nettopo {

namespace {
// The allocation's machines as one hostlist expression, in its order (a
// comma-separated list when a name cannot be written in one).
std::string hosts_text(const JobView& view) {
    std::vector<std::string> names;
    for (MachineId m : view.machines()) names.emplace_back(view.cluster().machine_name(m));
    try {
        return compress_hostlist(names);
    } catch (const InputError&) {
        std::string s;
        for (const std::string& n : names) s += (s.empty() ? "" : ",") + n;
        return s;
    }
}
} // namespace

void write_allocation_summary_text(const JobView& view, const AllocationSummary& s,
                                   std::ostream& out) {
    out << fmt::format("allocation:    {}\n", hosts_text(view));
    out << fmt::format("machines:      {}\n", s.hosts);
    out << fmt::format("PEs:           {}\n", s.pes);
    out << fmt::format("nodes:         {}\n", s.nodes);
    out << fmt::format("switches:      {} (on the shortest paths between its hosts)\n", s.switches);
    out << fmt::format("leaf switches: {} (its hosts are cabled to)\n", s.leaf_switches);
    // Hosts on several leaves (rails): is the job inside one unit?
    if (s.max_host_leaves > 1) {
        const std::string leaves = s.min_host_leaves == s.max_host_leaves
                                       ? fmt::format("{}", s.max_host_leaves)
                                       : fmt::format("{}-{}", s.min_host_leaves, s.max_host_leaves);
        if (s.units == 1)
            out << fmt::format("units:         1: its hosts share all their {} leaves\n", leaves);
        else
            out << fmt::format("units:         {}: groups of its hosts sharing their leaves ({} "
                               "each)\n",
                               s.units, leaves);
    }
    // Rails of the hosts' adapters, when the cluster keeps them.
    if (!s.rails.empty())
        out << fmt::format("rails:         {} ({}), {}; same-rail hops: {}\n", s.rails.size(),
                           format_cpu_list(s.rails),
                           s.rails_aligned ? "aligned: each leaf carries one of them"
                                           : "not aligned: hosts with other rails, or a leaf "
                                             "carrying two",
                           s.same_rail_hops ? fmt::format("{}", *s.same_rail_hops)
                                            : std::string("none"));
    if (s.max_hops)
        out << fmt::format("largest hops:  {} between two of its hosts\n", *s.max_hops);
    else
        out << fmt::format("largest hops:  none: {} of its hosts do not reach each other\n",
                           counted(s.unreachable_pairs, "pair"));
}

void write_allocation_summary_json(const JobView& view, const AllocationSummary& s,
                                   std::ostream& out) {
    JsonWriter j(out);
    // Counts are num_* as in summary (num_machines, num_pes, num_nodes, num_switches).
    j.begin_object().key("allocation").begin_object();
    j.field("hostlist", hosts_text(view)).field("num_machines", s.hosts);
    j.field("num_pes", s.pes).field("num_nodes", s.nodes).field("num_switches", s.switches);
    j.field("num_leaf_switches", s.leaf_switches).field("max_hops", s.max_hops);
    j.field("unreachable_pairs", s.unreachable_pairs);
    if (s.max_host_leaves > 1) {
        j.field("num_units", s.units);
        j.key("leaves_per_host").begin_array().value(s.min_host_leaves).value(s.max_host_leaves);
        j.end_array();
    }
    if (!s.rails.empty()) {
        j.key("rails").begin_array();
        for (const std::uint32_t r : s.rails) j.value(r);
        j.end_array();
        j.field("rails_aligned", s.rails_aligned).field("same_rail_hops", s.same_rail_hops);
    }
    j.end_object().end_object().line();
}

} // namespace nettopo
