// Text forms of family parameters, family specs read through the registry,
// and the thesis presets.
#include "families/family_limits.hpp"
#include "families/spec_words.hpp"
#include "nettopo/families/detail/family_registry.hpp"
#include "nettopo/families/family.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
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

// The options of a spec as written: (--NAME, VALUE) pairs.
using GivenOptions = std::vector<std::pair<std::string, std::string>>;

bool is_given(const GivenOptions& given, std::string_view name) {
    return std::any_of(given.begin(), given.end(), [&](const auto& g) { return g.first == name; });
}

// "--NAME VALUE" or "--NAME=VALUE": each one the family takes, at most once.
GivenOptions spec_options(std::string_view spec, const std::vector<std::string>& words,
                          const FamilyEntry& family) {
    GivenOptions given;
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
        if (!family.param(w))
            throw UsageError(fmt::format("family '{}': {} has no option {}", spec, family.name, w));
        if (is_given(given, w))
            throw UsageError(fmt::format("family '{}': {} given twice", spec, w));
        given.emplace_back(std::string(w), std::move(value));
    }
    return given;
}

// Judges which parameters are given: no two forms mixed (fat-tree's --xgft
// excludes --k and --n), every Required one of the form used (the first when
// none is named) present.
void check_presence(std::string_view spec, const FamilyEntry& family, const GivenOptions& given) {
    std::uint8_t form = 0;
    for (const FamilyParam& p : family.params) {
        if (!is_given(given, p.name) || p.alternative == 0 || p.alternative == form) continue;
        if (form != 0) {
            const std::string later = family.form_params(p.alternative);
            throw UsageError(
                fmt::format("family '{}': {} {} {}", spec, later,
                            later.find(" and ") == std::string::npos ? "excludes" : "exclude",
                            family.form_params(form)));
        }
        form = p.alternative;
    }
    if (form == 0 && family.forms() > 0) form = 1;
    for (const FamilyParam& p : family.params) {
        if (p.use != ParamUse::Required || (p.alternative != 0 && p.alternative != form)) continue;
        if (!is_given(given, p.name))
            throw UsageError(fmt::format("family '{}': {} is missing", spec, p.name));
    }
}

// A value as its parameter's kind reads it.
ParamValue read_value(std::string_view spec, const FamilyParam& param, const std::string& text) {
    switch (param.kind) {
    case ParamKind::Count: {
        std::uint32_t x = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
        if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size())
            throw UsageError(
                fmt::format("family '{}': {} '{}' is not a whole number", spec, param.name, text));
        return x;
    }
    case ParamKind::Dims:
        return parse_dims(text);
    case ParamKind::Xgft:
        return parse_xgft(text);
    }
    throw std::logic_error("unknown parameter kind");
}

// A spec's family and its options as written, judged (known options, presence).
std::pair<const FamilyEntry*, GivenOptions> read_spec(std::string_view spec) {
    const std::vector<std::string> words = detail::spec_words(spec, "family");
    if (words.empty()) throw UsageError("empty family: expected a family and its options");
    const FamilyEntry* family = find_family(words[0]);
    if (!family)
        throw UsageError(
            fmt::format("family '{}': unknown family '{}' ({})", spec, words[0], family_names()));
    GivenOptions given = spec_options(spec, words, *family);
    check_presence(spec, *family, given);
    return {family, std::move(given)};
}

} // namespace

std::unique_ptr<Family> family_from_spec(std::string_view spec) {
    const auto [family, given] = read_spec(spec);
    // Values in the family's order, so the first bad one is reported whatever the spec's order.
    FamilyValues values(*family);
    for (const FamilyParam& p : family->params)
        for (const auto& [name, text] : given)
            if (name == p.name) values.set(name, read_value(spec, p, text));
    return family->make(values);
}

FamilySpec read_family_spec(std::string_view spec) {
    const auto [family, given] = read_spec(spec);
    // The form used: that of a parameter given, else the first (check_presence judged them).
    std::uint8_t form = family->forms() > 0 ? 1 : 0;
    for (const FamilyParam& p : family->params)
        if (p.alternative != 0 && is_given(given, p.name)) form = p.alternative;
    FamilySpec out{family, {}};
    for (const FamilyParam& p : family->params) {
        if (p.alternative != 0 && p.alternative != form) continue;
        const auto it = std::find_if(given.begin(), given.end(),
                                     [&](const auto& g) { return g.first == p.name; });
        if (it != given.end())
            out.params.emplace_back(p.name, read_value(spec, p, it->second));
        else if (p.kind == ParamKind::Count)
            out.params.emplace_back(p.name, p.fallback);
    }
    return out;
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
