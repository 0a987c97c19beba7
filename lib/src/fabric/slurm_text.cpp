#include "fabric/slurm_text.hpp"

#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace nettopo {

void check_slurm_name(std::string_view kind, std::string_view name) {
    for (char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= ' ' || u == 0x7f || c == '[' || c == ']' || c == ',' || c == '#' || c == '\\' ||
            c == '"')
            throw InputError(fmt::format("{} '{}' has a name topology.conf cannot hold (blanks, "
                                         "brackets, commas, '#', '\\' and '\"' are not allowed)",
                                         kind, name));
    }
}

std::string slurm_yaml_value(std::string_view v) {
    bool plain = !v.empty() && (std::isalpha(static_cast<unsigned char>(v[0])) || v[0] == '_');
    for (const char c : v)
        if (!std::isalnum(static_cast<unsigned char>(c)) &&
            std::string_view("._-[],").find(c) == std::string_view::npos)
            plain = false;
    std::string lower(v);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const std::string_view word :
         {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf"})
        if (lower == word) plain = false;
    if (plain) return std::string(v);
    return fmt::format("\"{}\"", v);
}

std::string slurm_header(std::string_view file, std::string_view what, std::string_view name) {
    std::string line = fmt::format("# {}", file);
    if (!what.empty()) line += fmt::format(" ({})", what);
    line += " written by nettopo";
    if (!name.empty()) {
        std::string one(name);
        std::replace_if(
            one.begin(), one.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
        line += " from " + one;
    }
    return line + '\n';
}

} // namespace nettopo
