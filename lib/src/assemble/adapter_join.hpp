// Joins a host's adapters as the fabric sees them (FabricAdapter: GUID,
// device name from its description, cabled ports) with the adapters of its
// hwloc export (OpenFabrics devices with their NodeGUID identities): by
// GUID when the export has it, else by device name (mlx5_3 and HCA-4 are
// one adapter, adapter_index). The result is the host's attachments, named
// as its export names them where it has them, and what did not join.
#pragma once

#include "nettopo/fabric/fabric.hpp"
#include "nettopo/tree/io_devices.hpp"
#include "nettopo/tree/machine_tree.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace nettopo::detail {

// One cabled port; `peer` is a fabric node index.
struct JoinedCable {
    std::string device;
    std::uint64_t guid = 0;
    std::uint32_t port = 0;
    std::uint32_t peer = 0;
};

struct AdapterJoin {
    std::vector<JoinedCable> cables;    // by adapter index, device name, port
    std::vector<std::string> unmatched; // fabric adapters no export adapter matched
    std::vector<std::string> uncabled;  // export adapters no fabric adapter matched
};

// `adapters`: the host's, as indexes into fabric.adapters. `tree` null for
// a host without an export (its adapters are the fabric's, nothing to
// report); an export with no OpenFabrics device kept no I/O: nothing is
// reported for it either. Names in the lists are "host:device".
AdapterJoin join_adapters(const Fabric& fabric, std::span<const std::uint32_t> adapters,
                          std::string_view host, const MachineTree* tree,
                          std::span<const DeviceIdentity> identities);

// "043f:7203:00ae:a282" (hwloc's NodeGUID) or "0x043f720300aea282": the
// GUID; nullopt for anything else.
std::optional<std::uint64_t> parse_guid(std::string_view text);

} // namespace nettopo::detail
