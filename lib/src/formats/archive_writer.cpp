// Writer of the nettopo XML archive (share/doc/archive-format.md).
#include "nettopo/formats/archive.hpp"
#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/detail/atomic_file.hpp"
#include "nettopo/support/detail/text.hpp"
#include "support/name_runs.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pugixml.hpp>

namespace nettopo {

namespace {

std::string node_request_name(const NodeLevel& n) {
    return n.type ? std::string(to_string(*n.type)) : "auto";
}

void write_objects(pugi::xml_node parent, const MachineTree& tree, ObjectId id) {
    const TreeObject& o = tree.object(id);
    pugi::xml_node e = parent.append_child("object");
    e.append_attribute("type") = std::string(to_string(o.type)).c_str();
    if (o.os_index != unknown_os_index) e.append_attribute("os") = o.os_index;
    if (o.size_bytes) e.append_attribute("size") = fmt::format("{}", o.size_bytes).c_str();
    if (tree.is_data_cache(id)) e.append_attribute("cache") = "data";
    for (const MemoryObject& m : tree.memory()) {
        if (m.parent != id) continue;
        pugi::xml_node me = e.append_child("memory");
        me.append_attribute("type") = std::string(to_string(m.type)).c_str();
        if (m.os_index != unknown_os_index) me.append_attribute("os") = m.os_index;
        if (m.size_bytes) me.append_attribute("size") = fmt::format("{}", m.size_bytes).c_str();
    }
    for (ObjectId child : tree.children(id)) write_objects(e, tree, child);
}

// <cpu-kinds count="K"><kind efficiency="E" pus="L"><info name value/>...
// (version 4; efficiency left out when hwloc could not rank the kinds).
void write_cpu_kinds(pugi::xml_node type, const MachineTree& tree) {
    if (tree.cpu_kinds().empty()) return;
    pugi::xml_node kinds = type.append_child("cpu-kinds");
    kinds.append_attribute("count") = static_cast<unsigned>(tree.cpu_kinds().size());
    for (std::uint32_t k = 0; k < tree.cpu_kinds().size(); ++k) {
        const CpuKind& kind = tree.cpu_kinds()[k];
        pugi::xml_node e = kinds.append_child("kind");
        if (kind.efficiency != unknown_cpu_kind_efficiency)
            e.append_attribute("efficiency") = kind.efficiency;
        e.append_attribute("pus") = format_cpu_list(tree.pus_of_cpu_kind(k)).c_str();
        for (const CpuKindInfo& info : kind.infos) {
            pugi::xml_node i = e.append_child("info");
            i.append_attribute("name") = info.name.c_str();
            i.append_attribute("value") = info.value.c_str();
        }
    }
}

// <interconnect>: one of hwloc's GPU matrices, its endpoints by device name,
// PCI index or object index (as localities), then its values row by row.
void write_interconnect(pugi::xml_node io, const MachineTree& tree, const Interconnect& m) {
    pugi::xml_node e = io.append_child("interconnect");
    e.append_attribute("kind") = std::string(to_string(m.kind)).c_str();
    if (m.link_mbps) e.append_attribute("link-mbps") = fmt::format("{}", m.link_mbps).c_str();
    static constexpr const char* endpoint_attributes[] = {"device", "pci", "object"};
    for (const InterconnectEndpoint& p : m.endpoints) {
        pugi::xml_attribute a =
            e.append_child("endpoint")
                .append_attribute(endpoint_attributes[static_cast<int>(p.kind)]);
        if (p.kind == EndpointKind::Device)
            a = tree.devices()[p.index].name.c_str();
        else
            a = p.index;
    }
    e.append_child("values").text().set(fmt::format("{}", fmt::join(m.values, " ")).c_str());
}

// <io>: the PCI tree, the devices and the GPU matrices (version 4). `locality` is the
// CPU-side object's index in the type's pre-order, the root being 0.
void write_io(pugi::xml_node type, const MachineTree& tree) {
    if (tree.pci().empty() && tree.devices().empty() && tree.interconnects().empty()) return;
    pugi::xml_node io = type.append_child("io");
    static constexpr const char* pci_kinds[] = {"host-bridge", "bridge", "device"};
    for (const PciObject& p : tree.pci()) {
        pugi::xml_node e = io.append_child("pci");
        e.append_attribute("kind") = pci_kinds[static_cast<int>(p.kind)];
        if (p.parent != no_pci) e.append_attribute("parent") = p.parent;
        e.append_attribute("locality") = p.locality.value;
        e.append_attribute("busid") = pci_bus_id(p).c_str();
        if (p.kind != PciKind::HostBridge)
            e.append_attribute("id") =
                fmt::format("{:04x}:{:04x}", p.vendor_id, p.device_id).c_str();
    }
    for (const IoDevice& d : tree.devices()) {
        pugi::xml_node e = io.append_child("device");
        e.append_attribute("kind") = std::string(to_string(d.kind)).c_str();
        e.append_attribute("name") = d.name.c_str();
        if (d.pci != no_pci) e.append_attribute("pci") = d.pci;
        e.append_attribute("locality") = d.locality.value;
        for (const std::string& n : d.names) e.append_child("name").text().set(n.c_str());
        if (!d.vendor.empty()) e.append_attribute("vendor") = d.vendor.c_str();
        if (!d.model.empty()) e.append_attribute("model") = d.model.c_str();
        if (!d.subtype.empty()) e.append_attribute("subtype") = d.subtype.c_str();
    }
    for (const Interconnect& m : tree.interconnects()) write_interconnect(io, tree, m);
}

void write_type(pugi::xml_node types, const MachineType& t, std::uint32_t id) {
    pugi::xml_node e = types.append_child("type");
    e.append_attribute("id") = id;
    e.append_attribute("description") = t.description().c_str();
    e.append_attribute("node-request") = node_request_name(t.requested_node_level()).c_str();
    e.append_attribute("node-level") = std::string(to_string(t.node_type())).c_str();
    pugi::xml_node lat = e.append_child("latencies");
    for (std::size_t i = 0; i < object_type_count; ++i) {
        const auto type = static_cast<ObjectType>(i);
        if (is_memory(type)) continue;
        lat.append_attribute(std::string(to_string(type)).c_str()) =
            format_number(t.latencies()[type]).c_str();
    }
    if (const auto d = t.tree().numa_distances(); !d.empty()) {
        pugi::xml_node nd = e.append_child("numa-distances");
        nd.append_attribute("count") = t.tree().count(ObjectType::NUMANode);
        nd.text().set(fmt::format("{}", fmt::join(d, " ")).c_str());
    }
    write_cpu_kinds(e, t.tree());
    write_io(e, t.tree());
    write_objects(e, t.tree(), ObjectId(0));
}

// One element per name run: <single name="..."/> or <plural prefix first count width/>.
template <class NameOf, class SameGroup, class Decorate>
void write_names(pugi::xml_node parent, const char* single, const char* plural, NameOf name_of,
                 std::uint32_t n, SameGroup same_group, Decorate decorate) {
    for (const detail::NameRun& r : detail::name_runs(name_of, n, same_group)) {
        pugi::xml_node e;
        if (r.count == 1) {
            e = parent.append_child(single);
            e.append_attribute("name") = std::string(name_of(r.first_index)).c_str();
        } else {
            e = parent.append_child(plural);
            e.append_attribute("prefix") = r.prefix.c_str();
            e.append_attribute("first") = fmt::format("{}", r.first_number).c_str();
            e.append_attribute("count") = r.count;
            e.append_attribute("width") = r.width;
        }
        decorate(e, r.first_index);
    }
}

} // namespace

// Version 4: what tells each host's devices from an identical host's, per
// machine, each identity naming its device by the device's name.
void write_identities(pugi::xml_node list, const Cluster& c) {
    for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
        const std::span<const DeviceIdentity> ids = c.identities(MachineId(m));
        if (ids.empty()) continue;
        const MachineTree& tree = c.type(c.type_of(MachineId(m))).tree();
        pugi::xml_node e = list.append_child("machine");
        e.append_attribute("name") = std::string(c.machine_name(MachineId(m))).c_str();
        for (const DeviceIdentity& d : ids) {
            pugi::xml_node i = e.append_child("identity");
            i.append_attribute("device") = tree.devices()[d.device].name.c_str();
            i.append_attribute("view") = d.view.c_str();
            i.append_attribute("name") = d.name.c_str();
            i.append_attribute("value") = d.value.c_str();
        }
    }
}

