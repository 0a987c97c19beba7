// Text shared by the library's messages and writers and by the tools'
// printers, so a number or a count reads the same wherever it appears.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nettopo {

// Shortest text that reads back as the same double ("15", "0.1", "1e+20").
std::string format_number(double v);

// "1 machine", "3 machines", "2 switches": counts in messages read as English.
std::string counted(std::uint64_t n, std::string_view noun);

} // namespace nettopo
