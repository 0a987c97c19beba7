// distribute(): N ranks over an allocation, scatter or compact (the rules are
// in distribute.hpp). Scatter is hwloc_distrib() (hwloc 2, include/hwloc/
// helper.h) with two levels above the machine: leaf-switch groups, then
// hosts. Its slow twin, a brute-force check of the properties, is in
// tests/unit/query/test_distribute.cpp, and hwloc-distrib itself is the
// oracle of tests/tools/distribute_oracle.py.
#include "nettopo/query/distribute.hpp"

#include "nettopo/support/error.hpp"

#include <fmt/format.h>
#include <limits>
#include <utility>

namespace nettopo {

namespace {

// The allocation as the hierarchy sees it: hosts grouped by leaf switch.
struct Group {
    std::vector<MachineId> hosts;
    std::uint64_t pus = 0;
};

std::vector<Group> group_by_leaf_switch(const Cluster& cluster,
                                        std::span<const MachineId> allocation) {
    constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> group_of_switch(cluster.num_switches(), none);
    std::vector<bool> seen(cluster.num_machines(), false);
    const Network& net = cluster.network();
    std::vector<Group> groups;
    for (const MachineId m : allocation) {
        if (m.value >= cluster.num_machines())
            throw UsageError(fmt::format("machine id {} out of range: the cluster has {} machines",
                                         m.value, cluster.num_machines()));
        if (seen[m.value])
            throw UsageError(fmt::format("machine {} is given twice in the allocation",
                                         cluster.machine_name(m)));
        seen[m.value] = true;
        // Neighbours come in id order, machines before switches: the first
        // switch is the lowest-numbered one.
        std::uint32_t group = none;
        for (const VertexId v : net.neighbors(cluster.vertex(m)))
            if (!net.is_machine(v)) {
                std::uint32_t& g = group_of_switch[cluster.switch_of_vertex(v).value];
                if (g == none) {
                    g = static_cast<std::uint32_t>(groups.size());
                    groups.emplace_back();
                }
                group = g;
                break;
            }
        if (group == none) { // cabled to no switch: a group of its own
            group = static_cast<std::uint32_t>(groups.size());
            groups.emplace_back();
        }
        groups[group].hosts.push_back(m);
        groups[group].pus += cluster.machine_type(m).num_pus();
    }
    return groups;
}

// hwloc_distrib's share: ceil((g + w) n / W) - ceil(g n / W). The products
// stay below 2^59 (W < 2^32 PUs, n <= max_distributed_ranks < 2^27).
std::uint64_t share_of(std::uint64_t given, std::uint64_t weight, std::uint64_t n,
                       std::uint64_t total) {
    const auto ceil_div = [total](std::uint64_t a) { return (a + total - 1) / total; };
    return ceil_div((given + weight) * n) - ceil_div(given * n);
}

class Scatter {
public:
    Scatter(const Cluster& cluster, std::vector<PeId>& out) : cluster_(cluster), out_(out) {}

    void groups(const std::vector<Group>& groups, std::uint64_t n) {
        std::uint64_t total = 0;
        for (const Group& g : groups) total += g.pus;
        std::uint64_t given = 0;
        for (const Group& g : groups) {
            const std::uint64_t chunk = share_of(given, g.pus, n, total);
            given += g.pus;
            if (chunk > 0) hosts(g, chunk);
        }
    }

private:
    void hosts(const Group& group, std::uint64_t n) {
        std::uint64_t given = 0;
        for (const MachineId m : group.hosts) {
            const MachineTree& tree = cluster_.machine_type(m).tree();
            const std::uint64_t chunk = share_of(given, tree.num_pus(), n, group.pus);
            given += tree.num_pus();
            if (chunk == 0) continue;
            const ObjectId root(0);
            objects(m, tree, std::span<const ObjectId>(&root, 1), chunk);
        }
    }

