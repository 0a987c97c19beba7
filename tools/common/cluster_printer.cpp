// lstopo-like text view of a cluster.
#include "common/cluster_printer.hpp"

#include "common/json_writer.hpp"
#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/tree/io_devices.hpp"

#include <fmt/format.h>
#include <optional>
#include <string_view>
#include <vector>

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
    // lstopo's names: a data cache is "L1d", a unified one "L2".
    std::string s = fmt::format("{}{} L#{}", tree.level_name(id), tree.is_data_cache(id) ? "d" : "",
                                o.logical_index);
    if (o.type == ObjectType::Machine) s = "Machine";
    std::string extra;
    if (o.os_index != unknown_os_index &&
        (o.type == ObjectType::PU || o.type == ObjectType::Package || o.type == ObjectType::Die))
        extra = fmt::format("P#{}", o.os_index);
    if (o.size_bytes)
        extra = fmt::format("{}{}{}", extra, extra.empty() ? "" : " ", size_text(o.size_bytes));
    return extra.empty() ? s : fmt::format("{} ({})", s, extra);
}

// "CPU kind #1: efficiency 1, PEs 4-11 (P#4-11), CoreType=IntelAtom": a
// kind as lstopo --cpukinds lists it, with its PUs by logical index (the
// machine's PEs) and OS index (lstopo's cpuset) instead of a mask.
std::string kind_text(std::uint32_t index, const CpuKind& kind,
                      const std::vector<std::uint32_t>& pus,
                      const std::vector<std::uint32_t>& os_indexes) {
    std::string s = fmt::format("CPU kind #{}: efficiency {}, {} {}", index,
                                kind.efficiency == unknown_cpu_kind_efficiency
                                    ? std::string("unknown")
                                    : fmt::format("{}", kind.efficiency),
                                pus.size() == 1 ? "PE" : "PEs", format_cpu_list(pus));
    if (!os_indexes.empty()) s += fmt::format(" (P#{})", format_cpu_list(os_indexes));
    for (std::size_t i = 0; i < kind.infos.size(); ++i)
        s += fmt::format("{}{}={}", i ? " " : ", ", kind.infos[i].name, kind.infos[i].value);
    return s;
}

constexpr std::uint32_t not_a_node = 0xffffffffu;

// The I/O side of a tree as lstopo nests it: below each CPU-side object its
// host bridges and the devices outside PCI; below each PCI object its PCI
// children and its devices.
struct IoChildren {
    std::vector<std::vector<std::uint32_t>> cpu_pci, cpu_devices; // by CPU-side object
    std::vector<std::vector<std::uint32_t>> pci_pci, pci_devices; // by PCI object

    explicit IoChildren(const MachineTree& tree)
        : cpu_pci(tree.num_objects()), cpu_devices(tree.num_objects()), pci_pci(tree.pci().size()),
          pci_devices(tree.pci().size()) {
        for (std::uint32_t i = 0; i < tree.pci().size(); ++i) {
            const PciObject& p = tree.pci()[i];
            (p.parent == no_pci ? cpu_pci[p.locality.value] : pci_pci[p.parent]).push_back(i);
        }
        for (std::uint32_t i = 0; i < tree.devices().size(); ++i) {
            const IoDevice& d = tree.devices()[i];
            (d.pci == no_pci ? cpu_devices[d.locality.value] : pci_devices[d.pci]).push_back(i);
        }
    }
};

// lstopo's words: "HostBridge", "PCIBridge", "PCI 4e:00.0" (the domain only
// when it is not 0000), with the vendor and device ids lstopo -v gives.
std::string pci_label(const PciObject& p) {
    switch (p.kind) {
    case PciKind::HostBridge:
        return "HostBridge";
    case PciKind::Bridge:
        return "PCIBridge";
    case PciKind::Device:
        break;
    }
    const std::string id = pci_bus_id(p);
    return fmt::format("PCI {} ({:04x}:{:04x})", p.domain == 0 ? id.substr(5) : id, p.vendor_id,
                       p.device_id);
}

