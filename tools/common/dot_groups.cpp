// The machines a drawing collapses into boxes (dot_groups.hpp).
#include "common/dot_groups.hpp"

#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace nettopo::detail {

void DotGroup::add(std::uint32_t machine, const Link& l) {
    if (count++ == 0) {
        first = machine;
        lat_lo = lat_hi = l.latency_ns;
        bw_lo = bw_hi = l.bandwidth_gbps;
        mult_lo = mult_hi = l.multiplicity;
    }
    first = std::min(first, machine);
    last = std::max(last, machine);
    lat_lo = std::min(lat_lo, l.latency_ns);
    lat_hi = std::max(lat_hi, l.latency_ns);
    bw_lo = std::min(bw_lo, l.bandwidth_gbps);
    bw_hi = std::max(bw_hi, l.bandwidth_gbps);
    mult_lo = std::min(mult_lo, l.multiplicity);
    mult_hi = std::max(mult_hi, l.multiplicity);
    if (l.bandwidth_gbps <= 0) bandwidth_known = false;
}

DotGroups group_hanging_machines(const Cluster& c, const DotHighlight* lit,
                                 std::uint32_t collapse_above) {
    const Network& net = c.network();
    DotGroups d;
    d.group_of.assign(c.num_machines(), no_group);
    std::vector<DotGroup>& groups = d.groups;
    for (std::uint32_t s = 0; s < c.num_switches(); ++s) {
        const VertexId v = c.vertex(SwitchId(s));
        const auto to = net.neighbors(v);
        const auto links = net.neighbor_links(v);
        const std::size_t first_group = groups.size();
        // A switch's neighbours come in id order, machines first.
        for (std::size_t i = 0; i < to.size() && net.is_machine(to[i]); ++i) {
            if (net.degree(to[i]) != 1) continue;
            const TypeId t = c.type_of(MachineId(to[i].value));
            const bool on = !lit || lit->vertices[to[i].value];
            std::size_t g = first_group;
            while (g < groups.size() && (groups[g].type != t || groups[g].lit != on)) ++g;
            if (g == groups.size()) {
                groups.emplace_back();
                groups.back().sw = s;
                groups.back().type = t;
                groups.back().lit = on;
            }
            groups[g].add(to[i].value, net.links()[links[i]]);
            groups[g].lit_links = groups[g].lit_links || (lit && lit->links[links[i]]);
            d.group_of[to[i].value] = static_cast<std::uint32_t>(g);
        }
    }
    for (DotGroup& g : groups) g.collapsed = collapse_above != 0 && g.count > collapse_above;
    return d;
}

bool has_other_part(const DotGroups& d, std::uint32_t g) {
    const DotGroup& me = d.groups[g];
    std::size_t o = g;
    while (o > 0 && d.groups[o - 1].sw == me.sw) --o;
    for (; o < d.groups.size() && d.groups[o].sw == me.sw; ++o)
        if (d.groups[o].type == me.type && d.groups[o].lit != me.lit) return true;
    return false;
}

namespace {

std::string range_text(double lo, double hi) {
    return lo == hi ? format_number(lo)
                    : fmt::format("{}-{}", format_number(lo), format_number(hi));
}

} // namespace

std::string group_label(const DotGroup& g) {
    std::string s = fmt::format("{} ns", range_text(g.lat_lo, g.lat_hi));
    if (g.mult_hi > 1)
        s += g.mult_lo == g.mult_hi ? fmt::format(" x{}", g.mult_hi)
                                    : fmt::format(" x{}-{}", g.mult_lo, g.mult_hi);
    if (g.bandwidth_known) s += fmt::format(", {} Gb/s", range_text(g.bw_lo, g.bw_hi));
    return s;
}

std::string box_members(const Cluster& c, const DotGroups& d, std::uint32_t g) {
    const DotGroup& group = d.groups[g];
    std::vector<std::string> names;
    for (std::uint32_t m = group.first; m <= group.last; ++m)
        if (d.group_of[m] == g) names.emplace_back(c.machine_name(MachineId(m)));
    try {
        if (std::string list = compress_hostlist(names); list.size() <= 40) return list;
    } catch (const InputError&) { // names a hostlist cannot hold
    }
    return fmt::format("{}..{} ({} machines)", names.front(), names.back(), names.size());
}

} // namespace nettopo::detail
