/// \file
/// A set of CPUs (PU OS indexes) written as the binding tools read it:
/// a list "0-3,8" (taskset -c, numactl -C, hwloc-bind --cpuset-list style
/// of hwloc-calc --po), or hwloc's hex mask "0x000000ff" (hwloc-calc's
/// cpuset output, hwloc-bind's argument).
/// \cost O(n log n) for n indexes (sorted, duplicates folded); the mask also
/// O(highest index / 32); parse_cpu_list O(r log r + n) for r ranges. The
/// formats throw only std::bad_alloc; parse_cpu_list says what it throws.
/// \threads Both are pure functions of their arguments: safe from several
/// threads at once.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// Ascending, duplicates folded, runs of consecutive indexes as "a-b":
/// {8, 0, 1, 2, 3} -> "0-3,8". Empty for an empty set.
std::string format_cpu_list(std::span<const std::uint32_t> os_indexes);

/// The inverse of format_cpu_list: "0-3,8" -> {0, 1, 2, 3, 8}, ascending,
/// duplicates folded (ranges may overlap or come in any order); empty text
/// is the empty set. Every index must be below `bound`. Throws InputError
/// (naming no file) when the text is not such a list ("a-b" with a > b, a
/// sign, a blank, an empty item) or names an index of `bound` or more.
std::vector<std::uint32_t> parse_cpu_list(std::string_view text, std::uint32_t bound);

/// hwloc_bitmap_snprintf's format: 32-bit groups from the highest non-zero
/// one down to bit 0, each "0x%08x", a zero group below the highest written
/// as nothing between its commas ({0, 64} -> "0x00000001,,0x00000001")
/// except the lowest, written "0x0" ({32} -> "0x00000001,0x0"); "0x0" for an
/// empty set.
std::string format_cpu_mask(std::span<const std::uint32_t> os_indexes);

} // namespace nettopo
