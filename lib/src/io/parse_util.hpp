// Number parsing shared by the readers: whole-token, locale-independent.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nettopo::detail {

inline std::optional<double> parse_double(std::string_view s) {
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v + 0.0; // "-0" is 0: one zero, one way to print it
}

inline std::optional<std::uint64_t> parse_uint(std::string_view s) {
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

// "dir/lab.topo" -> "lab": the default name of whatever a file describes.
inline std::string file_stem(std::string_view path) {
    std::string_view s = path.substr(path.find_last_of('/') + 1);
    if (const auto dot = s.rfind('.'); dot != std::string_view::npos && dot > 0)
        s = s.substr(0, dot);
    return std::string(s);
}

// Splits on blanks (spaces, tabs, carriage returns).
template <class F> void for_each_token(std::string_view line, F&& f) {
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
        if (j > i) f(line.substr(i, j - i));
        i = j;
    }
}

} // namespace nettopo::detail
