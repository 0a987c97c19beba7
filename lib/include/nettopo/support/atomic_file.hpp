// Writes a file so that readers see either the old content or the complete new
// one: write a temporary file in the same directory, flush it to disk, rename.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace nettopo {

// Replaces the file at `path` with what `fill` writes. `fill` is given the
// file to write the whole content into and throws Error if it cannot: a
// temporary file beside the target (made 0600 by mkstemp, given the replaced
// file's permissions, or the umask's for a new file, once `fill` is done,
// flushed to disk and renamed over the target) or, for a device or a FIFO (/dev/null, a named
// pipe), `path` itself, written in place. A symbolic link keeps pointing where it did and its
// target is replaced. A directory is refused. Throws Error (no temporary file left behind) on
// failure. "-" is not special here.
void replace_file_atomically(const std::string& path,
                             const std::function<void(const std::string& file)>& fill);

// replace_file_atomically() with the content written to a stream; "-" is a
// file name like any other (the tools map it to standard output). Throws
// Error (nothing left behind) on failure.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

} // namespace nettopo
