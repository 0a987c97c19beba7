#include "model/meet_latencies.hpp"

#include <algorithm>
#include <limits>

namespace nettopo::detail {

namespace {

// Positions, not types, order the latencies: a deeper common object is
// never farther than a shallower one. Types give the values where they agree
// with the positions (they do on most machines: PU < Core < L1 < L2 < L3 <
// Package < Machine). Where a type's value is not below the object that
// holds it (a Group below an L3 on a sub-NUMA-clustered server, 90 below
// 40), the object takes the midpoint between that bound and the largest
// latency below it, so both orders hold strictly. An object with exactly
// its parent's PUs is never the deepest common object of two PUs: the bound
// passes through it.
class PositionalLatencies {
public:
    PositionalLatencies(const MachineTree& tree, const LevelLatencies& table)
        : tree_(tree), table_(table), out_(tree.num_objects(), 0.0) {}

    std::vector<double> run() && {
        assign(ObjectId(0), std::numeric_limits<double>::infinity());
        return std::move(out_);
    }

private:
    // Returns the latency given to `o`, below `bound` (strictly, unless the
    // bound is 0).
    double assign(ObjectId o, double bound) {
        const TreeObject& obj = tree_.object(o);
        const double own = table_[obj.type];
        const bool fits = own < bound;
        const double mine = fits ? own : bound;
        double below = 0;
        for (ObjectId c : tree_.children(o)) {
            const TreeObject& child = tree_.object(c);
            const bool same_pus = child.pu_count == obj.pu_count;
            below = std::max(below, assign(c, same_pus ? bound : mine));
        }
        out_[o.value] = fits ? own : std::max(below, (bound + below) / 2);
        return out_[o.value];
    }

