// hwloc 3's XML exports (<topology version="3.0">) in the 2.x form, for an
// hwloc that reads 2.x only: Debian 12's hwloc 2.9 refuses them ("cannot
// import XML version 3.0 > 2"). The conversion is the one hwloc 3's own v2
// export makes (HWLOC_TOPOLOGY_EXPORT_XML_FLAG_V2, hwloc/topology-xml.c),
// made on the text instead of a loaded topology, so that hwloc 2.9 reads what
// hwloc 3 would have written for it. What is converted and what is left out,
// and why: share/doc/hwloc3-exports.md.
#pragma once

#include <pugixml.hpp>
#include <string>
#include <string_view>

namespace nettopo::detail {

// The 2.x text of `doc`, an hwloc 3.x export that parse_xml read from
// `buffer`, as hwloc writes one (indented, <?xml?> and DOCTYPE lines): 3.0
// attributes in their 2.x form (OS device types, distance kinds, cache
// inclusiveness as an info), the topology's infos, memory tiers and page
// sizes where 2.x keeps them, what 2.x cannot hold (pci_locality, ids) left
// out. Throws InputError(source, line, ...) on an element a 3.0 export does
// not hold where it stands, whose meaning the conversion cannot know, and on
// a malformed element it consumes rather than passes to hwloc (memtier,
// pci_locality); the message says how to re-export (reexport_as_v2). Never
// recurses with the file's depth. O(size of the document); thread-safe.
std::string hwloc3_to_v2(const pugi::xml_document& doc, std::string_view buffer,
                         const std::string& source);

// How to get an export nettopo's hwloc reads from an hwloc that writes a
// newer format: its v2 XML flag. The end of the messages that refuse one.
std::string reexport_as_v2();

} // namespace nettopo::detail
