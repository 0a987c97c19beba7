// hwloc XML already in memory (load.cpp reads every input once, then
// recognises its kind; host_exports.cpp parses each file once).
#pragma once

#include "nettopo/hwloc/hwloc_source.hpp"

#include <pugixml.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo::detail {

// The text hwloc is to read for an export that parse_xml read from `buffer`
// into `doc`: empty when it is `buffer` itself, else the 2.x conversion
// (hwloc3_to_v2.hpp) of an hwloc 3 export the hwloc this process runs with
// cannot read (hwloc_reads). Throws InputError(source, line, ...) for an
// export of a newer format (4.0 and later) naming its version, the hwloc
// nettopo runs with and how to re-export it, and for what the conversion
// refuses.
std::string converted_for_hwloc(const pugi::xml_document& doc, std::string_view buffer,
                                const std::string& source);

// hwloc's part of loading an export, run through `sandbox` if given. The
// caller has parsed the file with parse_xml, passed it through
// refuse_known_hwloc_crashes (hwloc_xml_check.hpp), and gives as `buffer`
// the text converted_for_hwloc chose. Throws InputError naming
// `source_name`, saying which PUs hwloc dropped when it kept fewer than the
// `declared` ones (declared_pus, check_kept_pus).
HwlocMachine load_checked_hwloc_xml(std::string_view buffer, const std::string& source_name,
                                    const HwlocSandbox* sandbox, PuScope scope,
                                    const std::vector<std::uint32_t>& declared);

} // namespace nettopo::detail