// "GPU gpu0 (cuda0, nvml0, opencl0d0) "NVIDIA H100 80GB HBM3"": one line per
// device, where lstopo gives one per view of it.
std::string device_label(const IoDevice& d) {
    static constexpr std::string_view words[] = {"GPU", "NIC", "Storage", "Device"};
    std::string s = fmt::format("{} {}", words[static_cast<unsigned>(d.kind)], d.name);
    if (!(d.names.size() == 1 && d.names[0] == d.name) && !d.names.empty()) {
        s += " (";
        for (std::size_t i = 0; i < d.names.size(); ++i) s += (i ? ", " : "") + d.names[i];
        s += ")";
    }
    if (!d.model.empty()) s += fmt::format(" \"{}\"", d.model);
    return s;
}

void show_devices(const MachineTree& tree, const std::vector<std::uint32_t>& devices, int indent,
                  std::ostream& out) {
    for (const std::uint32_t d : devices)
        out << fmt::format("{:{}}{}\n", "", indent, device_label(tree.devices()[d]));
}

void show_pci(const MachineTree& tree, const IoChildren& io, std::uint32_t p, int indent,
              std::ostream& out) {
    out << fmt::format("{:{}}{}\n", "", indent, pci_label(tree.pci()[p]));
    show_devices(tree, io.pci_devices[p], indent + 2, out);
    for (const std::uint32_t c : io.pci_pci[p]) show_pci(tree, io, c, indent + 2, out);
}

