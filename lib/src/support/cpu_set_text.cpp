#include "nettopo/support/cpu_set_text.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <vector>

namespace nettopo {

namespace {
std::vector<std::uint32_t> sorted_set(std::span<const std::uint32_t> os_indexes) {
    std::vector<std::uint32_t> s(os_indexes.begin(), os_indexes.end());
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    return s;
}
} // namespace

std::string format_cpu_list(std::span<const std::uint32_t> os_indexes) {
    const auto s = sorted_set(os_indexes);
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        std::size_t j = i;
        while (j + 1 < s.size() && s[j + 1] == s[j] + 1) ++j;
        if (!out.empty()) out += ',';
        out += j == i ? fmt::format("{}", s[i]) : fmt::format("{}-{}", s[i], s[j]);
        i = j + 1;
    }
    return out;
}

std::string format_cpu_mask(std::span<const std::uint32_t> os_indexes) {
    const auto s = sorted_set(os_indexes);
    if (s.empty()) return "0x0";
    std::vector<std::uint32_t> groups(s.back() / 32 + 1, 0);
    for (std::uint32_t i : s) groups[i / 32] |= std::uint32_t{1} << (i % 32);
    std::string out;
    for (std::size_t g = groups.size(); g-- > 0;) {
        if (g + 1 != groups.size()) out += ',';
        if (groups[g] != 0)
            out += fmt::format("0x{:08x}", groups[g]);
        else if (g == 0)
            out += "0x0"; // hwloc marks a zero lowest group so the mask never ends in ','
    }
    return out;
}

} // namespace nettopo
