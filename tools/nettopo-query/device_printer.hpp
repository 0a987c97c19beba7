// `nettopo-query devices [MACHINE]`: one line per device of the machines
// (share/doc/gpu-nodes.md), as text or one JSON object per line
// (share/schema/query-devices.schema.json).
#pragma once

#include "nettopo-query/pe_naming.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/query/query_engine.hpp"

#include <optional>
#include <ostream>
#include <span>
#include <string_view>

namespace nettopo {

void print_devices(const PeNaming& naming, std::span<const MachineId> machines, bool json,
                   std::ostream& out);

// `nearest DEVICE K`: as nearest prints PEs ("PE LATENCY" lines), JSON naming
// the device instead of a PE.
void print_nearest_to_device(const PeNaming& naming, MachineDevice d, std::uint32_t k,
                             std::span<const NearPe> found, bool json, std::ostream& out);

// `nearest-device PE [--kind K]`: "NAME KIND LATENCY" lines, nearest first.
void print_nearest_devices(const PeNaming& naming, PeId pe, std::optional<DeviceKind> kind,
                           std::span<const NearDevice> found, bool json, std::ostream& out);

// `device-matrix [MACHINE]`: for each machine, nvidia-smi topo -m's table
// of its GPUs and adapters with their CPU and NUMA affinity, or one JSON
// object per machine.
void print_device_matrix(const PeNaming& naming, std::span<const MachineId> machines, bool json,
                         std::ostream& out);

// The one device `text` names (gpu2, HOST:mlx5_0; find_device), nullopt when it
// names none or is a PE index (digits); UsageError when a bare name names
// devices of several machines.
std::optional<MachineDevice> one_device(const Cluster& cluster, std::string_view text);

} // namespace nettopo
