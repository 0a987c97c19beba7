// What a drawing collapses into boxes (dot_groups.hpp).
#include "common/dot_groups.hpp"

#include "common/dot_layout.hpp"
#include "nettopo/model/host_units.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace nettopo::detail {

void LinkRange::add(const Link& l, bool on) {
    if (links++ == 0) {
        lat_lo = lat_hi = l.latency_ns;
        bw_lo = bw_hi = l.bandwidth_gbps;
        mult_lo = mult_hi = l.multiplicity;
    }
    lat_lo = std::min(lat_lo, l.latency_ns);
    lat_hi = std::max(lat_hi, l.latency_ns);
    bw_lo = std::min(bw_lo, l.bandwidth_gbps);
    bw_hi = std::max(bw_hi, l.bandwidth_gbps);
    mult_lo = std::min(mult_lo, l.multiplicity);
    mult_hi = std::max(mult_hi, l.multiplicity);
    if (l.bandwidth_gbps <= 0) bandwidth_known = false;
    lit = lit || on;
}

namespace {

std::string range_text(double lo, double hi) {
    return lo == hi ? format_number(lo)
                    : fmt::format("{}-{}", format_number(lo), format_number(hi));
}

// The machines: by unit (host_units: the same switches), type and
// highlight, in order of their first machine; machines with a cable to
// another machine are drawn alone.
void group_machines(const Cluster& c, const DotHighlight* lit, DotGroups& d) {
    const Network& net = c.network();
    d.group_of.assign(c.num_machines(), no_group);
    const std::vector<HostUnit> units = host_units(c);
    std::vector<std::uint32_t> unit_of(c.num_machines());
    for (std::uint32_t u = 0; u < units.size(); ++u)
        for (const MachineId m : units[u].machines) unit_of[m.value] = u;
    std::map<std::tuple<std::uint32_t, std::uint32_t, bool>, std::uint32_t> index;
    for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
        const VertexId v(m);
        const auto near = net.neighbors(v);
        if (near.empty() ||
            std::any_of(near.begin(), near.end(), [&](VertexId u) { return net.is_machine(u); }))
            continue;
        const TypeId t = c.type_of(MachineId(m));
        const bool on = !lit || lit->vertices[m];
        const auto [at, added] = index.try_emplace({unit_of[m], t.value, on},
                                                   static_cast<std::uint32_t>(d.groups.size()));
        if (added) {
            d.groups.emplace_back();
            for (const SwitchId s : units[unit_of[m]].switches)
                d.groups.back().switches.push_back(s.value);
            d.groups.back().type = t;
            d.groups.back().lit = on;
            d.groups.back().first = m;
        }
        DotGroup& g = d.groups[at->second];
        ++g.count;
        g.last = m;
        d.group_of[m] = at->second;
    }
}

// What a vertex below a switch is drawn as: its box (kind 1 machines, 2
// switches) or itself (kind 0).
std::pair<std::uint32_t, std::uint32_t> drawn_as(const Network& net, const DotGroups& d,
                                                 const Cluster& c, VertexId u) {
    if (net.is_machine(u)) {
        if (d.box_of(net, u)) return {1, d.group_of[u.value]};
        return {0, u.value};
    }
    const std::uint32_t s = c.switch_of_vertex(u).value;
    if (d.switch_box_of(s)) return {2, d.switch_group_of[s]};
    return {0, u.value};
}

