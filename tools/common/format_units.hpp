// Quantities as people read them in the tools' tables: three significant
// digits and the unit that keeps the number below a thousand.
#pragma once

#include <string>

namespace nettopo {

// "12.3 ns", "4.56 µs", "7.89 ms", "1.23 s".
std::string format_duration(double ns);
// "512 B", "1.95 KiB", "3.5 MiB", "1.2 GiB", "4 TiB".
std::string format_bytes(double bytes);

} // namespace nettopo
