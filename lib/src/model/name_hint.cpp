#include "nettopo/model/detail/name_hint.hpp"

#include "nettopo/support/detail/nearest_names.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "support/name_runs.hpp"

#include <fmt/format.h>
#include <optional>
#include <vector>

namespace nettopo {

namespace {

constexpr std::size_t max_items = 4;  // hostlist items a "known machines" hint shows
constexpr std::size_t max_ranges = 8; // ranges of one prefix a hint shows
constexpr std::size_t max_runs = 64;  // runs of names looked at for them
constexpr std::size_t max_suggested = 3;

// The runs of the machines' names ("prefix + consecutive numbers", in machine
// order), or nullopt when there are more than max_runs or a name cannot be
// written in a hostlist.
std::optional<std::vector<detail::NameRun>> name_runs_of(const Cluster& c) {
    std::vector<detail::NameRun> runs;
    for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
        const std::string_view name = c.machine_name(MachineId(m));
        if (!runs.empty() && detail::continues(runs.back(), name)) {
            ++runs.back().count;
            continue;
        }
        if (runs.size() == max_runs || name.find_first_of("[], \t") != std::string_view::npos)
            return std::nullopt;
        runs.push_back(detail::start_run(name, m));
    }
    return runs;
}

std::string number_text(const detail::NameRun& r, std::uint64_t n) {
    return fmt::format("{:0{}}", n, r.width);
}

// The runs as a hostlist of at most max_items items (runs of one prefix in a
// row share a bracket: node[001-064,100-128]), or "" when longer. Looked at
// are the names of at most max_runs runs (else no hostlist is short).
std::string short_hostlist(const std::vector<detail::NameRun>& runs) {
    std::vector<std::string> items;
    for (std::size_t i = 0; i < runs.size();) {
        const detail::NameRun& r = runs[i];
        std::size_t j = i + 1;
        if (r.numbered)
            while (j < runs.size() && runs[j].numbered && runs[j].prefix == r.prefix) ++j;
        if (j - i == 1 && (!r.numbered || r.count == 1)) {
            items.push_back(r.numbered ? detail::run_name(r, r.first_number) : r.prefix);
        } else {
            std::string item = r.prefix + '[';
            for (std::size_t k = i; k < j; ++k) {
                if (k > i) item += ',';
                item += number_text(runs[k], runs[k].first_number);
                if (runs[k].count > 1)
                    item += '-' + number_text(runs[k], runs[k].first_number + runs[k].count - 1);
            }
            items.push_back(item + ']');
        }
        if (items.size() > max_items) return {};
        i = j;
    }
    return fmt::format("{}", fmt::join(items, ","));
}

std::string known(const std::string& hostlist) {
    return hostlist.empty() ? std::string() : "known machines: " + hostlist;
}

// machine_name_hint, the nearest names taken among the switches' too when
// `switches_too`.
std::string hint_for(const Cluster& c, std::string_view name, bool switches_too) {
    const std::optional<std::vector<detail::NameRun>> runs = name_runs_of(c);
    const std::string hostlist = runs ? short_hostlist(*runs) : std::string();
    // A number of a run of names: written with another padding, or past it.
    const detail::SplitName s = detail::split_trailing_number(name);
    if (runs && !s.digits.empty()) {
        const std::uint64_t number = parse_uint(s.digits).value_or(0); // 18 digits at most
        std::vector<detail::NameRun> same_prefix;
        std::uint64_t machines = 0;
        for (const detail::NameRun& r : *runs) {
            if (!r.numbered || r.prefix != s.prefix) continue;
            if (number >= r.first_number && number - r.first_number < r.count)
                return fmt::format("did you mean {}?", detail::run_name(r, number));
            same_prefix.push_back(r);
            machines += r.count;
        }
        if (!same_prefix.empty() && !hostlist.empty()) return known(hostlist);
        // Too many names for one short hostlist: those of the name's prefix.
        if (!same_prefix.empty() && same_prefix.size() <= max_ranges)
            return fmt::format("known machines: {} and {} more", short_hostlist(same_prefix),
                               c.num_machines() - machines);
    }
    NearestNames nearest(name, max_suggested);
    for (std::uint32_t m = 0; m < c.num_machines(); ++m)
        nearest.offer(c.machine_name(MachineId(m)));
    if (switches_too)
        for (std::uint32_t w = 0; w < c.num_switches(); ++w)
            nearest.offer(c.switch_name(SwitchId(w)));
    if (!nearest.names().empty()) return fmt::format("did you mean {}?", or_list(nearest.names()));
    return known(hostlist);
}

} // namespace

std::string machine_name_hint(const Cluster& c, std::string_view name) {
    return hint_for(c, name, false);
}

std::string machine_names_hint(const Cluster& c, std::span<const std::string> names) {
    if (names.size() == 1) return machine_name_hint(c, names[0]);
    const std::optional<std::vector<detail::NameRun>> runs = name_runs_of(c);
    return runs ? known(short_hostlist(*runs)) : std::string();
}

std::string with_hint(std::string message, const std::string& hint) {
    if (!hint.empty()) message += "; " + hint;
    return message;
}

std::string no_machine_named(const Cluster& c, std::string_view name) {
    return with_hint(fmt::format("no machine named '{}'", name), machine_name_hint(c, name));
}

std::string no_machine_or_switch_named(const Cluster& c, std::string_view name) {
    return with_hint(fmt::format("no machine or switch named '{}'", name), hint_for(c, name, true));
}

} // namespace nettopo
