// A machine's GPUs and network adapters from Python, answered as
// nettopo-query's devices, cpuset-of, nearest-device and nearest DEVICE K
// answer them (nettopo/model/devices.hpp, nettopo/query/device_nearest.hpp).
#include "module_parts.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/query/device_nearest.hpp"

#include <optional>
#include <pybind11/stl.h>
#include <string>
#include <variant>
#include <vector>

namespace py = pybind11;

namespace nettopo::python {

namespace {

py::str text(std::string_view s) {
    return py::str(s.data(), s.size());
}

// The one device `name` names; ValueError when none or several do.
MachineDevice require_device(const Cluster& cluster, const std::string& name) {
    if (const auto d = find_device(cluster, name)) return *d;
    throw UsageError("no device named '" + name + "'");
}

// A device as `nettopo-query --json devices` prints it (the "device" object).
py::dict device_dict(const Cluster& cluster, MachineDevice d) {
    const IoDevice& dev = device(cluster, d);
    py::dict out;
    out["machine"] = text(cluster.machine_name(d.machine));
    out["kind"] = text(to_string(dev.kind));
    out["name"] = dev.name;
    out["names"] = dev.names;
    const std::string pci = device_pci_bus_id(cluster, d);
    out["pci"] = pci.empty() ? py::object(py::none()) : py::object(py::str(pci));
    out["cpuset"] = device_cpu_list(cluster, d);
    out["numa"] = device_numa_nodes(cluster, d);
    out["vendor"] = dev.vendor;
    out["model"] = dev.model;
    out["subtype"] = dev.subtype;
    const auto text_or_none = [](const std::string& v) {
        return v.empty() ? py::object(py::none()) : py::object(py::str(v));
    };
    out["guid"] = text_or_none(device_identity(cluster, d, {"NodeGUID"}));
    out["uuid"] =
        text_or_none(device_identity(cluster, d, {"NVIDIAUUID", "AMDUUID", "LevelZeroUUID"}));
    py::list identities;
    for (const DeviceIdentity& i : device_identities(cluster, d)) {
        py::dict one;
        one["view"] = i.view;
        one["name"] = i.name;
        one["value"] = i.value;
        identities.append(one);
    }
    out["identities"] = identities;
    return out;
}

std::optional<DeviceKind> kind_of(const std::optional<std::string>& kind) {
    if (!kind) return std::nullopt;
    if (const auto k = device_kind_from(*kind)) return k;
    throw UsageError("unknown device kind '" + *kind + "' (expected gpu, nic, storage or other)");
}

} // namespace

void bind_devices(py::class_<Topology>& c) {
    c.def(
         "devices",
         [](const Topology& t, const std::optional<std::string>& machine) {
             const Cluster& k = t.cluster();
             py::list out;
             const auto of = [&](MachineId m) {
                 const auto n =
                     static_cast<std::uint32_t>(k.machine_type(m).tree().devices().size());
                 for (std::uint32_t i = 0; i < n; ++i) out.append(device_dict(k, {m, i}));
             };
             if (machine) {
                 of(k.require_machine(*machine));
             } else {
                 for (std::uint32_t m = 0; m < k.num_machines(); ++m) of(MachineId(m));
             }
             return out;
         },
         py::arg("machine") = py::none(),
         "GPUs, network adapters and other devices of every machine (or of the machine of "
         "that name), in the order `nettopo-query devices` lists them, each a dict as its "
         "--json prints it: machine, kind ('gpu', 'nic', ...), name, names, pci, cpuset, "
         "numa, vendor, model, subtype, guid, uuid, identities (this host's GUIDs, LIDs, "
         "addresses, UUIDs).")
        .def(
            "cpuset_of",
            [](const Topology& t, const std::variant<std::int64_t, std::string>& what) {
                const Cluster& k = t.cluster();
                if (const auto* pe = std::get_if<std::int64_t>(&what))
                    return cpu_list_of(k, PeRange{checked_pe(k, *pe).value, 1});
                const std::string& name = std::get<std::string>(what);
                // A machine of that name first, as nettopo-query reads it.
                if (const auto m = k.find_machine(name))
                    return cpu_list_of(k, k.pes_of_machine(*m));
                if (const auto d = find_device(k, name)) return device_cpu_list(k, *d);
                return cpu_list_of(k, k.pes_of_machine(k.require_machine(name)));
            },
            py::arg("what"),
            "OS indexes of the PUs of a device ('gpu2', 'mlx5_0', 'HOST:gpu2': those local to "
            "it), a machine (by name) or a PE (an int), as a CPU list: '98-111,210-223'.")
        .def(
            "pes_of_device",
            [](const Topology& t, const std::string& name) {
                const PeRange r = device_pes(t.cluster(), require_device(t.cluster(), name));
                py::list pes;
                for (std::uint32_t i = 0; i < r.count; ++i) pes.append(r.first + i);
                return pes;
            },
            py::arg("device"), "PEs local to a device ('gpu2', 'HOST:mlx5_0').")
        .def(
            "nearest_devices",
            [](const Topology& t, std::int64_t pe, const std::optional<std::string>& kind) {
                const Cluster& k = t.cluster();
                py::list out;
                for (const NearDevice& n : nearest_devices(k, checked_pe(k, pe), kind_of(kind))) {
                    const IoDevice& dev = device(k, n.device);
                    out.append(py::make_tuple(dev.name, text(to_string(dev.kind)), n.latency_ns));
                }
                return out;
            },
            py::arg("pe"), py::arg("kind") = py::none(),
            "The devices of the PE's machine, nearest first (0 ns for those local to it), only "
            "those of a kind ('gpu', 'nic', 'storage', 'other') when given: [(name, kind, "
            "latency_ns)].")
        .def(
            "nearest_device",
            [](const Topology& t, std::int64_t pe,
               const std::optional<std::string>& kind) -> py::object {
                const Cluster& k = t.cluster();
                const auto near = nearest_devices(k, checked_pe(k, pe), kind_of(kind));
                if (near.empty()) return py::none();
                return py::str(device(k, near.front().device).name);
            },
            py::arg("pe"), py::arg("kind") = py::none(),
            "Name of the device (of a kind, when given) nearest the PE; None when its machine "
            "has none.")
        .def(
            "nearest_to_device",
            [](Topology& t, const std::string& name, std::int64_t k) {
                const Cluster& cluster = t.cluster();
                const std::uint32_t capped = capped_k(k, cluster.num_pes());
                const MachineDevice d = require_device(cluster, name);
                py::list out;
                for (const NearPe& n : nearest_to_device(t.engine(), d, capped))
                    out.append(py::make_tuple(n.pe.value, n.distance_ns));
                return out;
            },
            py::arg("device"), py::arg("k"),
            "The k PEs nearest a device: its local PEs first (0 ns), then its machine's other "
            "PEs, then other machines' by network distance; ties by PE id: [(pe, "
            "distance_ns)].");
}

} // namespace nettopo::python
