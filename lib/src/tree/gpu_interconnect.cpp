#include "nettopo/tree/gpu_interconnect.hpp"

#include "nettopo/support/error.hpp"
#include "tree/interconnect_check.hpp"

#include <fmt/format.h>

namespace nettopo {

std::string_view to_string(InterconnectKind k) {
    switch (k) {
    case InterconnectKind::NvlinkBandwidth:
        return "NVLinkBandwidth";
    case InterconnectKind::XgmiBandwidth:
        return "XGMIBandwidth";
    case InterconnectKind::XgmiHops:
        return "XGMIHops";
    case InterconnectKind::XelinkBandwidth:
        break;
    }
    return "XeLinkBandwidth";
}

std::optional<InterconnectKind> interconnect_kind_from(std::string_view name) {
    for (InterconnectKind k : {InterconnectKind::NvlinkBandwidth, InterconnectKind::XgmiBandwidth,
                               InterconnectKind::XgmiHops, InterconnectKind::XelinkBandwidth})
        if (name == to_string(k)) return k;
    return std::nullopt;
}

bool is_bandwidth(InterconnectKind k) {
    return k != InterconnectKind::XgmiHops;
}

namespace detail {

void check_interconnect(const Interconnect& m, std::size_t devices, std::size_t pci,
                        std::size_t objects) {
    if (static_cast<unsigned>(m.kind) > static_cast<unsigned>(InterconnectKind::XelinkBandwidth))
        throw InputError("an interconnect matrix of an unknown kind");
    const std::string_view name = to_string(m.kind);
    const std::size_t n = m.endpoints.size();
    if (n == 0 || m.values.size() != n * n)
        throw InputError(fmt::format("the {} matrix has {} values for {} endpoints (expected {})",
                                     name, m.values.size(), n, n * n));
    for (std::size_t i = 0; i < n; ++i) {
        const InterconnectEndpoint e = m.endpoints[i];
        const std::size_t limit = e.kind == EndpointKind::Device ? devices
                                  : e.kind == EndpointKind::Pci  ? pci
                                  : e.kind == EndpointKind::Cpu  ? objects
                                                                 : 0;
        if (e.index >= limit)
            throw InputError(fmt::format("endpoint {} of the {} matrix names an object that does "
                                         "not exist",
                                         i, name));
        for (std::size_t j = 0; j < i; ++j)
            if (m.endpoints[j] == e)
                throw InputError(
                    fmt::format("the {} matrix names one endpoint twice ({} and {})", name, j, i));
    }
    // Links are counted from it (gpu-nodes.md): without it NV<n> means nothing.
    if (m.kind == InterconnectKind::NvlinkBandwidth && m.link_mbps == 0)
        throw InputError("the NVLinkBandwidth matrix needs the bandwidth of one link (link_mbps)");
}

} // namespace detail

} // namespace nettopo
