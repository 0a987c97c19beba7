// The latency of a shortest path between two hosts of a family whose paths
// leave a host by a host-switch link, cross hops - 2 switch-switch links and
// enter the other host by a host-switch link (fat-trees, rail-optimized
// fabrics): the family's machine_latency_ps.
#pragma once

#include "nettopo/families/family.hpp"

#include <cstdint>

namespace nettopo::detail {

inline std::int64_t host_switch_path_latency_ps(std::uint32_t hops, const ClassLatenciesPs& ps) {
    if (hops == 0) return 0;
    return 2 * ps[static_cast<std::size_t>(LinkClass::HostSwitch)] +
           std::int64_t{hops - 2} * ps[static_cast<std::size_t>(LinkClass::SwitchSwitch)];
}

} // namespace nettopo::detail
