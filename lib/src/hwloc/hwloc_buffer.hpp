// hwloc XML already in memory (input.cpp reads every input once, then
// recognises its kind).
#pragma once

#include "nettopo/hwloc/hwloc_source.hpp"

#include <string>
#include <string_view>

namespace nettopo::detail {

HwlocMachine load_hwloc_xml_buffer(std::string_view buffer, const std::string& source_name);

} // namespace nettopo::detail
