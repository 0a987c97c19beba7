#include "nettopo/support/hostfile.hpp"

#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <string_view>

namespace nettopo {

std::vector<std::size_t> first_positions(const std::vector<std::string>& names) {
    // Sort positions by (name, position), keep the first of each name, then
    // restore the original order: no hash set, stable for any input.
    std::vector<std::size_t> at(names.size());
    std::iota(at.begin(), at.end(), std::size_t{0});
    std::stable_sort(at.begin(), at.end(),
                     [&](std::size_t a, std::size_t b) { return names[a] < names[b]; });
    std::vector<char> keep(names.size(), 0);
    for (std::size_t i = 0; i < at.size(); ++i)
        keep[at[i]] = i == 0 || names[at[i]] != names[at[i - 1]];
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (keep[i]) out.push_back(i);
    return out;
}

std::vector<std::string> first_occurrences(std::vector<std::string> names) {
    std::vector<std::string> out;
    for (const std::size_t i : first_positions(names)) out.push_back(std::move(names[i]));
    return out;
}

std::vector<HostfileHost> read_hostfile_lines(std::istream& in, const std::string& source) {
    std::vector<std::string> hosts;
    std::vector<std::size_t> lines;
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        std::string_view content(line);
        content = content.substr(0, content.find('#'));
        std::string_view first;
        for_each_token(content, [&](std::string_view t) {
            if (first.empty()) first = t;
        });
        if (first.empty()) continue;
        if (first.find('=') != std::string_view::npos)
            throw InputError(
                source, n, fmt::format("expected a host name first on the line, got '{}'", first));
        if (const std::string problem = name_problem(first); !problem.empty())
            throw InputError(source, n,
                             fmt::format("host name '{}' {}", shown_name(first), problem));
        hosts.emplace_back(first);
        lines.push_back(n);
    }
    std::vector<HostfileHost> out;
    for (const std::size_t i : first_positions(hosts))
        out.push_back({std::move(hosts[i]), lines[i]});
    return out;
}

std::vector<std::string> read_hostfile(std::istream& in, const std::string& source) {
    std::vector<std::string> names;
    for (HostfileHost& host : read_hostfile_lines(in, source))
        names.push_back(std::move(host.name));
    return names;
}

} // namespace nettopo
