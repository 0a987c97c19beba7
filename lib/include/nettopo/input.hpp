// Loads a cluster from whatever the user points at, recognised by content:
// a nettopo archive, a text description, or an hwloc XML export of one machine.
#pragma once

#include "nettopo/cluster.hpp"
#include "nettopo/description.hpp"

#include <string>

namespace nettopo {

enum class InputKind { Archive, Description, HwlocXml };

// Throws InputError if the file cannot be read.
InputKind detect_input_kind(const std::string& path);
const char* to_string(InputKind kind);

Cluster load_cluster(const std::string& path, const LoadOptions& options = {});
// This machine through hwloc, as a one-machine cluster.
Cluster discover_cluster(const LoadOptions& options = {});

} // namespace nettopo
