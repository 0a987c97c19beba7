/// \file
/// Slurm hostlist expressions: "tux[0-3,12,18-20]", "node[01-04]" (zero
/// padding kept), "a,b,rack[1-2]n[1-2]" (several bracket groups expand as a
/// product, leftmost varying slowest, as Slurm does).
/// \cost Expanding and compressing are linear in the names (count_hostlist:
/// in the expression's length, whatever it expands to). Every call throws
/// std::bad_alloc besides what it says.
/// \threads Pure functions of their arguments: safe from several threads at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// UsageError-free: throws InputError (no location) on a malformed expression;
/// readers add the file and line.
std::vector<std::string> expand_hostlist(std::string_view expression);

/// How many names expand_hostlist(expression) gives (saturated at 2^64 - 1),
/// without expanding them: what a reader holds to a per-file limit before
/// the work (limits.hpp). InputError on a malformed expression, as expand.
std::uint64_t count_hostlist(std::string_view expression);

/// The shortest usual expression for these names, in their order: runs of
/// consecutive numbers with one prefix and padding folded into ranges.
/// expand_hostlist(compress_hostlist(names)) == names. InputError (no
/// location) for a name no hostlist can hold: empty, or with '[', ']', ','
/// or a blank.
std::string compress_hostlist(const std::vector<std::string>& names);

/// For messages about many hosts: the first `shown` names as one expression
/// (a plain comma-separated list when a name cannot be written in one), and
/// " and N more" for the rest: "node[001-010],fh1 and 4 more". Never throws
/// InputError.
std::string hostlist_excerpt(const std::vector<std::string>& names, std::size_t shown = 8);

} // namespace nettopo
