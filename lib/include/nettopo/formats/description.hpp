/// \file
/// The text description of a cluster, one statement per line, '#' comments:
///
/// \code{.unparsed}
///   name     <cluster name>
///   machine  <name> <hwloc synthetic description> [node=<type>] [lat.<type>=<ns>]...
///   machines <prefix>[<a>-<b>] <synthetic description> [options as for machine]
///   switch   <name>
///   link     <endpoint> <endpoint> <latency-ns> [bandwidth=<Gbit/s>] [count=<n>]
/// \endcode
///
/// See share/doc/description-format.md for the full grammar.
///
/// \threads Every call here may be made from several threads at once, on
/// distinct streams and files (hwloc runs in the calling thread unless a
/// sandbox is given, which must then allow it).
/// \cost Each call is O(the description's size, with runs of machines
/// expanded), plus hwloc's build of each machine type, and throws
/// std::bad_alloc besides what it says (and what a Progress given throws).
#pragma once

#include "nettopo/formats/load.hpp"

#include <istream>
#include <ostream>
#include <string>

namespace nettopo {

/// Reads a description. Errors are InputError with source_name and the line.
Cluster read_description(std::istream& in, const std::string& source_name,
                         const LoadOptions& options = {});

/// Writes the cluster as a description that read_description reads back to an
/// equal cluster: the same name, machines (in runs `prefix[a-b]` where names
/// are consecutive and of one type), types, switches and links, every number
/// exact. Types are numbered anew in order of first use. Throws UsageError,
/// before writing anything, for what the format cannot hold: a machine type
/// that is not an hwloc synthetic description (one loaded from hwloc XML:
/// write an archive instead), a name that is not a single token, a cluster
/// name that would not read back the same. Reports progress on the links.
/// hwloc builds each type's synthetic description again to check it: in the
/// calling thread, or through `hwloc_sandbox` if given (hwloc_sandbox.hpp).
void write_description(const Cluster& cluster, std::ostream& out, Progress* progress = nullptr,
                       const HwlocSandbox* hwloc_sandbox = nullptr);

/// write_description to a file, atomically as save_archive (Error naming the
/// file when it cannot be written).
void save_description(const Cluster& cluster, const std::string& path, Progress* progress = nullptr,
                      const HwlocSandbox* hwloc_sandbox = nullptr);

} // namespace nettopo
