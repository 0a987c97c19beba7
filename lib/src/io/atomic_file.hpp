// Writes a file so that readers see either the old content or the complete new
// one: write a temporary file in the same directory, flush it to disk, rename.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace nettopo::detail {

// "-" writes to standard output. Throws Error (nothing left behind) on failure.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

} // namespace nettopo::detail
