#include "common/format_units.hpp"

#include <array>
#include <fmt/format.h>

namespace nettopo {

std::string format_duration(double ns) {
    // Thresholds just below the next unit, so 999.7 µs prints as 1 ms, not 1e+03 µs.
    if (ns < 999.5) return fmt::format("{:.3g} ns", ns);
    if (ns < 999.5e3) return fmt::format("{:.3g} µs", ns / 1e3);
    if (ns < 999.5e6) return fmt::format("{:.3g} ms", ns / 1e6);
    return fmt::format("{:.3g} s", ns / 1e9);
}

std::string format_bytes(double bytes) {
    static constexpr std::array<const char*, 5> units{"B", "KiB", "MiB", "GiB", "TiB"};
    std::size_t u = 0;
    // Past 999.5 the three digits would round to 1e+03: the next unit shows it.
    while (bytes >= 999.5 && u + 1 < units.size()) {
        bytes /= 1024;
        ++u;
    }
    return fmt::format("{:.3g} {}", bytes, units[u]);
}

} // namespace nettopo
