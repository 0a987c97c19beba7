// The machines a drawing may collapse into one box (dot_writer.hpp): those
// linked to one switch and nothing else, grouped per switch, machine type
// and highlight, so that a box never mixes highlighted machines with others.
#pragma once

#include "common/dot_writer.hpp"
#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nettopo::detail {

inline constexpr std::uint32_t no_group = ~0u;

// Machines of one type (and one highlight) hanging off one switch only,
// with the ranges of their links' numbers for the box's edge label.
struct DotGroup {
    std::uint32_t sw = 0;
    TypeId type{};
    std::uint32_t count = 0;
    std::uint32_t first = no_group, last = 0; // machine ids, lowest and highest
    double lat_lo = 0, lat_hi = 0, bw_lo = 0, bw_hi = 0;
    std::uint32_t mult_lo = 0, mult_hi = 0;
    bool bandwidth_known = true; // on every link of the group
    bool lit = false;            // its machines are highlighted
    bool lit_links = false;      // some of its links are highlighted
    bool collapsed = false;      // drawn as one box
    std::string id;              // the box's DOT ID, when collapsed

    void add(std::uint32_t machine, const Link& l);
};

struct DotGroups {
    std::vector<DotGroup> groups;        // a switch's groups are consecutive
    std::vector<std::uint32_t> group_of; // by machine id: its group, or no_group

    // Whether `v` is a machine hanging off one switch only.
    bool hangs(const Network& net, VertexId v) const {
        return net.is_machine(v) && group_of[v.value] != no_group;
    }
    // The box `v` is drawn in, or nullptr when it is drawn alone.
    const DotGroup* box_of(const Network& net, VertexId v) const {
        if (!hangs(net, v)) return nullptr;
        const DotGroup& g = groups[group_of[v.value]];
        return g.collapsed ? &g : nullptr;
    }
};

// The groups of `c`'s machines; those of more than `collapse_above` machines
// are collapsed (none when it is 0). `lit` may be nullptr (no highlight).
// Box ids are left empty: the writer names them with its other ids.
DotGroups group_hanging_machines(const Cluster& c, const DotHighlight* lit,
                                 std::uint32_t collapse_above);

// Whether group `g`'s switch also has machines of its type with the other
// highlight, so that the box's name must say which part it is.
bool has_other_part(const DotGroups& d, std::uint32_t g);

// The label of a box's edge: the ranges of latency, multiplicity and
// bandwidth of its links.
std::string group_label(const DotGroup& g);

// The machines of group `g` as a hostlist while that stays short (a
// first..last range would hide the machines of the switch drawn apart).
std::string box_members(const Cluster& c, const DotGroups& d, std::uint32_t g);

} // namespace nettopo::detail
