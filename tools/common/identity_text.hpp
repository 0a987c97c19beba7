// Device identities (tree/io_devices.hpp) as text that crosses a process
// boundary: the hwloc sandbox's child and nettopo-discover --mpi's ranks send
// them this way. "i COUNT\n", then per identity "DEVICE VIEW_LENGTH
// NAME_LENGTH VALUE_LENGTH\n" and the three texts one after the other.
#pragma once

#include "nettopo/tree/io_devices.hpp"

#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace nettopo {

std::string identities_text(const std::vector<DeviceIdentity>& identities);

// Reads what identities_text wrote from `in`; nullopt when it is not that
// (a damaged message). `max_bytes` bounds every length read.
std::optional<std::vector<DeviceIdentity>> read_identities_text(std::istream& in,
                                                                std::size_t max_bytes);

} // namespace nettopo
