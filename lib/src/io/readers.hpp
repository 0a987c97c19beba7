// Readers working on a whole input already in memory (input.cpp reads files
// and standard input once, recognises the kind, then calls one of these).
#pragma once

#include "nettopo/cluster.hpp"
#include "nettopo/description.hpp"
#include "nettopo/hwloc_source.hpp"

#include <string>
#include <string_view>

namespace nettopo::detail {

Cluster read_archive_buffer(std::string_view buffer, const std::string& source_name,
                            Progress* progress = nullptr);
HwlocMachine load_hwloc_xml_buffer(std::string_view buffer, const std::string& source_name);

} // namespace nettopo::detail
