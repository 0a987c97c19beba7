// The CPU kinds' section of a tree's signature (MachineTree::signature),
// "|k:" followed by one entry per kind:
//
//     EFFICIENCY/PUS/NAME:VALUE,NAME:VALUE;
//
// EFFICIENCY a decimal integer (-1: unknown), PUS the kind's logical PUs as
// a CPU list ("0-3,8"), then its infos in order (none: an empty field).
// Names and values are percent-encoded (%HH) wherever a byte could end a
// field or a section ('|' ',' ';' '%' ':' '/') or is not printable ASCII,
// so the section holds no '|' and reads back byte for byte.
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <string>
#include <string_view>

namespace nettopo::detail {

// "|k:..." for a tree with CPU kinds, empty for one without (whose
// signature then stays what it was before kinds existed).
std::string cpu_kinds_section(const MachineTree& tree);

// Reads a section's payload (the text after "k:") into `builder`, whose PUs
// are all added. Throws InputError when it is not such a payload, or as
// Builder::add_cpu_kind throws.
void read_cpu_kinds_section(MachineTree::Builder& builder, std::string_view payload);

} // namespace nettopo::detail
