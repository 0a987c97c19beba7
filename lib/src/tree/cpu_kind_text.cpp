#include "tree/cpu_kind_text.hpp"

#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>

namespace nettopo::detail {

namespace {

bool kept_as_is(unsigned char c) {
    constexpr std::string_view separators = "|,;%:/";
    return c > 0x20 && c < 0x7f && separators.find(static_cast<char>(c)) == std::string_view::npos;
}

void append_encoded(std::string& out, std::string_view text) {
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (kept_as_is(c))
            out += ch;
        else
            out += fmt::format("%{:02X}", c);
    }
}

[[noreturn]] void bad_section(std::string_view why) {
    throw InputError(fmt::format("not a machine tree signature: a bad CPU kind ({})", why));
}

std::string decoded(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        unsigned value = 0;
        const char* const from = text.data() + i + 1;
        const char* const to = text.data() + std::min(text.size(), i + 3);
        const auto [next, ec] = std::from_chars(from, to, value, 16);
        if (ec != std::errc() || next != from + 2)
            bad_section("a '%' not followed by two hex digits");
        out += static_cast<char>(value);
        i += 2;
    }
    return out;
}

// The next field of `text` up to `separator` (all of it when there is none).
std::string_view next_field(std::string_view& text, char separator) {
    const std::size_t at = std::min(text.find(separator), text.size());
    const std::string_view field = text.substr(0, at);
    text.remove_prefix(std::min(at + 1, text.size()));
    return field;
}

} // namespace

std::string cpu_kinds_section(const MachineTree& tree) {
    if (tree.cpu_kinds().empty()) return {};
    std::string s = "|k:";
    for (std::uint32_t k = 0; k < tree.cpu_kinds().size(); ++k) {
        const CpuKind& kind = tree.cpu_kinds()[k];
        s += fmt::format("{}/{}/", kind.efficiency, format_cpu_list(tree.pus_of_cpu_kind(k)));
        for (std::size_t i = 0; i < kind.infos.size(); ++i) {
            if (i) s += ',';
            append_encoded(s, kind.infos[i].name);
            s += ':';
            append_encoded(s, kind.infos[i].value);
        }
        s += ';';
    }
    return s;
}

void read_cpu_kinds_section(MachineTree::Builder& builder, std::string_view payload) {
    if (payload.empty()) bad_section("a section without kinds");
    while (!payload.empty()) {
        const std::size_t end = payload.find(';');
        if (end == std::string_view::npos) bad_section("an entry without its ';'");
        std::string_view entry = payload.substr(0, end);
        payload.remove_prefix(end + 1);
        const std::string_view efficiency = next_field(entry, '/');
        if (entry.find('/') == std::string_view::npos) bad_section("fewer than three fields");
        const std::string_view pus = next_field(entry, '/');
        CpuKind kind;
        const auto [next, ec] = std::from_chars(
            efficiency.data(), efficiency.data() + efficiency.size(), kind.efficiency);
        if (ec != std::errc() || next != efficiency.data() + efficiency.size())
            bad_section("its efficiency is not an integer");
        if (entry.find('/') != std::string_view::npos) bad_section("more than three fields");
        while (!entry.empty()) {
            const std::size_t comma = entry.find(',');
            std::string_view info = entry.substr(0, comma);
            const std::size_t colon = info.find(':');
            if (colon == std::string_view::npos || info.find(':', colon + 1) != info.npos)
                bad_section("an info that is not NAME:VALUE");
            kind.infos.push_back({decoded(info.substr(0, colon)), decoded(info.substr(colon + 1))});
            if (comma == std::string_view::npos) break;
            entry.remove_prefix(comma + 1);
            if (entry.empty()) bad_section("an empty info");
        }
        builder.add_cpu_kind(std::move(kind), parse_cpu_list(pus, builder.num_pus()));
    }
}

} // namespace nettopo::detail
