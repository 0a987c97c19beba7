#include "nettopo/support/cpu_set_text.hpp"

#include "nettopo/support/error.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <utility>
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

std::vector<std::uint32_t> parse_cpu_list(std::string_view text, std::uint32_t bound) {
    // Ranges first, merged once sorted: the output is the union, whatever
    // the text repeats (a list of the same wide range a thousand times costs
    // its length, not a thousand ranges' worth of indexes).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
    const auto bad = [&](std::string_view why) {
        return InputError(fmt::format("'{}' is not a list of indexes such as 0-3,8 ({})",
                                      text.substr(0, std::min<std::size_t>(text.size(), 32)), why));
    };
    const char* p = text.data();
    const char* const end = p + text.size();
    const auto number = [&]() {
        std::uint32_t v = 0;
        const auto [next, ec] = std::from_chars(p, end, v);
        if (ec == std::errc::result_out_of_range || (ec == std::errc() && v >= bound))
            throw InputError(bound == 0 ? fmt::format("'{}' names an index, but there is none",
                                                      text.substr(0, 32))
                                        : fmt::format("'{}' names an index past the last, {}",
                                                      text.substr(0, 32), bound - 1));
        if (ec != std::errc()) throw bad("a missing or bad number");
        p = next;
        return v;
    };
    while (p != end) {
        const std::uint32_t first = number();
        std::uint32_t last = first;
        if (p != end && *p == '-') {
            ++p;
            last = number();
            if (last < first) throw bad(fmt::format("the range {}-{} runs backwards", first, last));
        }
        ranges.emplace_back(first, last);
        if (p != end) {
            if (*p != ',') throw bad(fmt::format("unexpected '{}'", *p));
            if (++p == end) throw bad("an empty item at the end");
        }
    }
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::uint32_t> out;
    for (const auto& [first, last] : ranges) {
        std::uint32_t from = first;
        if (!out.empty()) {
            if (last <= out.back()) continue;
            from = std::max(from, out.back() + 1);
        }
        for (std::uint64_t i = from; i <= last; ++i) out.push_back(static_cast<std::uint32_t>(i));
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
