// Writes a file so that readers see either the old content or the complete new
// one, and so that an interrupted write leaves nothing behind: the content goes
// to an unnamed file in the target's directory (O_TMPFILE), flushed to disk,
// given a temporary name and renamed over the target.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace nettopo {

// Replaces the file at `path` with what `fill` writes. `fill` is given the
// name of the file to write the whole content into and throws Error if it
// cannot; it may be run in a child process (the name stays valid there).
//
// For a regular file or a new one, that file is a temporary one in the
// target's directory: an unnamed file (O_TMPFILE), given the name
// "<target>.tmp.XXXXXX" only for the instant between its link into the
// directory and its rename over the target, or, where the filesystem has no
// unnamed files (NFS, ...), a file of that name from the start (mkstemp). A
// process killed while it writes thus leaves at most an unnamed file the
// kernel frees, or, on such a filesystem, a named one: a tool's handler of
// SIGTERM and SIGINT removes it (remove_pending_temporaries), and the next
// write of the same target removes any that a killed process left (the
// writer holds a lock on its temporary, flock(2); an unlocked one is stale).
// The temporary is given the replaced file's permissions, or the umask's for
// a new file, once `fill` is done, flushed to disk and renamed.
//
// For a device or a FIFO (/dev/null, a named pipe), `fill` writes `path`
// itself, in place. A symbolic link keeps pointing where it did and its target
// is replaced. A directory is refused. Throws Error (no temporary file left
// behind) on failure. "-" is not special here.
void replace_file_atomically(const std::string& path,
                             const std::function<void(const std::string& file)>& fill);

// replace_file_atomically() with the content written to a stream; "-" is a
// file name like any other (the tools map it to standard output). Throws
// Error (nothing left behind) on failure.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

// Removes the named temporary files of the writes this process has under way,
// for a tool's handler of a terminating signal, which then lets the signal
// kill the process. Async-signal-safe: it reads a fixed table of names (of
// atomic flags and character arrays, no allocation) and calls unlink(2). The
// table is the library's one piece of process-wide state: a signal handler
// has no other way to learn the names. A write interrupted this way fails
// if the process goes on.
void remove_pending_temporaries() noexcept;

} // namespace nettopo
