// The checks nettopo adds around hwloc's XML reader, shared by every path that
// loads a user's hwloc export (load_hwloc_xml, load_cluster, the host
// exports): hwloc's parser only says "failed", it silently drops PUs whose
// cpusets contradict, and hwloc 2.9 crashes on some incomplete exports.
#pragma once

#include "nettopo/support/error.hpp"
#include "nettopo/tree/machine_tree.hpp"

#include <cstddef>
#include <cstdint>
#include <hwloc.h>
#include <pugixml.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo::detail {

// Parses `buffer` into `doc`. Throws InputError(source, line, "malformed XML: ...").
void parse_xml(pugi::xml_document& doc, std::string_view buffer, const std::string& source);

// The line of `buffer` that `node` (of a document parse_xml read from it)
// starts on; 0 when unknown.
std::size_t line_of(std::string_view buffer, pugi::xml_node node);

// The format version of an export as hwloc reads <topology version="M.m">:
// "%u.%u", anything else 1.0 (hwloc 1.x wrote no version).
struct HwlocXmlVersion {
    unsigned major = 1;
    unsigned minor = 0;
};
HwlocXmlVersion hwloc_xml_version(pugi::xml_node topology);

// Whether the hwloc release `runtime` ("2.9.0", hwloc_runtime_version())
// reads exports of format `file` itself: 1.x and 2.x ones always (hwloc 2
// reads both), 3.0 from 2.10 on (not 3.1: "cannot import XML version 3.1 >
// 3.0"), every 3.x from 3.0 on. False when `runtime` does not read as a
// release.
bool hwloc_reads(std::string_view runtime, HwlocXmlVersion file);

// The OS indexes of the PU objects an hwloc export declares, in document
// order (unknown_os_index where a PU has none).
std::vector<std::uint32_t> declared_pus(const pugi::xml_document& doc);

// Throws InputError(source, line, ...) on an export (version 2 or later; an
// hwloc 3 one is read as its conversion to 2.x) hwloc 2.9 is known to
// crash on (dereferencing NULL, as lstopo does), before hwloc sees it. `doc`
// was parsed from `buffer` (for the line). Every such file is refused, and
// only such files: see the rules in hwloc_xml_check.cpp.
void refuse_known_hwloc_crashes(const pugi::xml_document& doc, std::string_view buffer,
                                const std::string& source);

// Throws InputError naming `source` when hwloc kept fewer (or more) PUs
// than the export declares, naming the PUs it dropped: a machine silently
// missing PUs is worse than an error. Checked on the loaded `topology`,
// before nettopo converts it (a Core left without its PU would be refused
// for that, which says less). An export restricted to some PUs
// (allowed_cpuset) is not inconsistent: `topology` was loaded whole
// (make_topology(whole_machine)), whatever is modelled.
void check_kept_pus(hwloc_topology_t topology, const std::vector<std::uint32_t>& declared,
                    const std::string& source);

// The error for an export hwloc refused to load from `buffer`: when one of
// its distance matrices (<distances2>, <distances2hetero>) is malformed as
// hwloc's reader would refuse it (a missing attribute, an unknown type, a
// length that is not its text's, fewer or more indexes or values than
// nbobjs says), the message says which and its line; else hwloc's bare
// refusal, line 0.
InputError hwloc_refusal(std::string_view buffer, const std::string& source);

// Throws InputError(source, line, ...) when `hostname`, the HostName an
// export loaded from `buffer` gives, breaks the rule of names
// (support/detail/name_rules.hpp); the line is that of the HostName info.
void check_hostname(std::string_view hostname, std::string_view buffer, const std::string& source);

// Throws InputError(source, line, ...) for a distance matrix of an hwloc 2.x
// export (<distances2>, <distances2hetero>) whose counts do not match or
// that names an object the export does not hold (hwloc_distances_check.cpp).
void check_distance_matrices(const pugi::xml_document& doc, std::string_view buffer,
                             const std::string& source);

// Both checks above, as every path that gives a user's export to hwloc runs them.
void check_export_before_hwloc(const pugi::xml_document& doc, std::string_view buffer,
                               const std::string& source);

} // namespace nettopo::detail
