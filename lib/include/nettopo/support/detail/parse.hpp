// Parsing shared by the readers and the tools: whole-token, locale-independent
// numbers, tokens, file names, and the natural order of names ("n2" < "n10").
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nettopo {

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

// 1 to 16 hexadecimal digits, no prefix: a GUID's digits.
inline std::optional<std::uint64_t> parse_hex(std::string_view s) {
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (s.empty() || s.size() > 16 || ec != std::errc() || p != s.data() + s.size())
        return std::nullopt;
    return v;
}

// "dir/lab.topo" -> "lab": the default name of whatever a file describes.
inline std::string_view file_name(std::string_view path) {
    return path.substr(path.find_last_of('/') + 1);
}

// How a machine type loaded from an hwloc export names its source.
inline std::string hwloc_type_description(std::string_view path) {
    return "hwloc:" + std::string(file_name(path));
}

inline std::string file_stem(std::string_view path) {
    std::string_view s = file_name(path);
    if (const auto dot = s.rfind('.'); dot != std::string_view::npos && dot > 0)
        s = s.substr(0, dot);
    return std::string(s);
}

// Equal but for the case of ASCII letters (Slurm's keys, "SwitchName").
inline bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
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

// Natural order: runs of digits compare as numbers ("node2" < "node10"); ties
// (equal numbers written differently) fall back to byte order, so it is a
// total order. One order for every list of host names nettopo sorts.
inline int natural_compare(std::string_view a, std::string_view b) {
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && digit(a[ie])) ++ie;
            while (je < b.size() && digit(b[je])) ++je;
            std::size_t iz = i, jz = j;
            while (iz + 1 < ie && a[iz] == '0') ++iz;
            while (jz + 1 < je && b[jz] == '0') ++jz;
            if (ie - iz != je - jz) return ie - iz < je - jz ? -1 : 1;
            if (const int c = a.substr(iz, ie - iz).compare(b.substr(jz, je - jz)); c != 0)
                return c < 0 ? -1 : 1;
            i = ie;
            j = je;
            continue;
        }
        if (a[i] != b[j])
            return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]) ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < a.size()) return 1;
    if (j < b.size()) return -1;
    const int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

inline bool natural_less(std::string_view a, std::string_view b) {
    return natural_compare(a, b) < 0;
}

// The whole of a file ("-": standard input), with a clear InputError when it
// cannot be read (missing, a directory, a read error).
std::string read_all(const std::string& path);

} // namespace nettopo
