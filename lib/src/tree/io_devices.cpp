#include "nettopo/tree/io_devices.hpp"

#include "nettopo/support/detail/name_rules.hpp"

#include <fmt/format.h>

namespace nettopo {

std::string pci_bus_id(const PciObject& p) {
    return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", p.domain, p.bus, p.dev, p.func);
}

std::string_view to_string(DeviceKind k) {
    switch (k) {
    case DeviceKind::Gpu:
        return "gpu";
    case DeviceKind::Nic:
        return "nic";
    case DeviceKind::Storage:
        return "storage";
    case DeviceKind::Other:
        break;
    }
    return "other";
}

std::optional<DeviceKind> device_kind_from(std::string_view word) {
    for (DeviceKind k : {DeviceKind::Gpu, DeviceKind::Nic, DeviceKind::Storage, DeviceKind::Other})
        if (word == to_string(k)) return k;
    return std::nullopt;
}

std::string identity_problem(const DeviceIdentity& d) {
    if (d.view.empty() || d.name.empty()) return "has no OS device or no name";
    if (std::string p = name_problem(d.view); !p.empty())
        return fmt::format("has an OS device name that {}", p);
    if (std::string p = text_problem(d.name); !p.empty())
        return fmt::format("has a name that {}", p);
    if (std::string p = text_problem(d.value); !p.empty())
        return fmt::format("{} of {} {}", d.name, d.view, p);
    return {};
}

bool is_identity_info(std::string_view name) {
    static constexpr std::string_view whole[] = {
        "NodeGUID", "SysImageGUID", "Address",       "NVIDIAUUID",           "NVIDIASerial",
        "AMDUUID",  "AMDSerial",    "LevelZeroUUID", "LevelZeroSerialNumber"};
    for (const std::string_view w : whole)
        if (name == w) return true;
    // Port<N>LID, Port<N>LMC, Port<N>State: an OpenFabrics port's.
    if (!name.starts_with("Port")) return false;
    std::size_t i = 4;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
    const std::string_view rest = name.substr(i);
    return i > 4 && (rest == "LID" || rest == "LMC" || rest == "State");
}

} // namespace nettopo
