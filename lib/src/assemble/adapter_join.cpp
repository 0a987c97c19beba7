#include "assemble/adapter_join.hpp"

#include "nettopo/query/gpu_binding.hpp"
#include "nettopo/support/detail/parse.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <tuple>

namespace nettopo::detail {

std::optional<std::uint64_t> parse_guid(std::string_view text) {
    if (text.starts_with("0x")) return parse_hex(text.substr(2));
    // hwloc: four groups of four hexadecimal digits joined by ':'.
    if (text.size() != 19) return std::nullopt;
    std::string digits;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (i % 5 == 4) {
            if (text[i] != ':') return std::nullopt;
        } else {
            digits += text[i];
        }
    }
    return parse_hex(digits);
}

AdapterJoin join_adapters(const Fabric& fabric, std::span<const std::uint32_t> adapters,
                          std::string_view host, const MachineTree* tree,
                          std::span<const DeviceIdentity> identities) {
    AdapterJoin out;
    // The export's fabric adapters and their GUIDs.
    struct Local {
        std::uint32_t device;
        std::uint64_t guid = 0;
        bool joined = false;
    };
    std::vector<Local> local;
    if (tree) {
        const auto devices = tree->devices();
        for (std::uint32_t d = 0; d < devices.size(); ++d)
            if (devices[d].kind == DeviceKind::Nic && devices[d].subtype == "OpenFabrics")
                local.push_back({d});
        for (const DeviceIdentity& id : identities)
            if (id.name == "NodeGUID")
                for (Local& l : local)
                    if (l.device == id.device) l.guid = parse_guid(id.value).value_or(0);
    }
    const auto name_of = [&](const Local& l) -> const std::string& {
        return tree->devices()[l.device].name;
    };
    for (const std::uint32_t i : adapters) {
        const FabricAdapter& a = fabric.adapters[i];
        Local* match = nullptr;
        for (Local& l : local)
            if (!l.joined && a.guid != 0 && l.guid == a.guid) match = &l;
        // By name only where the export gives no GUID to the candidate: two
        // GUIDs that differ are two adapters, whatever their names say.
        const auto by_name = [&](auto&& same) {
            for (Local& l : local)
                if (!match && !l.joined && l.guid == 0 && same(l)) match = &l;
        };
        if (!a.device.empty()) {
            by_name([&](const Local& l) { return name_of(l) == a.device; });
            const auto index = adapter_index(a.device);
            if (index)
                by_name([&](const Local& l) {
                    return name_of(l).starts_with("mlx") && adapter_index(name_of(l)) == index;
                });
        }
        std::string device;
        if (match) {
            match->joined = true;
            device = name_of(*match);
        } else {
            device = a.device.empty() ? fmt::format("{:#018x}", a.guid) : a.device;
            if (!local.empty()) out.unmatched.push_back(fmt::format("{}:{}", host, device));
        }
        for (const FabricAdapter::Port& p : a.ports)
            out.cables.push_back({device, a.guid, p.port, p.peer});
    }
    for (const Local& l : local)
        if (!l.joined) out.uncabled.push_back(fmt::format("{}:{}", host, name_of(l)));
    std::stable_sort(out.cables.begin(), out.cables.end(),
                     [](const JoinedCable& x, const JoinedCable& y) {
                         const auto ix = adapter_index(x.device), iy = adapter_index(y.device);
                         return std::tie(ix, x.device, x.port) < std::tie(iy, y.device, y.port);
                     });
    return out;
}

} // namespace nettopo::detail
