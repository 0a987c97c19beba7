// hwloc XML already in memory (load.cpp reads every input once, then
// recognises its kind; host_exports.cpp parses each file once).
#pragma once

#include "nettopo/hwloc/hwloc_source.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace nettopo::detail {

// hwloc's part of loading an export, run through `sandbox` if given. The
// caller has parsed `buffer` with parse_xml and passed it through
// refuse_known_hwloc_crashes (hwloc_xml_check.hpp). Throws InputError naming
// `source_name`, saying which PUs hwloc dropped when it kept fewer than the
// `declared` ones (declared_pus, check_kept_pus).
HwlocMachine load_checked_hwloc_xml(std::string_view buffer, const std::string& source_name,
                                    const HwlocSandbox* sandbox, PuScope scope,
                                    const std::vector<std::uint32_t>& declared);

} // namespace nettopo::detail
