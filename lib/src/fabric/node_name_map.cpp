// ibnetdiscover's node-name map, read as infiniband-diags reads it (the rules
// are in fabric.hpp): "<guid> \"<name>\"" lines, '#' comments.
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/error.hpp"

#include <cerrno>
#include <cstdlib>
#include <fmt/format.h>
#include <istream>
#include <string>
#include <string_view>

namespace nettopo {

namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

} // namespace

NodeNameMap read_node_name_map(std::istream& in, const std::string& source) {
    NodeNameMap map;
    map.source = source;
    std::string buf;
    std::size_t line = 0;
    while (std::getline(in, buf)) {
        ++line;
        std::string_view s = buf;
        while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
        if (s.empty() || s.front() == '#') continue;
        // strtoull with base 0, as infiniband-diags: 0x hex, 0 octal, else decimal.
        const std::string text(s);
        char* end = nullptr;
        errno = 0;
        const unsigned long long guid = std::strtoull(text.c_str(), &end, 0);
        const std::size_t used = static_cast<std::size_t>(end - text.c_str());
        if (used == 0 || errno == ERANGE || text.front() == '-' || text.front() == '+' ||
            (used < text.size() && !is_space(text[used]) && text[used] != '#'))
            throw InputError(source, line,
                             fmt::format("bad GUID '{}' (expected '<guid> \"<name>\"', the "
                                         "GUID as 0x and hex digits)",
                                         s.substr(0, s.find_first_of(" \t#"))));
        std::string_view rest = s.substr(used);
        // The name: after blanks, quotes and '#', up to the next quote or '#'.
        while (!rest.empty() &&
               (is_space(rest.front()) || rest.front() == '"' || rest.front() == '#'))
            rest.remove_prefix(1);
        rest = rest.substr(0, rest.find_first_of("\"#"));
        while (!rest.empty() && is_space(rest.back())) rest.remove_suffix(1);
        if (rest.empty()) continue;
        if (const std::string problem = name_problem(rest); !problem.empty())
            throw InputError(source, line, fmt::format("name '{}' {}", shown_name(rest), problem));
        map.names.try_emplace(static_cast<std::uint64_t>(guid), std::string(rest));
    }
    return map;
}

} // namespace nettopo
