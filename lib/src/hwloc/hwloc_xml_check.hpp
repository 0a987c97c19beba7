// The checks nettopo adds around hwloc's XML reader, shared by every path that
// loads a user's hwloc export (input.cpp, host_exports.cpp): hwloc's parser
// only says "failed", and it silently drops PUs whose cpusets contradict.
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <cstddef>
#include <pugixml.hpp>
#include <string>
#include <string_view>

namespace nettopo::detail {

// Parses `buffer` into `doc`. Throws InputError(source, line, "malformed XML: ...").
void parse_xml(pugi::xml_document& doc, std::string_view buffer, const std::string& source);

// Number of PU objects an hwloc export declares.
std::size_t declared_pus(const pugi::xml_document& doc);

// Throws InputError naming `source` when hwloc kept fewer (or more) PUs than
// the export declares: a machine silently missing PUs is worse than an error.
void check_kept_pus(const MachineTree& tree, std::size_t declared, const std::string& source);

} // namespace nettopo::detail
