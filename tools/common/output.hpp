// Where a tool's output option points: "-" is standard output (flushed and
// checked, so a closed pipe or a full disk is an error), anything else a file
// replaced atomically (nettopo/support/detail/atomic_file.hpp).
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace nettopo {

void write_output(const std::string& path, const std::function<void(std::ostream&)>& write);

} // namespace nettopo
