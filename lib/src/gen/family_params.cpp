// Text forms of family parameters and the thesis presets.
#include "family_limits.hpp"
#include "nettopo/family.hpp"

#include <charconv>

namespace nettopo {
namespace {

// Splits on `sep` and reads each part as a positive integer.
std::vector<std::uint32_t> read_list(std::string_view text, char sep, std::string_view what,
                                     std::string_view whole) {
    std::vector<std::uint32_t> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = std::min(text.find(sep, start), text.size());
        const std::string_view part = text.substr(start, end - start);
        std::uint32_t v = 0;
        const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || ec != std::errc{} || ptr != part.data() + part.size())
            throw UsageError(
                fmt::format("{} '{}': '{}' is not a size (a whole number)", what, whole, part));
        if (v == 0) throw UsageError(fmt::format("{} '{}': a size of 0", what, whole));
        out.push_back(v);
        if (end == text.size()) return out;
        start = end + 1;
    }
}

} // namespace

std::vector<std::uint32_t> parse_dims(std::string_view text) {
    return read_list(text, 'x', "--dims", text);
}

XgftParams parse_xgft(std::string_view text) {
    const std::size_t s1 = text.find(';'), s2 = text.find(';', s1 + 1);
    if (s1 == std::string_view::npos || s2 == std::string_view::npos ||
        text.find(';', s2 + 1) != std::string_view::npos)
        throw UsageError(
            fmt::format("--xgft '{}': expected \"h;m1,..,mh;w1,..,wh\", e.g. \"2;4,4;1,4\"", text));
    const auto h = read_list(text.substr(0, s1), ',', "--xgft", text);
    XgftParams p{read_list(text.substr(s1 + 1, s2 - s1 - 1), ',', "--xgft", text),
                 read_list(text.substr(s2 + 1), ',', "--xgft", text)};
    if (h.size() != 1 || p.m.size() != h[0] || p.w.size() != h[0])
        throw UsageError(fmt::format("--xgft '{}': h = {} levels, so give h child counts m and h "
                                     "parent counts w (got {} and {})",
                                     text, text.substr(0, s1), p.m.size(), p.w.size()));
    return p;
}

std::unique_ptr<Family> make_preset(std::string_view name) {
    if (name == "tree-M") return make_binary_tree(7);
    if (name == "mesh2D") return make_mesh({16, 16});
    if (name == "mesh3D") return make_mesh({8, 8, 8});
    if (name == "tree-G") return make_binary_tree(10);
    throw UsageError(fmt::format("unknown preset '{}' (known: {})", name, preset_names));
}

} // namespace nettopo
