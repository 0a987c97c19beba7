// One order for a fabric's adapters, whichever source or merge made them:
// by host name, then adapter index (mlx5_N and HCA-(N+1) side by side),
// device name and GUID.
#pragma once

#include "nettopo/fabric/fabric.hpp"

#include <algorithm>
#include <tuple>

namespace nettopo {

inline void order_adapters(Fabric& f) {
    for (FabricAdapter& a : f.adapters)
        std::sort(a.ports.begin(), a.ports.end(),
                  [](const auto& x, const auto& y) { return x.port < y.port; });
    std::sort(f.adapters.begin(), f.adapters.end(),
              [&](const FabricAdapter& x, const FabricAdapter& y) {
                  const auto ix = adapter_index(x.device), iy = adapter_index(y.device);
                  return std::tie(f.nodes[x.host].name, ix, x.device, x.guid) <
                         std::tie(f.nodes[y.host].name, iy, y.device, y.guid);
              });
}

} // namespace nettopo
