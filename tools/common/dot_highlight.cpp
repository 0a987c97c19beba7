// The highlights of a drawing (dot_highlight.hpp).
#include "common/dot_highlight.hpp"

#include "nettopo/model/detail/name_hint.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <string>
#include <vector>

namespace nettopo {
namespace {

DotHighlight empty_highlight(const Cluster& c) {
    DotHighlight h;
    h.vertices.assign(c.network().num_vertices(), false);
    h.links.assign(c.network().num_links(), false);
    return h;
}

// Marks the vertices of `path` and the link between each two consecutive
// ones (adjacency is sorted: a binary search finds it).
void mark(const Network& net, const std::vector<VertexId>& path, DotHighlight& h) {
    for (std::size_t i = 0; i < path.size(); ++i) {
        h.vertices[path[i].value] = true;
        if (i == 0) continue;
        const auto near = net.neighbors(path[i - 1]);
        const auto at = std::lower_bound(near.begin(), near.end(), path[i]);
        h.links[net.neighbor_links(path[i - 1])[static_cast<std::size_t>(at - near.begin())]] =
            true;
    }
}

std::string machine_names(const Cluster& c, std::span<const MachineId> machines) {
    std::vector<std::string> names;
    names.reserve(machines.size());
    for (MachineId m : machines) names.emplace_back(c.machine_name(m));
    // The whole list while it stays short, else its first names and a count.
    try {
        if (std::string list = compress_hostlist(names); list.size() <= 60) return list;
    } catch (const InputError&) { // names a hostlist cannot hold
    }
    return hostlist_excerpt(names);
}

} // namespace

DotHighlight highlight_path(const Cluster& c, PeId a, PeId b) {
    const MachineId from = c.machine_of(a), to = c.machine_of(b);
    NetworkSearch search(c.network());
    const auto path = search.path(c.vertex(from), c.vertex(to), PathMetric::Latency);
    if (!path)
        throw UsageError(
            fmt::format("no path joins {} and {}", c.machine_name(from), c.machine_name(to)));
    DotHighlight h = empty_highlight(c);
    mark(c.network(), *path, h);
    h.caption = fmt::format("path {} - {}", c.machine_name(from), c.machine_name(to));
    return h;
}

DotHighlight highlight_machines(const Cluster& c, std::span<const MachineId> machines) {
    if (machines.empty()) throw UsageError("no machine to highlight");
    DotHighlight h = empty_highlight(c);
    NetworkSearch search(c.network());
    // Repeats are told apart from machines an earlier path passed through
    // (a direct network's machines forward): those still count and are named.
    std::vector<char> listed(c.num_machines(), 0);
    std::vector<MachineId> distinct;
    for (MachineId m : machines) {
        if (listed[m.value]) continue;
        listed[m.value] = 1;
        distinct.push_back(m);
        if (h.vertices[c.vertex(m).value]) continue; // already joined to the first
        const auto path = search.path(c.vertex(machines.front()), c.vertex(m), PathMetric::Latency);
        if (!path)
            throw UsageError(fmt::format("no path joins {} and {}",
                                         c.machine_name(machines.front()), c.machine_name(m)));
        mark(c.network(), *path, h);
    }
    h.caption = fmt::format("{}: {}",
                            distinct.size() == 1 ? std::string("1 machine")
                                                 : fmt::format("{} machines", distinct.size()),
                            machine_names(c, distinct));
    return h;
}

DotHighlight read_dot_highlight(const Cluster& c, std::string_view text) {
    const std::string whole(text);
    if (text.starts_with("path:")) {
        const std::string_view ends = text.substr(5);
        const std::size_t comma = ends.find(',');
        if (comma == std::string_view::npos || ends.find(',', comma + 1) != std::string_view::npos)
            throw ValueError(whole, "expected path:A,B, A and B each a PE index or a machine name");
        PeId pe[2];
        for (int i = 0; i < 2; ++i) {
            const std::string_view end = i == 0 ? ends.substr(0, comma) : ends.substr(comma + 1);
            if (end.empty())
                throw ValueError(whole,
                                 "expected path:A,B, A and B each a PE index or a machine name");
            if (end.find_first_not_of("0123456789") == std::string_view::npos) {
                const std::optional<std::uint64_t> index = parse_uint(end);
                if (!index || *index >= c.num_pes())
                    throw ValueError(whole,
                                     fmt::format("PE {} is out of range (the cluster has {} PEs)",
                                                 end, c.num_pes()));
                pe[i] = PeId(static_cast<std::uint32_t>(*index));
                continue;
            }
            const std::optional<MachineId> m = c.find_machine(end);
            if (!m) throw ValueError(whole, no_machine_named(c, end));
            pe[i] = c.pes_of_machine(*m)[0];
        }
        return highlight_path(c, pe[0], pe[1]);
    }
    std::vector<std::string> names;
    try {
        names = expand_hostlist(text);
    } catch (const InputError& e) {
        throw ValueError(whole, e.what());
    }
    if (names.empty()) throw ValueError(whole, "expected path:A,B or a hostlist of machines");
    std::vector<MachineId> machines;
    std::vector<std::string> unknown;
    for (const std::string& name : names) {
        if (const std::optional<MachineId> m = c.find_machine(name))
            machines.push_back(*m);
        else
            unknown.push_back(name);
    }
    if (!unknown.empty())
        throw ValueError(whole,
                         with_hint(fmt::format("no machine named {}", hostlist_excerpt(unknown)),
                                   machine_names_hint(c, unknown)));
    return highlight_machines(c, machines);
}

} // namespace nettopo