// node_at[object]: the node that object stands for, or not_a_node; io: the
// I/O side to print, or null.
void show_tree(const MachineType& t, const std::vector<std::uint32_t>& node_at, bool kinds,
               const IoChildren* io, ObjectId id, int indent, std::ostream& out) {
    const MachineTree& tree = t.tree();
    std::string line = object_label(tree, id);
    if (const TreeObject& o = tree.object(id); kinds && o.type == ObjectType::PU) {
        const std::optional<std::uint32_t> kind = tree.cpu_kind_of_pu(o.first_pu);
        const std::string mark = kind ? fmt::format("kind #{}", *kind) : "no kind";
        line = line.back() == ')' ? fmt::format("{} {})", line.substr(0, line.size() - 1), mark)
                                  : fmt::format("{} ({})", line, mark);
    }
    if (node_at[id.value] != not_a_node) line += fmt::format("  [node {}]", node_at[id.value]);
    out << fmt::format("{:{}}{}\n", "", indent, line);
    for (const MemoryObject& m : tree.memory()) {
        if (m.type == ObjectType::NUMANode && m.parent == id)
            out << fmt::format("{:{}}NUMANode L#{} (P#{}{})\n", "", indent + 2, m.logical_index,
                               m.os_index == unknown_os_index ? std::string("?")
                                                              : fmt::format("{}", m.os_index),
                               m.size_bytes ? fmt::format(" {}", size_text(m.size_bytes)) : "");
    }
    for (ObjectId c : tree.children(id)) show_tree(t, node_at, kinds, io, c, indent + 2, out);
    // lstopo's order: memory, then the CPU side, then I/O.
    if (!io) return;
    for (const std::uint32_t p : io->cpu_pci[id.value]) show_pci(tree, *io, p, indent + 2, out);
    show_devices(tree, io->cpu_devices[id.value], indent + 2, out);
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
    const JobView* view = options.view;
    if (view)
        out << fmt::format("Allocation of cluster {}: {}, {}, {}\n",
                           c.name().empty() ? "(unnamed)" : c.name(),
                           counted(view->num_machines(), "machine"), counted(view->num_pes(), "PE"),
                           counted(view->num_nodes(), "node"));
    else
        out << fmt::format("Cluster {}: {}\n", c.name().empty() ? "(unnamed)" : c.name(),
                           cluster_counts(c));
    const std::uint32_t limit = options.max_listed ? options.max_listed : ~0u;
    // A switch's ports are summarised more tightly than the machine list.
    const std::size_t ports = options.max_listed ? 8 : ~std::size_t{0};
    // In a view: the switches its machines are cabled to, and their types.
    std::vector<SwitchId> switches;
    std::vector<char> type_used(c.num_types(), view ? 0 : 1);
    if (view) {
        std::vector<char> leaf(c.num_switches(), 0);
        for (MachineId m : view->machines()) {
            type_used[c.type_of(m).value] = 1;
            for (VertexId w : c.network().neighbors(c.vertex(m)))
                if (!c.network().is_machine(w)) leaf[c.switch_of_vertex(w).value] = 1;
        }
        for (std::uint32_t s = 0; s < c.num_switches(); ++s)
            if (leaf[s]) switches.emplace_back(s);
    } else {
        for (std::uint32_t s = 0; s < c.num_switches(); ++s) switches.emplace_back(s);
    }
    const auto num_switches = static_cast<std::uint32_t>(switches.size());
    for (std::uint32_t i = 0; i < num_switches && i < limit; ++i)
        out << fmt::format("  Switch {}: {}\n", c.switch_name(switches[i]),
                           neighbours_text(c, c.vertex(switches[i]), ports));
    if (num_switches > limit) out << fmt::format("  ... {} more switches\n", num_switches - limit);
    const std::uint32_t num_machines = view ? view->num_machines() : c.num_machines();
    for (std::uint32_t i = 0; i < num_machines && i < limit; ++i) {
        const MachineId m = view ? view->machine(i) : MachineId(i);
        const PeRange pes = view ? view->view_pes(i) : c.pes_of_machine(m);
        const std::string pe_text =
            pes.count == 1 ? fmt::format("PE {}", pes.first)
                           : fmt::format("PEs {}-{}", pes.first, pes.first + pes.count - 1);
        // An end host carries no traffic: paths start or end there only.
        const bool end_host = !c.network().forwards(c.vertex(m));
        out << fmt::format("  Machine {} (type {}, {}{}): {}\n", c.machine_name(m),
                           c.type_of(m).value, pe_text, end_host ? ", end host" : "",
                           neighbours_text(c, c.vertex(m), ports));
    }
    if (num_machines > limit) out << fmt::format("  ... {} more machines\n", num_machines - limit);
    for (std::uint32_t t = 0; t < c.num_types(); ++t) {
        if (!type_used[t]) continue;
        const MachineType& type = c.type(TypeId(t));
        out << fmt::format("Machine type {}: {} ({}, {} at level {})\n", t, type.description(),
                           counted(type.num_pus(), "PE"), counted(type.num_nodes(), "node"),
                           to_string(type.node_type()));
        std::vector<std::uint32_t> node_at(type.tree().num_objects(), not_a_node);
        for (std::uint32_t n = 0; n < type.num_nodes(); ++n) node_at[type.node_object(n).value] = n;
        const MachineTree& tree = type.tree();
        // A tree has kinds only where they tell PUs apart (min_cpu_kinds):
        // then each PU line says its kind.
        const std::optional<IoChildren> io =
            options.io ? std::optional<IoChildren>(std::in_place, tree) : std::nullopt;
        show_tree(type, node_at, !tree.cpu_kinds().empty(), io ? &*io : nullptr, ObjectId(0), 2,
                  out);
        for (std::uint32_t k = 0; k < tree.cpu_kinds().size(); ++k) {
            const std::vector<std::uint32_t> pus = tree.pus_of_cpu_kind(k);
            std::vector<std::uint32_t> os;
            for (const std::uint32_t pu : pus)
                if (const std::uint32_t i = tree.object(tree.pu(pu)).os_index;
                    i != unknown_os_index)
                    os.push_back(i);
            if (os.size() != pus.size()) os.clear();
            out << fmt::format("  {}\n", kind_text(k, tree.cpu_kinds()[k], pus, os));
        }
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
        for (std::uint32_t k = 0; k < t.cpu_kinds.size(); ++k) {
            const ClusterSummary::KindInfo& kind = t.cpu_kinds[k];
            out << fmt::format("    {}\n", kind_text(k, kind.kind, kind.pus, kind.os_indexes));
        }
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
        if (!t.cpu_kinds.empty()) { // only then: summaries of other machines keep their shape
            j.key("cpu_kinds").begin_array();
            for (const ClusterSummary::KindInfo& kind : t.cpu_kinds) {
                j.begin_object();
                j.key("efficiency");
                if (kind.kind.efficiency == unknown_cpu_kind_efficiency)
                    j.null();
                else
                    j.value(static_cast<std::int64_t>(kind.kind.efficiency));
                j.field("pus", format_cpu_list(kind.pus));
                j.key("cpuset");
                if (kind.os_indexes.empty())
                    j.null();
                else
                    j.value(format_cpu_list(kind.os_indexes));
                j.key("infos").begin_array();
                for (const CpuKindInfo& info : kind.kind.infos)
                    j.begin_object()
                        .field("name", info.name)
                        .field("value", info.value)
                        .end_object();
                j.end_array();
                j.end_object();
            }
            j.end_array();
        }
        j.end_object();
    }
    j.end_array();
    j.end_object();
}

} // namespace nettopo