    const MachineTree& tree_;
    const LevelLatencies& table_;
    std::vector<double> out_;
};

// The NUMA nodes that hold PUs: their locality, and each PU's node (the
// first NUMA node of the deepest locality above it).
struct NumaPlaces {
    std::vector<ObjectId> locality;      // per NUMA logical index
    std::vector<std::uint32_t> of_pu;    // per PU logical index
    std::vector<std::uint8_t> holds_pus; // per NUMA logical index
};

NumaPlaces numa_places(const MachineTree& tree) {
    const std::uint32_t n = tree.count(ObjectType::NUMANode);
    NumaPlaces p{std::vector<ObjectId>(n), std::vector<std::uint32_t>(tree.num_pus(), no_numa_node),
                 std::vector<std::uint8_t>(n, 0)};
    std::vector<std::uint32_t> first_numa(tree.num_objects(), no_numa_node);
    for (const MemoryObject& m : tree.memory()) {
        if (m.type != ObjectType::NUMANode) continue;
        p.locality[m.logical_index] = m.parent;
        first_numa[m.parent.value] = std::min(first_numa[m.parent.value], m.logical_index);
    }
    // Pre-order: a parent's node is known before its children's.
    std::vector<std::uint32_t> at(tree.num_objects(), no_numa_node);
    for (std::uint32_t i = 0; i < tree.num_objects(); ++i) {
        const TreeObject& o = tree.objects()[i];
        at[i] = first_numa[i] != no_numa_node ? first_numa[i]
                : o.parent.valid()            ? at[o.parent.value]
                                              : no_numa_node;
    }
    for (std::uint32_t pu = 0; pu < tree.num_pus(); ++pu) {
        p.of_pu[pu] = at[tree.pu(pu).value];
        if (p.of_pu[pu] != no_numa_node) p.holds_pus[p.of_pu[pu]] = 1;
    }
    return p;
}

// Across NUMA nodes the machine's own matrix decides (share/doc/model.md,
// "The machine's own distances"): between the largest latency inside either
// node (floor) and the latency of the object where the farthest nodes meet
// (top), in proportion to hwloc's relative distance above local memory, plus
// one unit so that a remote node is never as near as the local one. Where
// the matrix ties (a flat SLIT of 10/20 on eight sockets in two Groups), the
// tree's positions break the tie: a fraction of the smallest gap between
// distinct matrix values, so they never reorder what the matrix orders.
void numa_latencies(const MachineTree& tree, MeetLatencies& m) {
    const auto d = tree.numa_distances();
    if (d.empty()) return;
    NumaPlaces places = numa_places(tree);
    const auto n = static_cast<std::uint32_t>(places.locality.size());
    std::vector<std::uint32_t> with_pus;
    for (std::uint32_t i = 0; i < n; ++i)
        if (places.holds_pus[i]) with_pus.push_back(i);
    if (with_pus.size() < 2) return;

    // The largest latency of two PUs sharing a node: any object at or below
    // its locality holding two of the node's PUs.
    std::vector<double> floor(n, 0.0);
    for (std::uint32_t i : with_pus) {
        const TreeObject& loc = tree.object(places.locality[i]);
        for (std::uint32_t o = places.locality[i].value; o < loc.subtree_end; ++o)
            if (tree.objects()[o].pu_count > 1) floor[i] = std::max(floor[i], m.per_object[o]);
    }
    const auto at = [n](std::uint32_t i, std::uint32_t j) { return std::size_t{i} * n + j; };
    std::vector<double> rel(std::size_t{n} * n, 0.0), by_tree(std::size_t{n} * n, 0.0);
    std::vector<double> rels;
    double top = 0, tree_min = std::numeric_limits<double>::infinity(), tree_max = 0;
    for (std::uint32_t i : with_pus)
        for (std::uint32_t j : with_pus) {
            if (i == j) continue;
            const auto v = [&](std::uint32_t r, std::uint32_t c) {
                return static_cast<double>(d[at(r, c)]);
            };
            rel[at(i, j)] = std::max((v(i, j) - v(i, i) + v(j, i) - v(j, j)) / 2, 0.0);
            rels.push_back(rel[at(i, j)]);
            const ObjectId meet =
                tree.common_ancestor(tree.pu(tree.object(places.locality[i]).first_pu),
                                     tree.pu(tree.object(places.locality[j]).first_pu));
            by_tree[at(i, j)] = m.per_object[meet.value];
            top = std::max(top, by_tree[at(i, j)]);
            tree_min = std::min(tree_min, by_tree[at(i, j)]);
            tree_max = std::max(tree_max, by_tree[at(i, j)]);
        }
    std::sort(rels.begin(), rels.end());
    double gap = 1;
    for (std::size_t k = 1; k < rels.size(); ++k)
        if (rels[k] > rels[k - 1]) gap = std::min(gap, rels[k] - rels[k - 1]);
    const double tie_share = gap / 2;
    const auto key = [&](std::uint32_t i, std::uint32_t j) {
        const double t =
            tree_max > tree_min ? (by_tree[at(i, j)] - tree_min) / (tree_max - tree_min) : 0.0;
        return rel[at(i, j)] + 1 + tie_share * t;
    };
    double key_max = 0;
    for (std::uint32_t i : with_pus)
        for (std::uint32_t j : with_pus)
            if (i != j) key_max = std::max(key_max, key(i, j));
    m.numa_count = n;
    m.numa_of_pu = std::move(places.of_pu);
    m.across_numa.assign(std::size_t{n} * n, 0.0);
    for (std::uint32_t i : with_pus)
        for (std::uint32_t j : with_pus) {
            if (i == j) continue;
            const double low = std::max(floor[i], floor[j]);
            m.across_numa[at(i, j)] = low + std::max(top - low, 0.0) * key(i, j) / key_max;
        }
}

} // namespace

MeetLatencies meet_latencies(const MachineTree& tree, const LevelLatencies& table) {
    MeetLatencies m;
    m.per_object = PositionalLatencies(tree, table).run();
    numa_latencies(tree, m);
    return m;
}

} // namespace nettopo::detail
