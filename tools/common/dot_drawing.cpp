// The DOT language's text helpers (dot_drawing.hpp).
#include "common/dot_drawing.hpp"

#include "nettopo/support/detail/text.hpp"

#include <fmt/format.h>
#include <map>

namespace nettopo::detail {

// The inside of a DOT double-quoted string. Graphviz keeps "\\" as written
// and shows it as one backslash in a label, and reads "\"" as a quote, so a
// name comes back as written and two names never become one ID. A newline
// is written "\n" so that every statement stays on one line.
std::string escaped(std::string_view s) {
    std::string e;
    e.reserve(s.size());
    for (char c : s) {
        if (c == '\n') {
            e += "\\n";
            continue;
        }
        if (c == '\r') continue;
        if (c == '"' || c == '\\') e += '\\';
        e += c;
    }
    return e;
}

std::string dot_string(std::string_view s) {
    return fmt::format("\"{}\"", escaped(s));
}

std::string link_label(const Link& l) {
    std::string s = fmt::format("{} ns", format_number(l.latency_ns));
    if (l.multiplicity > 1) s += fmt::format(" x{}", l.multiplicity);
    if (l.bandwidth_gbps > 0) s += fmt::format(", {} Gb/s", format_number(l.bandwidth_gbps));
    return s;
}

// The label written on most edges of a kind, said once in the title (empty
// when there is none).
std::string most_common(const std::vector<std::string>& labels) {
    std::map<std::string, std::size_t> count;
    for (const std::string& l : labels) ++count[l];
    std::string best;
    std::size_t most = 0;
    for (const auto& [label, n] : count)
        if (n > most) {
            best = label;
            most = n;
        }
    return best;
}

} // namespace nettopo::detail
