// Readers working on a whole input already in memory (input.cpp reads files
// and standard input once, recognises the kind, then calls one of these).
#pragma once

#include "nettopo/formats/description.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster.hpp"

#include <string>
#include <string_view>

namespace nettopo::detail {

// options.node_level replaces the node level of the types whose level was
// chosen automatically (those with node-request="auto").
// The buffer is parsed in place (its bytes change), not copied.
Cluster read_archive_buffer(std::string buffer, const std::string& source_name,
                            const LoadOptions& options);

} // namespace nettopo::detail
