// What the Slurm writers share (slurm_writer.cpp: topology/tree,
// slurm_block_writer.cpp: topology/block): the names a topology file can
// hold, YAML scalars that read back as the same string, the first line.
#pragma once

#include <string>
#include <string_view>

namespace nettopo {

// A name topology.conf can carry: one token, no hostlist or comment syntax
// (no blank, control character, '[', ']', ',', '#', '\\' or '"'). Throws
// InputError naming `kind` ("machine", "switch") and the name otherwise.
void check_slurm_name(std::string_view kind, std::string_view name);

// A value topology.yaml reads back as the same string: plain when it is a
// name or hostlist that YAML would not take for a number, a boolean or null,
// else double-quoted (check_slurm_name keeps quotes and backslashes out).
std::string slurm_yaml_value(std::string_view v);

// "# FILE[ (WHAT)] written by nettopo[ from NAME]\n": the cluster's name on one
// line (newlines made blanks).
std::string slurm_header(std::string_view file, std::string_view what, std::string_view name);

} // namespace nettopo
