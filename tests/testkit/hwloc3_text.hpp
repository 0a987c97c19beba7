// hwloc 3.0 exports for the tests of their conversion (hwloc/hwloc3_to_v2.hpp):
// the conversion of a text or a file, and hwloc's own reading of a 2.x text.
#pragma once

#include "hwloc/hwloc3_to_v2.hpp"
#include "hwloc/hwloc_convert.hpp"
#include "hwloc/hwloc_xml_check.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <hwloc.h>
#include <pugixml.hpp>
#include <string>

namespace nettopo::test {

// The 2.x text of the 3.0 export `text`, read from `source`.
inline std::string converted_text(const std::string& text, const std::string& source = "t.xml") {
    pugi::xml_document doc;
    detail::parse_xml(doc, text, source);
    return detail::hwloc3_to_v2(doc, text, source);
}
inline std::string converted_file(const std::string& path) {
    return converted_text(read_file(path), path);
}

// hwloc's reading of a 2.x text: the whole machine (disallowed PUs too), I/O
// objects kept.
inline detail::Topology hwloc_read(const std::string& v2) {
    hwloc_topology_t t = nullptr;
    REQUIRE(hwloc_topology_init(&t) == 0);
    detail::Topology topo(t);
    REQUIRE(hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL) == 0);
    REQUIRE(hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) == 0);
    REQUIRE(hwloc_topology_set_xmlbuffer(t, v2.c_str(), static_cast<int>(v2.size() + 1)) == 0);
    REQUIRE(hwloc_topology_load(t) == 0);
    return topo;
}

} // namespace nettopo::test
