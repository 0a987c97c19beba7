// Text forms of family parameters and the thesis presets.
#include "families/family_limits.hpp"
#include "families/spec_words.hpp"
#include "nettopo/families/family.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <utility>

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

// The options of a spec: "--NAME VALUE" or "--NAME=VALUE", each at most once,
// only those the family takes.
class SpecOptions {
public:
    SpecOptions(std::string_view spec, const std::vector<std::string>& words,
                std::initializer_list<std::string_view> known)
        : spec_(spec) {
        for (std::size_t i = 1; i < words.size(); ++i) {
            std::string_view w = words[i];
            if (!w.starts_with("--"))
                throw UsageError(fmt::format("family '{}': '{}' is not an option", spec, w));
            std::string value;
            if (const std::size_t eq = w.find('='); eq != std::string_view::npos) {
                value = w.substr(eq + 1);
                w = w.substr(0, eq);
            } else if (i + 1 < words.size()) {
                value = words[++i];
            } else {
                throw UsageError(fmt::format("family '{}': {} lacks its value", spec, w));
            }
            if (std::find(known.begin(), known.end(), w) == known.end())
                throw UsageError(
                    fmt::format("family '{}': {} has no option {}", spec, words[0], w));
            if (find(w)) throw UsageError(fmt::format("family '{}': {} given twice", spec, w));
            given_.emplace_back(std::string(w), std::move(value));
        }
    }

    const std::string* find(std::string_view name) const {
        for (const auto& [n, v] : given_)
            if (n == name) return &v;
        return nullptr;
    }
    const std::string& text(std::string_view name) const {
        const std::string* v = find(name);
        if (!v) throw UsageError(fmt::format("family '{}': {} is missing", spec_, name));
        return *v;
    }
    // A whole number (0 allowed: the factories judge it), or `fallback`
    // when the option is absent and not required.
    std::uint32_t number(std::string_view name, std::optional<std::uint32_t> fallback = {}) const {
        const std::string* v = find(name);
        if (!v && fallback) return *fallback;
        const std::string& t = v ? *v : text(name);
        std::uint32_t x = 0;
        const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
        if (t.empty() || ec != std::errc{} || ptr != t.data() + t.size())
            throw UsageError(
                fmt::format("family '{}': {} '{}' is not a whole number", spec_, name, t));
        return x;
    }

private:
    std::string_view spec_;
    std::vector<std::pair<std::string, std::string>> given_;
};

} // namespace

std::unique_ptr<Family> family_from_spec(std::string_view spec) {
    const std::vector<std::string> words = detail::spec_words(spec, "family");
    if (words.empty()) throw UsageError("empty family: expected a family and its options");
    const std::string_view name = words[0];
    const auto options = [&](std::initializer_list<std::string_view> known) {
        return SpecOptions(spec, words, known);
    };
    if (name == "fat-tree") {
        const SpecOptions o = options({"--k", "--n", "--xgft"});
        if (const std::string* x = o.find("--xgft")) {
            if (o.find("--k") || o.find("--n"))
                throw UsageError(fmt::format("family '{}': --xgft excludes --k and --n", spec));
            XgftParams p = parse_xgft(*x);
            return make_xgft(std::move(p.m), std::move(p.w));
        }
        return make_fat_tree(o.number("--k"), o.number("--n"));
    }
    if (name == "tree") {
        const SpecOptions o = options({"--levels", "--concentration"});
        return make_binary_tree(o.number("--levels"), o.number("--concentration", 0));
    }
    if (name == "mesh" || name == "torus") {
        const SpecOptions o = options({"--dims", "--concentration"});
        std::vector<std::uint32_t> dims = parse_dims(o.text("--dims"));
        const std::uint32_t c = o.number("--concentration", 0);
        return name == "mesh" ? make_mesh(std::move(dims), c) : make_torus(std::move(dims), c);
    }
    if (name == "hypercube") {
        const SpecOptions o = options({"--dim", "--concentration"});
        return make_hypercube(o.number("--dim"), o.number("--concentration", 0));
    }
    if (name == "dragonfly") {
        const SpecOptions o = options({"--p", "--a", "--h", "--g"});
        return make_dragonfly(o.number("--p"), o.number("--a", 0), o.number("--h", 0),
                              o.number("--g", 0));
    }
    if (name == "butterfly") {
        const SpecOptions o = options({"--k", "--n"});
        return make_butterfly(o.number("--k"), o.number("--n"));
    }
    if (name == "slimfly") {
        const SpecOptions o = options({"--q", "--p"});
        return make_slimfly(o.number("--q"), o.number("--p", 0));
    }
    if (name == "complete" || name == "ring") {
        const SpecOptions o = options({"--machines", "--concentration"});
        const std::uint32_t n = o.number("--machines"), c = o.number("--concentration", 0);
        return name == "complete" ? make_complete(n, c) : make_ring(n, c);
    }
    throw UsageError(fmt::format("family '{}': unknown family '{}' (fat-tree, tree, mesh, torus, "
                                 "hypercube, dragonfly, butterfly, slimfly, complete, ring)",
                                 spec, name));
}

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

namespace detail {

std::vector<std::string> spec_words(std::string_view spec, std::string_view what) {
    std::vector<std::string> words;
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    std::size_t i = 0;
    while (true) {
        while (i < spec.size() && blank(spec[i])) ++i;
        if (i == spec.size()) return words;
        std::string word;
        while (i < spec.size() && !blank(spec[i])) {
            if (spec[i] == '"' || spec[i] == '\'') {
                const std::size_t close = spec.find(spec[i], i + 1);
                if (close == std::string_view::npos)
                    throw UsageError(fmt::format("{} '{}': unmatched {}", what, spec, spec[i]));
                word.append(spec.substr(i + 1, close - i - 1));
                i = close + 1;
            } else {
                word += spec[i++];
            }
        }
        words.push_back(std::move(word));
    }
}

} // namespace detail

} // namespace nettopo
