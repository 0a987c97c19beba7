/// \file
/// The nettopo XML archive (format: share/doc/archive-format.md, schema:
/// share/schema/nettopo-archive.xsd). Deterministic, compact (types stored once,
/// runs of machines stored as name ranges, links as one flat list whose lines
/// leave out the fields that repeat the line above) and exact.
///
/// \threads Every call here may be made from several threads at once, on
/// distinct streams and files.
/// \cost Each call is O(the archive's size) and throws std::bad_alloc
/// besides what it says (and what a Progress given throws).
#pragma once

#include "nettopo/formats/load.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/model/progress.hpp"

#include <istream>
#include <ostream>
#include <string>

namespace nettopo {

/// The newest version. Readers read every version from 1 up to this one.
/// 2: link lines may leave out trailing fields that repeat the previous line's.
/// 3: machines may say forwards="no" (end hosts, which carry no traffic).
/// 4: a machine type may carry the machine's NUMA distances (<numa-distances>)
///    and its CPU kinds (<cpu-kinds>).
/// 5: machines' adapters and where each is cabled (`<attachments>`).
/// The writer writes the oldest version that holds the cluster: 2 when every
/// machine forwards and no type has NUMA distances or CPU kinds (so such archives are
/// unchanged), else the oldest of 3, 4 and 5 that holds what it has; readers
/// older than it refuse it instead of reading it wrongly.
inline constexpr int archive_version = 5;
/// The version written when every machine forwards.
inline constexpr int archive_version_without_end_hosts = 2;

/// Writes `cluster` as an archive to `out`. Throws Error when the stream fails.
void write_archive(const Cluster& cluster, std::ostream& out, Progress* progress = nullptr);
/// Writes to a temporary file beside `path` and renames it into place, so a
/// failed or interrupted write never leaves a damaged archive. Throws Error
/// naming the file when it cannot be written.
void save_archive(const Cluster& cluster, const std::string& path, Progress* progress = nullptr);

/// Throws InputError naming source_name on a malformed or newer archive.
Cluster read_archive(std::istream& in, const std::string& source_name,
                     Progress* progress = nullptr);
/// The same, held to options.build.limits (limits.hpp) and told progress
/// through options.progress: a program reading archives it did not write
/// can lower the limits below the defaults.
Cluster read_archive(std::istream& in, const std::string& source_name, const LoadOptions& options);

} // namespace nettopo
