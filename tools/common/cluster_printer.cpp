// lstopo-like text view of a cluster.
#include "common/cluster_printer.hpp"

#include "common/json_writer.hpp"
#include "nettopo/support/text.hpp"

#include <fmt/format.h>

namespace nettopo {

namespace {

// As hwloc prints sizes: in the largest unit that keeps at least 10 of them.
std::string size_text(std::uint64_t bytes) {
    if (bytes >= (10ull << 30)) return fmt::format("{}GB", bytes >> 30);
    if (bytes >= (10ull << 20)) return fmt::format("{}MB", bytes >> 20);
    return fmt::format("{}KB", bytes >> 10);
}

std::string object_label(const MachineTree& tree, ObjectId id) {
    const TreeObject& o = tree.object(id);
    std::string s = fmt::format("{} L#{}", tree.level_name(id), o.logical_index);
    if (o.type == ObjectType::Machine) s = "Machine";
    std::string extra;
    if (o.os_index != unknown_os_index &&
        (o.type == ObjectType::PU || o.type == ObjectType::Package || o.type == ObjectType::Die))
        extra = fmt::format("P#{}", o.os_index);
    if (o.size_bytes)
        extra = fmt::format("{}{}{}", extra, extra.empty() ? "" : " ", size_text(o.size_bytes));
    return extra.empty() ? s : fmt::format("{} ({})", s, extra);
}

constexpr std::uint32_t not_a_node = 0xffffffffu;

// node_at[object]: the node that object stands for, or not_a_node.
void show_tree(const MachineType& t, const std::vector<std::uint32_t>& node_at, ObjectId id,
               int indent, std::ostream& out) {
    const MachineTree& tree = t.tree();
    std::string line = object_label(tree, id);
    if (node_at[id.value] != not_a_node) line += fmt::format("  [node {}]", node_at[id.value]);
    out << fmt::format("{:{}}{}\n", "", indent, line);
    for (const MemoryObject& m : tree.memory()) {
        if (m.type == ObjectType::NUMANode && m.parent == id)
            out << fmt::format("{:{}}NUMANode L#{} (P#{}{})\n", "", indent + 2, m.logical_index,
                               m.os_index == unknown_os_index ? std::string("?")
                                                              : fmt::format("{}", m.os_index),
                               m.size_bytes ? fmt::format(" {}", size_text(m.size_bytes)) : "");
    }
    for (ObjectId c : tree.children(id)) show_tree(t, node_at, c, indent + 2, out);
}

std::string neighbours_text(const Cluster& c, VertexId v, std::size_t shown) {
    const Network& net = c.network();
    const auto to = net.neighbors(v);
    const auto links = net.neighbor_links(v);
    std::string s;
    for (std::size_t i = 0; i < to.size() && i < shown; ++i) {
        const Link& l = net.links()[links[i]];
        s += fmt::format("{}{} {}ns", i ? ", " : "", c.vertex_name(to[i]),
                         format_number(l.latency_ns));
        if (l.multiplicity > 1) s += fmt::format(" x{}", l.multiplicity);
        if (l.bandwidth_gbps > 0) s += fmt::format(" {}Gb/s", format_number(l.bandwidth_gbps));
    }
    if (to.size() > shown) s += fmt::format(", ... {} more", to.size() - shown);
    return s.empty() ? "(no link)" : s;
}

} // namespace

void write_show(const Cluster& c, std::ostream& out, const ShowOptions& options) {
    out << fmt::format("Cluster {}: {}\n", c.name().empty() ? "(unnamed)" : c.name(),
                       cluster_counts(c));
    const std::uint32_t limit = options.max_listed ? options.max_listed : ~0u;
    // A switch's ports are summarised more tightly than the machine list.
    const std::size_t ports = options.max_listed ? 8 : ~std::size_t{0};
    for (std::uint32_t s = 0; s < c.num_switches() && s < limit; ++s)
        out << fmt::format("  Switch {}: {}\n", c.switch_name(SwitchId(s)),
                           neighbours_text(c, c.vertex(SwitchId(s)), ports));
    if (c.num_switches() > limit)
        out << fmt::format("  ... {} more switches\n", c.num_switches() - limit);
    for (std::uint32_t m = 0; m < c.num_machines() && m < limit; ++m) {
        const PeRange pes = c.pes_of_machine(MachineId(m));
        const std::string pe_text =
            pes.count == 1 ? fmt::format("PE {}", pes.first)
                           : fmt::format("PEs {}-{}", pes.first, pes.first + pes.count - 1);
        // An end host carries no traffic: paths start or end there only.
        const bool end_host = !c.network().forwards(c.vertex(MachineId(m)));
        out << fmt::format("  Machine {} (type {}, {}{}): {}\n", c.machine_name(MachineId(m)),
                           c.type_of(MachineId(m)).value, pe_text, end_host ? ", end host" : "",
                           neighbours_text(c, c.vertex(MachineId(m)), ports));
    }
    if (c.num_machines() > limit)
        out << fmt::format("  ... {} more machines\n", c.num_machines() - limit);
    for (std::uint32_t t = 0; t < c.num_types(); ++t) {
        const MachineType& type = c.type(TypeId(t));
        out << fmt::format("Machine type {}: {} ({}, {} at level {})\n", t, type.description(),
                           counted(type.num_pus(), "PE"), counted(type.num_nodes(), "node"),
                           to_string(type.node_type()));
        std::vector<std::uint32_t> node_at(type.tree().num_objects(), not_a_node);
        for (std::uint32_t n = 0; n < type.num_nodes(); ++n) node_at[type.node_object(n).value] = n;
        show_tree(type, node_at, ObjectId(0), 2, out);
    }
}

void write_summary_text(const ClusterSummary& s, std::ostream& out) {
    out << fmt::format("name:          {}\n", s.name);
    out << fmt::format("PEs:           {}\n", s.pes);
    out << fmt::format("machines:      {}{}\n", s.machines,
                       s.end_hosts ? fmt::format(" (end hosts: {})", s.end_hosts) : "");
    out << fmt::format("nodes:         {}\n", s.nodes);
    out << fmt::format("switches:      {}\n", s.switches);
    out << fmt::format("links:         {}\n", s.links);
    out << fmt::format("components:    {}\n", s.components);
    out << fmt::format("degree:        {}..{}\n", s.min_degree, s.max_degree);
    if (s.diameter_hops)
        out << fmt::format(
            "diameter:      {}{} between machines{}{}\n",
            s.diameter_exact ? "" : ">= ", counted(*s.diameter_hops, "hop"),
            s.components > 1               ? " (the largest inside one component)"
            : !s.machines_reach_each_other ? " (the largest between machines that reach each other)"
                                           : "",
            s.diameter_exact ? "" : " (a lower bound: too large for the exact value)");
    out << fmt::format("machine types: {}\n", s.machine_types.size());
    for (std::size_t i = 0; i < s.machine_types.size(); ++i) {
        const auto& t = s.machine_types[i];
        out << fmt::format("  type {}: {} x {}, {} each, node level {}: {}\n", i,
                           counted(t.machines, "machine"), counted(t.pes_per_machine, "PE"),
                           counted(t.nodes_per_machine, "node"), t.node_level, t.description);
    }
}

void write_summary_json(const ClusterSummary& s, std::ostream& out) {
    JsonWriter j(out);
    j.begin_object();
    j.key("summary");
    write_summary_object(s, j);
    j.end_object();
    j.line();
}

void write_summary_object(const ClusterSummary& s, JsonWriter& j) {
    j.begin_object();
    // Counts are num_<things>, as nettopo-query's num-* print them: a plural
    // alone (pes) is a list elsewhere.
    j.field("name", s.name).field("num_pes", s.pes).field("num_machines", s.machines);
    j.field("num_end_hosts", s.end_hosts);
    j.field("num_nodes", s.nodes).field("num_switches", s.switches).field("num_links", s.links);
    j.field("num_components", s.components).field("min_degree", s.min_degree);
    j.field("max_degree", s.max_degree).field("diameter_hops", s.diameter_hops);
    j.field("diameter_exact", s.diameter_exact);
    j.key("machine_types").begin_array();
    for (const auto& t : s.machine_types) {
        j.begin_object();
        j.field("description", t.description).field("node_level", t.node_level);
        j.field("num_machines", t.machines).field("pes_per_machine", t.pes_per_machine);
        j.field("nodes_per_machine", t.nodes_per_machine);
        j.end_object();
    }
    j.end_array();
    j.end_object();
}

} // namespace nettopo
