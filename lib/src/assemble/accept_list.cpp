// A site's accept file and what it accepts (accept_list.hpp).
#include "nettopo/assemble/detail/accept_list.hpp"

#include "nettopo/support/detail/glob.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace nettopo {

namespace {

std::string_view trimmed(std::string_view s) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

} // namespace

AcceptList read_accept_list(std::istream& in, const std::string& source) {
    AcceptList list{source, {}};
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        for (const char c : line)
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r')
                throw InputError(source, number, "a control character in a pattern");
        std::string_view text = trimmed(line);
        if (text.empty() || text.front() == '#') continue;
        if (const auto comment = text.find(" #"); comment != std::string_view::npos)
            text = trimmed(text.substr(0, comment));
        list.patterns.push_back({std::string(text), number});
    }
    if (in.bad()) throw InputError(source, number, "read error");
    return list;
}

void accept_problems(CheckReport& r, const AcceptList& list) {
    r.accepting = true;
    std::vector<bool> used(list.patterns.size(), false);
    // The first pattern matching the item, marked used; null if none.
    const auto accepting = [&](const std::string& item) -> const AcceptPattern* {
        for (std::size_t i = 0; i < list.patterns.size(); ++i)
            if (glob_match(list.patterns[i].pattern, item)) {
                used[i] = true;
                return &list.patterns[i];
            }
        return nullptr;
    };
    const auto accept = [&](const std::string& item, const AcceptPattern& p) {
        r.accepted.push_back(fmt::format("{} ({} line {})", item, list.source, p.line));
    };
    for (AssemblyIssue& issue : r.issues) {
        std::vector<std::string> kept;
        for (std::string& name : issue.names) {
            const std::string item = fmt::format("{}: {} {}", name, issue.noun, issue.what);
            if (const AcceptPattern* p = accepting(item))
                accept(item, *p);
            else
                kept.push_back(std::move(name));
        }
        issue.names = std::move(kept);
    }
    std::erase_if(r.issues, [](const AssemblyIssue& i) { return i.names.empty(); });
    std::erase_if(r.problems, [&](const std::string& text) {
        const AcceptPattern* p = accepting(text);
        if (p) accept(text, *p);
        return p != nullptr;
    });
    std::erase_if(r.rails.problems, [&](const RailProblem& problem) {
        const AcceptPattern* p = accepting(problem.text);
        if (p) accept(problem.text, *p);
        return p != nullptr;
    });
    for (std::size_t i = 0; i < list.patterns.size(); ++i)
        if (!used[i])
            r.unused_accepts.push_back(fmt::format(
                "{} line {}: {}", list.source, list.patterns[i].line, list.patterns[i].pattern));
}

} // namespace nettopo
