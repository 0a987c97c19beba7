#include "nettopo/support/detail/name_rules.hpp"

#include "nettopo/support/error.hpp"

#include <cstdint>
#include <fmt/format.h>

namespace nettopo {

namespace {

// The code point starting at s[i] and its length in bytes, or length 0 when
// the bytes there are not valid UTF-8 (overlong forms and surrogates
// included, as RFC 3629 says).
struct Decoded {
    std::uint32_t code = 0;
    std::size_t length = 0;
};

Decoded decode(std::string_view s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = byte(i);
    if (b0 < 0x80) return {b0, 1};
    std::size_t n = 0;
    std::uint32_t code = 0, min = 0;
    if ((b0 & 0xE0) == 0xC0) {
        n = 2, code = b0 & 0x1Fu, min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
        n = 3, code = b0 & 0x0Fu, min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
        n = 4, code = b0 & 0x07u, min = 0x10000;
    } else {
        return {};
    }
    if (i + n > s.size()) return {};
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return {};
        code = (code << 6) | (byte(i + k) & 0x3Fu);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return {};
    return {code, n};
}

bool is_control(std::uint32_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xFFFE || c == 0xFFFF;
}

} // namespace

std::string text_problem(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const Decoded d = decode(text, i);
        if (d.length == 0) return fmt::format("is not valid UTF-8 at byte {}", i + 1);
        if (is_control(d.code))
            return fmt::format("holds the control character U+{:04X} at byte {}", d.code, i + 1);
        i += d.length;
    }
    return {};
}

std::string name_problem(std::string_view name) {
    if (name.size() > max_name_bytes)
        return fmt::format("is {} bytes long, more than the {} allowed", name.size(),
                           max_name_bytes);
    return text_problem(name);
}

void check_name(std::string_view what, std::string_view name) {
    if (std::string problem = name_problem(name); !problem.empty())
        throw InputError(fmt::format("{} '{}' {}", what, shown_name(name), problem));
}

void check_text(std::string_view what, std::string_view text) {
    if (std::string problem = text_problem(text); !problem.empty())
        throw InputError(fmt::format("{} '{}' {}", what, shown_name(text), problem));
}

namespace {

// `text` with the bytes `keep` refuses written as \xHH (and, when
// `escape_backslash`, a backslash doubled, so that the text reads back).
template <class Keep> std::string escaped(std::string_view text, Keep keep, bool escape_backslash) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const Decoded d = decode(text, i);
        if (d.length == 0 || !keep(d.code)) {
            out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i]));
            ++i;
            continue;
        }
        if (escape_backslash && text[i] == '\\') out += '\\';
        out.append(text.substr(i, d.length));
        i += d.length;
    }
    return out;
}

} // namespace

std::string shown_name(std::string_view name) {
    const std::size_t shown = std::min(name.size(), max_name_bytes);
    std::string out = escaped(
        name.substr(0, shown), [](std::uint32_t c) { return !is_control(c); }, true);
    if (shown < name.size()) out += "...";
    return out;
}

std::string printable_text(std::string_view text) {
    return escaped(
        text, [](std::uint32_t c) { return c == '\n' || c == '\t' || !is_control(c); }, false);
}

} // namespace nettopo
