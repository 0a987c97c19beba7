// distribute(): N ranks over an allocation, scatter or compact (the rules are
// in distribute.hpp). Scatter is hwloc_distrib() (hwloc 2, include/hwloc/
// helper.h) with two levels above the machine: leaf-switch groups, then
// hosts. Its slow twin, a brute-force check of the properties, is in
// tests/unit/query/test_distribute.cpp, and hwloc-distrib itself is the
// oracle of tests/tools/distribute_oracle.py. With a preference for a kind of
// CPU, the same placement is made once per tier of kinds (distribute.hpp),
// over that tier's PUs alone: a pass filters the PUs, it places nothing else
// differently.
#include "nettopo/query/distribute.hpp"

#include "nettopo/support/error.hpp"
#include "query/view/allocation_check.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <utility>

namespace nettopo {

namespace {

// Which PUs one pass places ranks on: every PU (no preference), or the PUs
// of one tier of CPU kinds. tier_of[type][pu] is the tier of each PU of a
// type, empty when all of its PUs are in tier 0.
class PuFilter {
public:
    PuFilter(const Cluster& cluster, const std::vector<std::vector<std::uint32_t>>& tier_of,
             std::uint32_t tier)
        : cluster_(cluster), tier_of_(tier_of), tier_(tier), below_(tier_of.size()) {
        for (std::size_t t = 0; t < tier_of.size(); ++t) {
            if (tier_of[t].empty()) continue;
            every_pu_ = false;
            std::vector<std::uint32_t>& prefix = below_[t];
            prefix.assign(tier_of[t].size() + 1, 0);
            for (std::size_t pu = 0; pu < tier_of[t].size(); ++pu)
                prefix[pu + 1] = prefix[pu] + (tier_of[t][pu] == tier);
        }
    }
    // PUs of the pass below object `o` of machine `m`'s tree.
    std::uint32_t count(MachineId m, const TreeObject& o) const {
        if (every_pu_) return tier_ == 0 ? o.pu_count : 0; // no type lookup: the usual case
        const std::vector<std::uint32_t>& prefix = below_[cluster_.type_of(m).value];
        if (prefix.empty()) return tier_ == 0 ? o.pu_count : 0;
        return prefix[o.first_pu + o.pu_count] - prefix[o.first_pu];
    }
    // Whether PU `pu` (logical) of machine `m` is in the pass.
    bool takes(MachineId m, std::uint32_t pu) const {
        if (every_pu_) return tier_ == 0;
        const std::vector<std::uint32_t>& tiers = tier_of_[cluster_.type_of(m).value];
        return tiers.empty() ? tier_ == 0 : tiers[pu] == tier_;
    }

private:
    const Cluster& cluster_;
    const std::vector<std::vector<std::uint32_t>>& tier_of_;
    std::uint32_t tier_;
    std::vector<std::vector<std::uint32_t>> below_; // per type: tier PUs before each PU
    bool every_pu_ = true;                          // no type has tiers
};

// The allocation as the hierarchy sees it: hosts grouped by leaf switch.
struct Group {
    std::vector<MachineId> hosts;
};

std::vector<Group> group_by_leaf_switch(const Cluster& cluster,
                                        std::span<const MachineId> allocation) {
    constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> group_of_switch(cluster.num_switches(), none);
    const Network& net = cluster.network();
    std::vector<Group> groups;
    for (const MachineId m : allocation) {
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
    }
    return groups;
}

// The PUs of a pass below a host, and below a group of hosts.
std::uint64_t pus_of(const Cluster& cluster, const PuFilter& pass, MachineId m) {
    return pass.count(m, cluster.machine_type(m).tree().object(ObjectId(0)));
}
std::uint64_t pus_of(const Cluster& cluster, const PuFilter& pass, const Group& g) {
    std::uint64_t n = 0;
    for (const MachineId m : g.hosts) n += pus_of(cluster, pass, m);
    return n;
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
    Scatter(const Cluster& cluster, const PuFilter& pass, std::vector<PeId>& out)
        : cluster_(cluster), pass_(pass), out_(out) {}

    void groups(const std::vector<Group>& groups, std::uint64_t n) {
        std::vector<std::uint64_t> weights;
        std::uint64_t total = 0;
        for (const Group& g : groups) total += weights.emplace_back(pus_of(cluster_, pass_, g));
        std::uint64_t given = 0;
        for (std::size_t i = 0; i < groups.size(); ++i) {
            const std::uint64_t chunk = share_of(given, weights[i], n, total);
            given += weights[i];
            if (chunk > 0) hosts(groups[i], weights[i], chunk);
        }
    }

private:
    void hosts(const Group& group, std::uint64_t group_pus, std::uint64_t n) {
        std::uint64_t given = 0;
        for (const MachineId m : group.hosts) {
            const MachineTree& tree = cluster_.machine_type(m).tree();
            const std::uint64_t weight = pus_of(cluster_, pass_, m);
            const std::uint64_t chunk = share_of(given, weight, n, group_pus);
            given += weight;
            if (chunk == 0) continue;
            const ObjectId root(0);
            objects(m, tree, std::span<const ObjectId>(&root, 1), chunk);
        }
    }

    // hwloc_distrib() proper, over one host's tree (the pass's PUs of it).
    void objects(MachineId m, const MachineTree& tree, std::span<const ObjectId> roots,
                 std::uint64_t n) {
        std::uint64_t total = 0;
        for (const ObjectId o : roots) total += pass_.count(m, tree.object(o));
        std::uint64_t given = 0;
        for (const ObjectId o : roots) {
            const std::uint64_t weight = pass_.count(m, tree.object(o));
            if (weight == 0) continue; // memory only below it: hwloc skips it too
            const std::uint64_t chunk = share_of(given, weight, n, total);
            given += weight;
            if (chunk == 0) {
                // hwloc adds the object's PUs to the previous rank's set
                // (never a rank of another host: the first object of a
                // split always gets a rank), whose first PU may now be here.
                const std::uint32_t previous = cluster_.local_pu(out_.back());
                const std::uint32_t mine = first_pu(m, tree, o);
                if (pu_key(tree, mine) < pu_key(tree, previous))
                    out_.back() = cluster_.pes_of_machine(m)[mine];
            } else if (chunk == 1 || tree.children(o).empty()) {
                // Cannot split further: every rank given here runs on its first PU.
                const PeId pe = cluster_.pes_of_machine(m)[first_pu(m, tree, o)];
                out_.insert(out_.end(), chunk, pe);
            } else {
                objects(m, tree, tree.children(o), chunk);
            }
        }
    }

    // The PU hwloc_bitmap_singlify keeps of the object's cpuset (its PUs in
    // the pass): the lowest OS index (the first logical one when no PU has
    // an OS index).
    std::uint32_t first_pu(MachineId m, const MachineTree& tree, ObjectId o) const {
        const TreeObject& object = tree.object(o);
        std::uint32_t best = object.first_pu + object.pu_count;
        for (std::uint32_t pu = object.first_pu; pu < object.first_pu + object.pu_count; ++pu)
            if (pass_.takes(m, pu) && (best == object.first_pu + object.pu_count ||
                                       pu_key(tree, pu) < pu_key(tree, best)))
                best = pu;
        return best;
    }
    // PUs ordered by OS index (unknown ones last), then logical index.
    static std::pair<std::uint32_t, std::uint32_t> pu_key(const MachineTree& tree,
                                                          std::uint32_t pu) {
        return {tree.object(tree.pu(pu)).os_index, pu};
    }

    const Cluster& cluster_;
    const PuFilter& pass_;
    std::vector<PeId>& out_;
};

void compact(const Cluster& cluster, const PuFilter& pass, const std::vector<Group>& groups,
             std::uint64_t n, std::vector<PeId>& out) {
    std::uint64_t total = 0;
    for (const Group& g : groups) total += pus_of(cluster, pass, g);
    const std::uint64_t per_pu = n / total;
    std::uint64_t extra = n % total; // the first `extra` PUs take one rank more
    for (const Group& g : groups)
        for (const MachineId m : g.hosts) {
            const PeRange pes = cluster.pes_of_machine(m);
            for (std::uint32_t pu = 0; pu < pes.count; ++pu) {
                if (!pass.takes(m, pu)) continue;
                const std::uint64_t count = per_pu + (extra > 0 ? 1 : 0);
                if (count == 0) return;
                if (extra > 0) --extra;
                out.insert(out.end(), count, pes[pu]);
            }
        }
}

// The tier of each PU of each type (PuFilter): its kind's place in the
// preferred order of the type's distinct known efficiencies (the highest
// first for performance, the lowest first for efficiency), PUs in no kind
// after every kind. Empty (all tier 0) without a preference, and for a type
// with fewer than two ranked kinds: nothing to prefer there.
std::vector<std::vector<std::uint32_t>> tiers_of(const Cluster& cluster, CpuKindPreference prefer) {
    std::vector<std::vector<std::uint32_t>> tiers(cluster.num_types());
    if (prefer == CpuKindPreference::none) return tiers;
    for (std::uint32_t t = 0; t < cluster.num_types(); ++t) {
        const MachineTree& tree = cluster.type(TypeId(t)).tree();
        std::vector<std::int32_t> ranks;
        for (const CpuKind& k : tree.cpu_kinds())
            if (k.efficiency != unknown_cpu_kind_efficiency) ranks.push_back(k.efficiency);
        std::sort(ranks.begin(), ranks.end());
        ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
        if (ranks.size() < 2) continue;
        if (prefer == CpuKindPreference::performance) std::reverse(ranks.begin(), ranks.end());
        std::vector<std::uint32_t>& tier = tiers[t];
        tier.assign(tree.num_pus(), static_cast<std::uint32_t>(ranks.size()));
        for (std::uint32_t pu = 0; pu < tree.num_pus(); ++pu)
            if (const auto k = tree.cpu_kind_of_pu(pu)) {
                const std::int32_t e = tree.cpu_kinds()[*k].efficiency;
                tier[pu] = static_cast<std::uint32_t>(std::find(ranks.begin(), ranks.end(), e) -
                                                      ranks.begin());
            }
    }
    return tiers;
}

} // namespace

DistributePolicy parse_distribute_policy(std::string_view text) {
    if (text == "scatter") return DistributePolicy::Scatter;
    if (text == "compact") return DistributePolicy::Compact;
    throw ValueError(std::string(text), "unknown policy (expected scatter or compact)");
}

CpuKindPreference parse_cpu_kind_preference(std::string_view text) {
    if (text == "performance") return CpuKindPreference::performance;
    if (text == "efficiency") return CpuKindPreference::efficiency;
    throw ValueError(std::string(text), "unknown preference (expected performance or efficiency)");
}

std::vector<MachineId> all_machines(const Cluster& cluster) {
    std::vector<MachineId> machines;
    machines.reserve(cluster.num_machines());
    for (std::uint32_t m = 0; m < cluster.num_machines(); ++m) machines.emplace_back(m);
    return machines;
}

bool has_ranked_cpu_kinds(const Cluster& cluster, std::span<const MachineId> allocation) {
    const std::vector<std::vector<std::uint32_t>> tier_of =
        tiers_of(cluster, CpuKindPreference::performance);
    for (const MachineId m : allocation)
        if (m.value < cluster.num_machines() && !tier_of[cluster.type_of(m).value].empty())
            return true;
    return false;
}

std::vector<PeId> distribute(const Cluster& cluster, std::span<const MachineId> allocation,
                             std::uint64_t ranks, DistributePolicy policy,
                             CpuKindPreference prefer) {
    if (ranks == 0) throw UsageError("the number of processes must be at least 1");
    if (ranks > max_distributed_ranks)
        throw UsageError(
            fmt::format("{} processes: at most {} can be placed", ranks, max_distributed_ranks));
    detail::check_allocation(cluster, allocation, "processes");
    const std::vector<Group> groups = group_by_leaf_switch(cluster, allocation);
    const std::vector<std::vector<std::uint32_t>> tier_of = tiers_of(cluster, prefer);
    std::vector<PeId> placement;
    placement.reserve(ranks);
    // Tier t's share: floor(N/P) ranks per PU of it, and the PUs of the
    // preferred tiers first take the N mod P ranks left (N <= P: the first
    // tiers are filled, one rank per PU, before the next gets any).
    std::uint32_t tiers = 1;
    for (const std::vector<std::uint32_t>& type_tiers : tier_of)
        for (const std::uint32_t t : type_tiers) tiers = std::max(tiers, t + 1);
    std::uint64_t all = 0;
    std::vector<std::uint64_t> tier_pus;
    for (std::uint32_t tier = 0; tier < tiers; ++tier) {
        const PuFilter pass(cluster, tier_of, tier);
        std::uint64_t n = 0;
        for (const Group& g : groups) n += pus_of(cluster, pass, g);
        tier_pus.push_back(n);
        all += n;
    }
    const std::uint64_t per_pu = ranks / all;
    std::uint64_t extra = ranks % all;
    for (std::uint32_t tier = 0; tier < tier_pus.size(); ++tier) {
        const std::uint64_t more = std::min(extra, tier_pus[tier]);
        extra -= more;
        const std::uint64_t n = per_pu * tier_pus[tier] + more;
        if (n == 0) continue;
        const PuFilter pass(cluster, tier_of, tier);
        if (policy == DistributePolicy::Scatter)
            Scatter(cluster, pass, placement).groups(groups, n);
        else
            compact(cluster, pass, groups, n, placement);
    }
    return placement;
}

} // namespace nettopo