// Version 5: each host's cabled adapter ports, per machine, each naming the
// vertex its cable reaches; a GUID as ibnetdiscover writes them, port and
// GUID left out when unknown.
void write_attachments(pugi::xml_node list, const Cluster& c) {
    for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
        const std::span<const Attachment> cables = c.attachments(MachineId(m));
        if (cables.empty()) continue;
        pugi::xml_node e = list.append_child("machine");
        e.append_attribute("name") = std::string(c.machine_name(MachineId(m))).c_str();
        for (const Attachment& a : cables) {
            pugi::xml_node i = e.append_child("adapter");
            i.append_attribute("device") = a.device.c_str();
            if (a.port != 0) i.append_attribute("port") = a.port;
            if (a.guid != 0) i.append_attribute("guid") = fmt::format("{:#018x}", a.guid).c_str();
            i.append_attribute("to") = std::string(c.vertex_name(a.peer)).c_str();
        }
    }
}

void write_archive(const Cluster& c, std::ostream& out, Progress* progress) {
    pugi::xml_document doc;
    pugi::xml_node decl = doc.append_child(pugi::node_declaration);
    decl.append_attribute("version") = "1.0";
    decl.append_attribute("encoding") = "UTF-8";
    pugi::xml_node root = doc.append_child("nettopo");
    const bool end_hosts = !c.network().all_forward();
    bool version_4 = false; // NUMA distances, CPU kinds, I/O devices or GPU matrices
    for (std::uint32_t t = 0; t < c.num_types(); ++t) {
        const MachineTree& tree = c.type(TypeId(t)).tree();
        version_4 |= !tree.numa_distances().empty() || !tree.cpu_kinds().empty() ||
                     !tree.devices().empty() || !tree.pci().empty() ||
                     !tree.interconnects().empty();
    }
    version_4 |= c.has_identities();
    root.append_attribute("version") = c.has_attachments() ? 5
                                       : version_4         ? 4
                                       : end_hosts         ? 3
                                                           : archive_version_without_end_hosts;
    root.append_attribute("name") = c.name().c_str();
    if (!c.family().empty()) root.append_attribute("family") = c.family().c_str();

    pugi::xml_node types = root.append_child("types");
    types.append_attribute("count") = c.num_types();
    for (std::uint32_t t = 0; t < c.num_types(); ++t) write_type(types, c.type(TypeId(t)), t);

    const auto forwards = [&](std::uint32_t i) { return c.network().forwards(VertexId(i)); };
    pugi::xml_node machines = root.append_child("machines");
    machines.append_attribute("count") = c.num_machines();
    write_names(
        machines, "machine", "machines",
        [&](std::uint32_t i) { return c.machine_name(MachineId(i)); }, c.num_machines(),
        [&](std::uint32_t i) {
            return c.type_of(MachineId(i)) == c.type_of(MachineId(i - 1)) &&
                   forwards(i) == forwards(i - 1);
        },
        [&](pugi::xml_node e, std::uint32_t i) {
            e.append_attribute("type") = c.type_of(MachineId(i)).value;
            // Version 3; written only where it is not the default.
            if (!forwards(i)) e.append_attribute("forwards") = "no";
        });

    pugi::xml_node switches = root.append_child("switches");
    switches.append_attribute("count") = c.num_switches();
    write_names(
        switches, "switch", "switches", [&](std::uint32_t i) { return c.switch_name(SwitchId(i)); },
        c.num_switches(), [](std::uint32_t) { return true; }, [](pugi::xml_node, std::uint32_t) {});

    if (c.has_identities()) write_identities(root.append_child("identities"), c);
    if (c.has_attachments()) write_attachments(root.append_child("attachments"), c);

    pugi::xml_node links = root.append_child("links");
    links.append_attribute("count") = static_cast<unsigned long long>(c.num_net_links());
    std::string text = "\n";
    text.reserve(c.num_net_links() * 16 + 1);
    ProgressTicker tick(progress, "writing the links", c.num_net_links());
    std::uint64_t written = 0;
    const Link* prev = nullptr;
    for (const Link& l : c.network().links()) {
        tick(++written);
        // Version 2: the trailing fields equal to the previous line's are
        // left out, and the reader repeats them. Links hold no -0 (the
        // builder makes it 0), so equal numbers are identical numbers.
        const int fields = !prev || l.multiplicity != prev->multiplicity ? 3
                           : l.bandwidth_gbps != prev->bandwidth_gbps    ? 2
                           : l.latency_ns != prev->latency_ns            ? 1
                                                                         : 0;
        auto it = fmt::format_to(std::back_inserter(text), "{} {}", l.a.value, l.b.value);
        if (fields >= 1) it = fmt::format_to(it, " {}", format_number(l.latency_ns));
        if (fields >= 2) it = fmt::format_to(it, " {}", format_number(l.bandwidth_gbps));
        if (fields >= 3) it = fmt::format_to(it, " {}", l.multiplicity);
        text += '\n';
        prev = &l;
    }
    links.append_child(pugi::node_pcdata).set_value(text.c_str());

    doc.save(out, "  ", pugi::format_indent, pugi::encoding_utf8);
}

void save_archive(const Cluster& cluster, const std::string& path, Progress* progress) {
    write_atomically(path, [&](std::ostream& out) { write_archive(cluster, out, progress); });
    if (progress) progress->finish();
}

} // namespace nettopo
