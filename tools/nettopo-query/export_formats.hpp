// nettopo-query export: the formats it writes, each a writer of the library.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <ostream>
#include <string>
#include <string_view>

namespace nettopo {

// The names --format accepts, for messages and --help.
inline constexpr std::string_view export_formats =
    "slurm, slurm-yaml, slurm-block, slurm-block-yaml, scotch, synthetic, nccl";

bool is_export_format(std::string_view format);

// Writes the cluster in `format` to `out`. `machine` (synthetic and nccl
// only; else it must be empty) names the machine whose type is written;
// without it the cluster must have one machine type. Throws UsageError for a misused
// --machine, InputError from the writers.
void write_export(const Cluster& cluster, std::string_view format, const std::string& machine,
                  std::ostream& out);

} // namespace nettopo