    // hwloc_distrib() proper, over one host's tree.
    void objects(MachineId m, const MachineTree& tree, std::span<const ObjectId> roots,
                 std::uint64_t n) {
        std::uint64_t total = 0;
        for (const ObjectId o : roots) total += tree.object(o).pu_count;
        std::uint64_t given = 0;
        for (const ObjectId o : roots) {
            const std::uint64_t weight = tree.object(o).pu_count;
            if (weight == 0) continue; // memory only below it: hwloc skips it too
            const std::uint64_t chunk = share_of(given, weight, n, total);
            given += weight;
            if (chunk == 0) {
                // hwloc adds the object's PUs to the previous rank's set
                // (never a rank of another host: the first object of a
                // split always gets a rank), whose first PU may now be here.
                const std::uint32_t previous = cluster_.local_pu(out_.back());
                const std::uint32_t mine = first_pu(tree, o);
                if (pu_key(tree, mine) < pu_key(tree, previous))
                    out_.back() = cluster_.pes_of_machine(m)[mine];
            } else if (chunk == 1 || tree.children(o).empty()) {
                // Cannot split further: every rank given here runs on its first PU.
                const PeId pe = cluster_.pes_of_machine(m)[first_pu(tree, o)];
                out_.insert(out_.end(), chunk, pe);
            } else {
                objects(m, tree, tree.children(o), chunk);
            }
        }
    }

    // The PU hwloc_bitmap_singlify keeps of the object's cpuset: the lowest
    // OS index (the first logical one when no PU has an OS index).
    static std::uint32_t first_pu(const MachineTree& tree, ObjectId o) {
        const TreeObject& object = tree.object(o);
        std::uint32_t best = object.first_pu;
        for (std::uint32_t pu = object.first_pu; pu < object.first_pu + object.pu_count; ++pu)
            if (pu_key(tree, pu) < pu_key(tree, best)) best = pu;
        return best;
    }
    // PUs ordered by OS index (unknown ones last), then logical index.
    static std::pair<std::uint32_t, std::uint32_t> pu_key(const MachineTree& tree,
                                                          std::uint32_t pu) {
        return {tree.object(tree.pu(pu)).os_index, pu};
    }

    const Cluster& cluster_;
    std::vector<PeId>& out_;
};

void compact(const Cluster& cluster, const std::vector<Group>& groups, std::uint64_t n,
             std::vector<PeId>& out) {
    std::uint64_t total = 0;
    for (const Group& g : groups) total += g.pus;
    const std::uint64_t per_pu = n / total;
    std::uint64_t extra = n % total; // the first `extra` PUs take one rank more
    for (const Group& g : groups)
        for (const MachineId m : g.hosts) {
            const PeRange pes = cluster.pes_of_machine(m);
            for (std::uint32_t pu = 0; pu < pes.count; ++pu) {
                const std::uint64_t count = per_pu + (extra > 0 ? 1 : 0);
                if (count == 0) return;
                if (extra > 0) --extra;
                out.insert(out.end(), count, pes[pu]);
            }
        }
}

} // namespace

DistributePolicy parse_distribute_policy(std::string_view text) {
    if (text == "scatter") return DistributePolicy::Scatter;
    if (text == "compact") return DistributePolicy::Compact;
    throw ValueError(std::string(text), "unknown policy (expected scatter or compact)");
}

std::vector<MachineId> all_machines(const Cluster& cluster) {
    std::vector<MachineId> machines;
    machines.reserve(cluster.num_machines());
    for (std::uint32_t m = 0; m < cluster.num_machines(); ++m) machines.emplace_back(m);
    return machines;
}

std::vector<PeId> distribute(const Cluster& cluster, std::span<const MachineId> allocation,
                             std::uint64_t ranks, DistributePolicy policy) {
    if (ranks == 0) throw UsageError("the number of processes must be at least 1");
    if (ranks > max_distributed_ranks)
        throw UsageError(
            fmt::format("{} processes: at most {} can be placed", ranks, max_distributed_ranks));
    if (allocation.empty()) throw UsageError("no machine to place processes on");
    const std::vector<Group> groups = group_by_leaf_switch(cluster, allocation);
    std::vector<PeId> placement;
    placement.reserve(ranks);
    if (policy == DistributePolicy::Scatter)
        Scatter(cluster, placement).groups(groups, ranks);
    else
        compact(cluster, groups, ranks, placement);
    return placement;
}

} // namespace nettopo