// The switches, tier by tier from the machines up: by the set of what they
// are cabled to below, drawn as the tier below is drawn.
void group_switches(const Cluster& c, const DotHighlight* lit, std::uint32_t above, DotGroups& d) {
    const Network& net = c.network();
    d.switch_group_of.assign(c.num_switches(), no_group);
    std::uint32_t top = 0;
    for (std::uint32_t s = 0; s < c.num_switches(); ++s) {
        const std::uint32_t l = d.level[c.vertex(SwitchId(s)).value];
        if (l != no_level) top = std::max(top, l);
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> below;
    for (std::uint32_t level = 1; level <= top; ++level) {
        const std::size_t first_group = d.switch_groups.size();
        std::map<std::vector<std::pair<std::uint32_t, std::uint32_t>>, std::uint32_t> index;
        for (std::uint32_t s = 0; s < c.num_switches(); ++s) {
            const VertexId v = c.vertex(SwitchId(s));
            if (d.level[v.value] != level) continue;
            below.clear();
            for (VertexId u : net.neighbors(v))
                if (d.level[u.value] < level) below.push_back(drawn_as(net, d, c, u));
            std::sort(below.begin(), below.end());
            below.erase(std::unique(below.begin(), below.end()), below.end());
            const auto [at, added] =
                index.try_emplace(below, static_cast<std::uint32_t>(d.switch_groups.size()));
            if (added) {
                d.switch_groups.emplace_back();
                d.switch_groups.back().level = level;
            }
            SwitchGroup& g = d.switch_groups[at->second];
            g.members.push_back(s);
            if (lit && lit->vertices[v.value]) ++g.lit;
            d.switch_group_of[s] = at->second;
        }
        // Collapsed before the next tier looks down at them.
        for (std::size_t g = first_group; g < d.switch_groups.size(); ++g)
            d.switch_groups[g].collapsed = d.switch_groups[g].members.size() > above;
    }
}

} // namespace

std::string range_label(const LinkRange& r) {
    std::string s = fmt::format("{} ns", range_text(r.lat_lo, r.lat_hi));
    if (r.mult_hi > 1)
        s += r.mult_lo == r.mult_hi ? fmt::format(" x{}", r.mult_hi)
                                    : fmt::format(" x{}-{}", r.mult_lo, r.mult_hi);
    if (r.bandwidth_known) s += fmt::format(", {} Gb/s", range_text(r.bw_lo, r.bw_hi));
    return s;
}

DotGroups group_vertices(const Cluster& c, const DotHighlight* lit, CollapseAbove above) {
    DotGroups d;
    d.level = levels(c.network());
    group_machines(c, lit, d);
    for (DotGroup& g : d.groups) {
        const std::uint32_t n = g.switches.size() == 1 ? above.machines : above.multi_switch;
        g.collapsed = n != 0 && g.count > n;
    }
    if (above.switches != 0) group_switches(c, lit, above.switches, d);
    return d;
}

bool has_other_part(const DotGroups& d, std::uint32_t g) {
    const DotGroup& me = d.groups[g];
    for (const DotGroup& o : d.groups)
        if (o.type == me.type && o.lit != me.lit && o.switches == me.switches) return true;
    return false;
}

std::optional<std::string> short_hostlist(const std::vector<std::string>& names,
                                          std::size_t limit) {
    try {
        if (std::string list = compress_hostlist(names); list.size() <= limit) return list;
    } catch (const InputError&) { // names a hostlist cannot hold
    }
    return std::nullopt;
}

std::string box_members(const Cluster& c, const DotGroups& d, std::uint32_t g) {
    const DotGroup& group = d.groups[g];
    std::vector<std::string> names;
    for (std::uint32_t m = group.first; m <= group.last; ++m)
        if (d.group_of[m] == g) names.emplace_back(c.machine_name(MachineId(m)));
    if (std::optional<std::string> list = short_hostlist(names)) return *list;
    return fmt::format("{}..{} ({})", names.front(), names.back(),
                       counted(names.size(), "machine"));
}

std::string switch_members(const Cluster& c, const SwitchGroup& g) {
    std::vector<std::string> names;
    names.reserve(g.members.size());
    for (std::uint32_t s : g.members) names.emplace_back(c.switch_name(SwitchId(s)));
    if (std::optional<std::string> list = short_hostlist(names)) return *list;
    return fmt::format("{}..{}", names.front(), names.back());
}

std::string all_members(const Cluster& c, const std::vector<std::uint32_t>& switches) {
    std::vector<std::string> names;
    names.reserve(switches.size());
    for (std::uint32_t s : switches) names.emplace_back(c.switch_name(SwitchId(s)));
    if (std::optional<std::string> list = short_hostlist(names, ~std::size_t{0})) return *list;
    std::string joined;
    for (const std::string& n : names) joined += (joined.empty() ? "" : " ") + n;
    return joined;
}

} // namespace nettopo::detail
