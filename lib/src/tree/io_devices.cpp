#include "nettopo/tree/io_devices.hpp"

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

} // namespace nettopo
