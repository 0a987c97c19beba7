/// \file
/// The GPU interconnect matrices hwloc reports (NVLink, AMD's XGMI, Intel's
/// XeLink) as a machine's tree keeps them: part of the machine's I/O
/// structure, shared by identical hosts like its PCI tree. What hwloc's
/// matrices mean, which objects they name and how nettopo keeps them are in
/// share/doc/gpu-nodes.md ("GPU interconnects").
/// \threads Plain values: const use from several threads at once is safe.
/// \cost Every function here is O(1) or O(length of its text) and throws
/// nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace nettopo {

/// Which of hwloc's matrices (named as hwloc names them).
enum class InterconnectKind : std::uint8_t {
    NvlinkBandwidth, ///< "NVLinkBandwidth" (NVML): unidirectional MB/s, links summed
    XgmiBandwidth,   ///< "XGMIBandwidth" (RSMI): unidirectional MB/s
    XgmiHops,        ///< "XGMIHops" (RSMI): XGMI hops, 1 for a direct link, 0 for none
    XelinkBandwidth, ///< "XeLinkBandwidth" (LevelZero): unidirectional MB/s, links summed
};

/// hwloc's name of the matrix: "NVLinkBandwidth", "XGMIBandwidth", "XGMIHops",
/// "XeLinkBandwidth".
std::string_view to_string(InterconnectKind k);
/// The kind hwloc's name `name` is, or nullopt.
std::optional<InterconnectKind> interconnect_kind_from(std::string_view name);
/// Whether the matrix holds bandwidths (MB/s); XGMIHops holds hop counts.
bool is_bandwidth(InterconnectKind k);

/// What an endpoint of a matrix is.
enum class EndpointKind : std::uint8_t {
    Device, ///< a kept device: index into MachineTree::devices()
    Pci,    ///< a PCI object that is no kept device (an NVSwitch): index into MachineTree::pci()
    Cpu,    ///< a CPU-side object (a POWER Package's NVLink port): an ObjectId's value
};

/// One row (and column) of a matrix.
struct InterconnectEndpoint {
    EndpointKind kind;   ///< what it is
    std::uint32_t index; ///< into devices(), pci() or the objects, by `kind`
    bool operator==(const InterconnectEndpoint&) const = default; ///< same endpoint
};

/// One of hwloc's matrices over a machine's endpoints, in hwloc's order (the
/// GPUs first, then NVSwitches and CPU ports).
struct Interconnect {
    InterconnectKind kind;                       ///< which matrix
    std::vector<InterconnectEndpoint> endpoints; ///< its rows and columns, no endpoint twice
    /// hwloc's values, row-major: values[i * endpoints.size() + j] from
    /// endpoint i to endpoint j (hwloc's diagonal kept as it was, 0 or its
    /// artificial 1000000).
    std::vector<std::uint64_t> values;
    /// NVLinkBandwidth only: the bandwidth hwloc counted for one NVLink link
    /// of these GPUs (20000, 25000 or 50000 MB/s; gpu-nodes.md says how it is
    /// chosen); 0 for the other kinds.
    std::uint64_t link_mbps = 0;
    /// The value from endpoint i to endpoint j. Precondition: i, j in range.
    std::uint64_t value(std::size_t i, std::size_t j) const {
        return values[i * endpoints.size() + j];
    }
    bool operator==(const Interconnect&) const = default; ///< all fields equal
};

} // namespace nettopo
