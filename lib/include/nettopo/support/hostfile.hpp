/// \file
/// Host files as job launchers write and read them: one host a line, as
/// mpirun's --hostfile and $PBS_NODEFILE hold them. Open MPI's lines
/// ("node01 slots=4 max_slots=8") keep their first word; '#' starts a
/// comment; blank lines are skipped. PBS_NODEFILE names a host once per
/// slot: a host named again is dropped, so the result is the hosts in the
/// order of their first line.
/// \cost O(n log n) for n lines or names (a stable sort, no hash); every
/// call throws std::bad_alloc besides what it says.
/// \threads Safe from several threads at once, each with its own stream
/// (the readers consume `in`).
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace nettopo {

/// A host of a host file and the line that first names it (from 1).
struct HostfileHost {
    std::string name;     ///< the host name
    std::size_t line = 0; ///< the line that first names it
    /// Same name on the same line.
    bool operator==(const HostfileHost&) const = default;
};

/// InputError naming `source` and the line for a line whose first word is
/// not a host name (a word with '=' in it). Empty when the file names no host.
std::vector<HostfileHost> read_hostfile_lines(std::istream& in, const std::string& source);
/// The same, the names alone.
std::vector<std::string> read_hostfile(std::istream& in, const std::string& source);

/// Keeps the first occurrence of each name, in order (O(n log n)). Throws
/// only std::bad_alloc.
std::vector<std::string> first_occurrences(std::vector<std::string> names);
/// The positions of those first occurrences, in order (O(n log n)). Throws
/// only std::bad_alloc.
std::vector<std::size_t> first_positions(const std::vector<std::string>& names);

} // namespace nettopo
