// What `draw` shows in colour: --highlight as the user wrote it, read in the
// job's terms, or without it the job's allocation itself.
#pragma once

#include "common/dot_writer.hpp"
#include "nettopo-query/query_run.hpp"

#include <optional>

namespace nettopo {

// --highlight's path:A,B reads A and B as every sub-command reads PEs
// (allocation ids with --nodes/--hostfile/--job, HOST:OS with -p) or as
// machine names; a hostlist names machines. Without --highlight, a job view
// highlights its machines; else nothing is highlighted.
std::optional<DotHighlight> draw_highlight(const Run& r);

} // namespace nettopo
