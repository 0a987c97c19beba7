// Devices as one line each (device_printer.hpp).
#include "nettopo-query/device_printer.hpp"

#include "common/json_writer.hpp"
#include "nettopo/model/device_matrix.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/detail/text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace nettopo {

void print_devices(const PeNaming& naming, std::span<const MachineId> machines, bool json,
                   std::ostream& out) {
    const Cluster& cluster = naming.cluster();
    for (MachineId m : machines) {
        const auto devices = cluster.machine_type(m).tree().devices();
        for (std::uint32_t i = 0; i < devices.size(); ++i) {
            const MachineDevice d{m, i};
            const IoDevice& dev = devices[i];
            const PeRange pes = device_pes(cluster, d);
            std::vector<std::uint32_t> os;
            for (std::uint32_t k = 0; k < pes.count; ++k) os.push_back(naming.os_index(pes[k]));
            const std::string cpuset = format_cpu_list(os);
            const auto numa = device_numa_nodes(cluster, d);
            const std::string pci = device_pci_bus_id(cluster, d);
            const std::string_view machine = cluster.machine_name(m);
            // This host's own: an adapter's GUID, a GPU's UUID.
            const std::string guid = device_identity(cluster, d, {"NodeGUID"});
            const std::string uuid =
                device_identity(cluster, d, {"NVIDIAUUID", "AMDUUID", "LevelZeroUUID"});
            if (!json) {
                // A generated GPU has no runtime's name: "-", as for an absent field.
                const std::string names = fmt::format("{}", fmt::join(dev.names, ","));
                // Fixed columns first, the model last: it holds spaces.
                out << fmt::format("{} {} {} {} cpuset={} numa={} names={}", machine, dev.name,
                                   to_string(dev.kind), pci.empty() ? "-" : pci,
                                   cpuset.empty() ? "-" : cpuset,
                                   numa.empty() ? "-" : fmt::format("{}", fmt::join(numa, ",")),
                                   names.empty() ? "-" : names);
                if (!guid.empty()) out << " guid=" << guid;
                if (!uuid.empty()) out << " uuid=" << uuid;
                if (!dev.model.empty()) out << " \"" << dev.model << '"';
                out << '\n';
                continue;
            }
            JsonWriter j(out);
            j.begin_object().key("device").begin_object();
            j.field("machine", machine).field("kind", to_string(dev.kind)).field("name", dev.name);
            j.key("names").begin_array();
            for (const std::string& n : dev.names) j.value(n);
            j.end_array();
            j.key("pci");
            pci.empty() ? j.null() : j.value(pci);
            j.field("cpuset", cpuset).key("numa").begin_array();
            for (std::uint32_t n : numa) j.value(n);
            j.end_array();
            j.field("vendor", dev.vendor).field("model", dev.model).field("subtype", dev.subtype);
            j.key("guid");
            guid.empty() ? j.null() : j.value(guid);
            j.key("uuid");
            uuid.empty() ? j.null() : j.value(uuid);
            j.key("identities").begin_array();
            for (const DeviceIdentity& i : device_identities(cluster, d))
                j.begin_object()
                    .field("view", i.view)
                    .field("name", i.name)
                    .field("value", i.value)
                    .end_object();
            j.end_array();
            j.end_object().end_object().line();
        }
    }
}

void print_nearest_to_device(const PeNaming& naming, MachineDevice d, std::uint32_t k,
                             std::span<const NearPe> found, bool json, std::ostream& out) {
    if (!json) {
        for (const NearPe& n : found)
            out << naming.pe_text(n.pe) << ' ' << format_number(n.distance_ns) << '\n';
        return;
    }
    const Cluster& cluster = naming.cluster();
    JsonWriter j(out);
    j.begin_object().field("machine", cluster.machine_name(d.machine));
    j.field("device", device(cluster, d).name).field("k", k).key("nearest").begin_array();
    for (const NearPe& n : found) {
        j.begin_object().key("pe");
        naming.pe_json(j, n.pe);
        j.field("latency_ns", n.distance_ns).end_object();
    }
    j.end_array().end_object().line();
}

void print_nearest_devices(const PeNaming& naming, PeId pe, std::optional<DeviceKind> kind,
                           std::span<const NearDevice> found, bool json, std::ostream& out) {
    const Cluster& cluster = naming.cluster();
    if (!json) {
        for (const NearDevice& n : found) {
            const IoDevice& dev = device(cluster, n.device);
            out << dev.name << ' ' << to_string(dev.kind) << ' ' << format_number(n.latency_ns)
                << '\n';
        }
        return;
    }
    JsonWriter j(out);
    j.begin_object().key("pe");
    naming.pe_json(j, pe);
    j.field("machine", cluster.machine_name(cluster.machine_of(pe))).key("kind");
    kind ? j.value(to_string(*kind)) : j.null();
    j.key("devices").begin_array();
    for (const NearDevice& n : found) {
        const IoDevice& dev = device(cluster, n.device);
        j.begin_object().field("name", dev.name).field("kind", to_string(dev.kind));
        j.field("latency_ns", n.latency_ns).end_object();
    }
    j.end_array().end_object().line();
}

void print_device_matrix(const PeNaming& naming, std::span<const MachineId> machines, bool json,
                         std::ostream& out) {
    const Cluster& cluster = naming.cluster();
    for (MachineId m : machines) {
        const std::vector<std::uint32_t> shown = matrix_devices(cluster, m);
        const auto devices = cluster.machine_type(m).tree().devices();
        if (json) {
            JsonWriter j(out);
            j.begin_object().key("device_matrix").begin_object();
            j.field("machine", cluster.machine_name(m)).key("devices").begin_array();
            for (std::uint32_t a : shown) j.value(devices[a].name);
            j.end_array().key("matrix").begin_array();
            for (std::uint32_t a : shown) {
                j.begin_array();
                for (std::uint32_t b : shown) j.value(matrix_entry(cluster, m, a, b));
                j.end_array();
            }
            j.end_array().end_object().end_object().line();
            continue;
        }
        if (machines.size() > 1) out << cluster.machine_name(m) << ":\n";
        std::size_t width = 6;
        for (std::uint32_t a : shown) width = std::max(width, devices[a].name.size() + 2);
        out << fmt::format("{:{}}", "", width);
        for (std::uint32_t b : shown) out << fmt::format("{:{}}", devices[b].name, width);
        out << "CPU Affinity\tNUMA Affinity\n";
        for (std::uint32_t a : shown) {
            out << fmt::format("{:{}}", devices[a].name, width);
            for (std::uint32_t b : shown)
                out << fmt::format("{:{}}", matrix_entry(cluster, m, a, b), width);
            const MachineDevice d{m, a};
            const PeRange pes = device_pes(cluster, d);
            std::vector<std::uint32_t> os;
            for (std::uint32_t k = 0; k < pes.count; ++k) os.push_back(naming.os_index(pes[k]));
            const auto numa = device_numa_nodes(cluster, d);
            out << format_cpu_list(os) << '\t'
                << (numa.empty() ? "N/A" : fmt::format("{}", fmt::join(numa, ","))) << '\n';
        }
        if (shown.empty()) out << "(no GPU or network adapter)\n";
    }
}

std::optional<MachineDevice> one_device(const Cluster& cluster, std::string_view text) {
    if (text.find_first_not_of("0123456789") == std::string_view::npos) return std::nullopt;
    return find_device(cluster, text);
}

} // namespace nettopo
