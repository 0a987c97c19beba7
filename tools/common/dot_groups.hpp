// What a drawing (dot_writer.hpp) may collapse into one box.
//
// Machines: those cabled to switches only, grouped by the exact set of
// switches they are cabled to, their machine type and their highlight, so
// that the hosts of one scalable unit (each on all the unit's rail leaves)
// are one box with one edge per leaf, and a box never mixes highlighted
// machines with others. A machine hanging off one switch is a group of one
// switch, as drawings always had it.
//
// Switches (only when asked: the automatic collapse of large drawings): those
// of one tier (hops from the nearest machine) cabled to the same things below
// them (machines or boxes of machines, switches or boxes of switches of
// lower tiers), so that a unit's rail leaves become one box over the unit's
// hosts and the spines above every leaf another. Tiers are grouped from the
// machines up, each on the boxes of the tier below. Highlight does not split
// a box of switches: it says how many of its members are highlighted.
#pragma once

#include "common/dot_writer.hpp"
#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nettopo::detail {

inline constexpr std::uint32_t no_group = ~0u;
inline constexpr std::uint32_t no_level = ~0u; // a vertex no machine reaches

// The ranges of latency, multiplicity and bandwidth of some links (those a
// box's edge stands for), and how many there are.
struct LinkRange {
    double lat_lo = 0, lat_hi = 0, bw_lo = 0, bw_hi = 0;
    std::uint32_t mult_lo = 0, mult_hi = 0;
    std::uint32_t links = 0;
    bool bandwidth_known = true; // on every link
    bool lit = false;            // some link is highlighted

    void add(const Link& l, bool on);
};

// "100-140 ns x2, 100 Gb/s": the ranges of `r` (bandwidth only when known on
// every link).
std::string range_label(const LinkRange& r);

// Machines of one type and highlight, cabled to the same switches.
struct DotGroup {
    std::vector<std::uint32_t> switches; // switch ids, ascending
    TypeId type{};
    std::uint32_t count = 0;
    std::uint32_t first = no_group, last = 0; // machine ids, lowest and highest
    bool lit = false;                         // its machines are highlighted
    bool collapsed = false;                   // drawn as one box
    std::string id;                           // the box's DOT ID, when collapsed
};

// Switches of one tier cabled to the same things below.
struct SwitchGroup {
    std::uint32_t level = 0;
    std::vector<std::uint32_t> members; // switch ids, ascending
    std::uint32_t lit = 0;              // how many members are highlighted
    bool collapsed = false;             // drawn as one box
    std::string id;                     // the box's DOT ID, when collapsed
};

struct DotGroups {
    std::vector<DotGroup> groups;               // machine groups, by first machine
    std::vector<std::uint32_t> group_of;        // by machine id: its group, or no_group
    std::vector<SwitchGroup> switch_groups;     // tier by tier, by first switch
    std::vector<std::uint32_t> switch_group_of; // by switch id: its group, or no_group
    std::vector<std::uint32_t> level;           // by vertex: hops from the nearest machine

    // Whether `v` is a machine in a group (cabled to switches only).
    bool hangs(const Network& net, VertexId v) const {
        return net.is_machine(v) && group_of[v.value] != no_group;
    }
    // The box `v` (a machine) is drawn in, or nullptr when it is drawn alone.
    const DotGroup* box_of(const Network& net, VertexId v) const {
        if (!hangs(net, v)) return nullptr;
        const DotGroup& g = groups[group_of[v.value]];
        return g.collapsed ? &g : nullptr;
    }
    // The box switch `s` is drawn in, or nullptr when it is drawn alone.
    const SwitchGroup* switch_box_of(std::uint32_t s) const {
        if (switch_group_of.empty() || switch_group_of[s] == no_group) return nullptr;
        const SwitchGroup& g = switch_groups[switch_group_of[s]];
        return g.collapsed ? &g : nullptr;
    }
};

// How many members a group needs to be collapsed: more than these (0: never).
struct CollapseAbove {
    std::uint32_t machines = 8;     // machines hanging off one switch
    std::uint32_t multi_switch = 8; // machines cabled to several switches
    std::uint32_t switches = 0;     // switches (0: not even grouped)
};

// The groups of `c`'s vertices, collapsed as `above` says. `lit` may be
// nullptr (no highlight). Box ids are left empty: the writer names them with
// its other ids.
DotGroups group_vertices(const Cluster& c, const DotHighlight* lit, CollapseAbove above);

// Whether machine group `g` has a twin (same switches and type) with the
// other highlight, so that the box's name must say which part it is.
bool has_other_part(const DotGroups& d, std::uint32_t g);

// Names as a hostlist when it is at most `limit` characters long.
std::optional<std::string> short_hostlist(const std::vector<std::string>& names,
                                          std::size_t limit = 40);

// The machines of group `g` as a short hostlist, else "first..last (N
// machines)" (a first..last range alone would hide the machines drawn apart).
std::string box_members(const Cluster& c, const DotGroups& d, std::uint32_t g);

// The switches of switch group `g` as a short hostlist, else "first..last".
std::string switch_members(const Cluster& c, const SwitchGroup& g);

// Every one of `switches` (ids): a hostlist, or the names joined by blanks
// when a hostlist cannot hold them (a box's tooltip).
std::string all_members(const Cluster& c, const std::vector<std::uint32_t>& switches);

} // namespace nettopo::detail
