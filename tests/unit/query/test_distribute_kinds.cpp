// distribute(..., prefer): on hybrid machines, the preferred kind of CPU is
// filled first (distribute.hpp states the rule). The slow twin knows nothing
// of how distribute filters PUs: it cuts each host's tree down to the PUs of
// one tier, places that tier's ranks on the smaller cluster with the plain
// call, and maps them back by host name and OS index.
#include "nettopo/formats/load.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/query/distribute.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/real_data.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using namespace nettopo;

namespace {

// A hybrid package: 2 performance cores with an L2 each and 2 PUs (PUs
// 0-3, kind 1), then 4 efficiency cores sharing an L2 (PUs 4-7, kind 0).
// OS indexes run backwards, so "first PU" (lowest OS index) is not the
// first logical one.
MachineTree hybrid_tree() {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    const ObjectId pack = b.add(ObjectType::Package, root, 0);
    std::uint32_t os = 8;
    for (int c = 0; c < 2; ++c) {
        const ObjectId core = b.add(ObjectType::Core, b.add(ObjectType::L2, pack));
        b.add(ObjectType::PU, core, --os);
        b.add(ObjectType::PU, core, --os);
    }
    const ObjectId shared = b.add(ObjectType::L2, pack);
    for (int c = 0; c < 4; ++c) b.add(ObjectType::PU, b.add(ObjectType::Core, shared), --os);
    b.add_cpu_kind(CpuKind{1, {{"CoreType", "Big"}}}, std::vector<std::uint32_t>{0, 1, 2, 3});
    b.add_cpu_kind(CpuKind{0, {{"CoreType", "Small"}}}, std::vector<std::uint32_t>{4, 5, 6, 7});
    return std::move(b).finish();
}

// Hosts named h0, h1, ... of the given trees below one switch (one host:
// no switch).
Cluster cluster_of(const std::vector<MachineTree>& trees,
                   const std::vector<std::string>& names = {}) {
    ClusterBuilder b("hybrid");
    const bool switched = trees.size() > 1;
    if (switched) b.add_switch("sw");
    for (std::size_t i = 0; i < trees.size(); ++i) {
        const TypeId t =
            b.add_type(MachineType("t", trees[i], NodeLevel{}, LevelLatencies::defaults()));
        const std::string name = names.empty() ? fmt::format("h{}", i) : names[i];
        const MachineId m = b.add_machine(name, t);
        if (switched) b.add_link({false, m.value}, {true, 0}, 100);
    }
    return std::move(b).build();
}

// The tree of the PUs `keep` takes (OS indexes and sizes kept, objects with
// none of them below dropped, memory dropped: distribute does not use it).
MachineTree pruned(const MachineTree& t, const std::function<bool(std::uint32_t)>& keep) {
    std::vector<std::uint32_t> kept_below(t.num_objects(), 0);
    for (std::uint32_t pu = 0; pu < t.num_pus(); ++pu)
        if (keep(pu))
            for (ObjectId o = t.pu(pu); o.valid(); o = t.object(o).parent) ++kept_below[o.value];
    MachineTree::Builder b;
    std::vector<ObjectId> id(t.num_objects());
    for (std::uint32_t i = 0; i < t.num_objects(); ++i) {
        const TreeObject& o = t.objects()[i];
        if (kept_below[i] == 0) continue;
        id[i] = b.add(o.type, o.parent.valid() ? id[o.parent.value] : ObjectId(), o.os_index,
                      o.size_bytes);
    }
    return std::move(b).finish();
}

// The tier of each PU of a tree under a preference, as distribute.hpp
// states it, found again here.
std::vector<std::uint32_t> tiers(const MachineTree& t, CpuKindPreference prefer) {
    std::vector<std::int32_t> ranks;
    for (const CpuKind& k : t.cpu_kinds())
        if (k.efficiency >= 0) ranks.push_back(k.efficiency);
    std::sort(ranks.begin(), ranks.end());
    if (prefer == CpuKindPreference::performance) std::reverse(ranks.begin(), ranks.end());
    std::vector<std::uint32_t> tier(t.num_pus(), 0);
    if (ranks.size() < 2) return tier;
    for (std::uint32_t pu = 0; pu < t.num_pus(); ++pu) {
        const auto k = t.cpu_kind_of_pu(pu);
        tier[pu] = k ? static_cast<std::uint32_t>(
                           std::find(ranks.begin(), ranks.end(), t.cpu_kinds()[*k].efficiency) -
                           ranks.begin())
                     : static_cast<std::uint32_t>(ranks.size());
    }
    return tier;
}

// (host, OS index) of each rank.
using Placement = std::vector<std::pair<std::string, std::uint32_t>>;
Placement named(const Cluster& c, const std::vector<PeId>& pes) {
    Placement out;
    for (const PeId p : pes) {
        const MachineTree& t = c.machine_type(c.machine_of(p)).tree();
        out.emplace_back(std::string(c.machine_name(c.machine_of(p))),
                         t.object(t.pu(c.local_pu(p))).os_index);
    }
    return out;
}

// The slow twin: tier by tier, the plain placement on the hosts cut down to
// the tier's PUs, N split among the tiers as distribute.hpp says.
Placement twin(const std::vector<MachineTree>& trees, std::uint64_t n, DistributePolicy policy,
               CpuKindPreference prefer) {
    std::vector<std::vector<std::uint32_t>> tier_of;
    std::uint32_t num_tiers = 1;
    std::uint64_t all = 0;
    for (const MachineTree& t : trees) {
        tier_of.push_back(tiers(t, prefer));
        for (const std::uint32_t x : tier_of.back()) num_tiers = std::max(num_tiers, x + 1);
        all += t.num_pus();
    }
    std::uint64_t extra = n % all;
    Placement out;
    for (std::uint32_t tier = 0; tier < num_tiers; ++tier) {
        std::vector<MachineTree> cut;
        std::vector<std::string> names;
        std::uint64_t pus = 0;
        for (std::size_t h = 0; h < trees.size(); ++h) {
            const auto in_tier = [&](std::uint32_t pu) { return tier_of[h][pu] == tier; };
            if (std::none_of(tier_of[h].begin(), tier_of[h].end(),
                             [&](std::uint32_t x) { return x == tier; }))
                continue;
            cut.push_back(pruned(trees[h], in_tier));
            names.push_back(fmt::format("h{}", h));
            pus += cut.back().num_pus();
        }
        const std::uint64_t more = std::min(extra, pus);
        extra -= more;
        const std::uint64_t ranks = n / all * pus + more;
        if (ranks == 0) continue;
        // One host alone is one group, cabled to a switch or not.
        const Cluster c = cluster_of(cut, names);
        const Placement part = named(c, distribute(c, all_machines(c), ranks, policy));
        out.insert(out.end(), part.begin(), part.end());
    }
    return out;
}

void check_against_twin(const std::vector<MachineTree>& trees, std::uint64_t max_ranks) {
    const Cluster c = cluster_of(trees);
    const std::vector<MachineId> all = all_machines(c);
    for (const DistributePolicy policy : {DistributePolicy::Scatter, DistributePolicy::Compact})
        for (const CpuKindPreference prefer :
             {CpuKindPreference::performance, CpuKindPreference::efficiency})
            for (std::uint64_t n = 1; n <= max_ranks; ++n) {
                INFO("policy " << static_cast<int>(policy) << ", prefer "
                               << static_cast<int>(prefer) << ", " << n << " ranks");
                REQUIRE(named(c, distribute(c, all, n, policy, prefer)) ==
                        twin(trees, n, policy, prefer));
            }
}

} // namespace

TEST_CASE("distribute kinds: the words of --prefer", "[distribute][cpu_kinds]") {
    CHECK(parse_cpu_kind_preference("performance") == CpuKindPreference::performance);
    CHECK(parse_cpu_kind_preference("efficiency") == CpuKindPreference::efficiency);
    CHECK_THROWS_AS(parse_cpu_kind_preference("fast"), ValueError);
}

TEST_CASE("distribute kinds: the preferred kind first, as the slow twin places it",
          "[distribute][cpu_kinds]") {
    const MachineTree hybrid = hybrid_tree();
    // performance: ranks 0-3 on the big cores' PUs; efficiency: the small ones.
    const Cluster one = cluster_of({hybrid});
    const std::vector<MachineId> all = all_machines(one);
    for (const PeId p :
         distribute(one, all, 4, DistributePolicy::Scatter, CpuKindPreference::performance))
        CHECK(one.cpu_kind_of(p)->infos[0].value == "Big");
    for (const PeId p :
         distribute(one, all, 4, DistributePolicy::Compact, CpuKindPreference::efficiency))
        CHECK(one.cpu_kind_of(p)->infos[0].value == "Small");
    check_against_twin({hybrid}, 2 * hybrid.num_pus() + 3);
    // Two hybrid hosts and a homogeneous one (all its PUs in tier 0), below
    // one switch.
    MachineTree::Builder plain;
    const ObjectId root = plain.add(ObjectType::Machine, ObjectId());
    for (std::uint32_t c = 0; c < 3; ++c)
        plain.add(ObjectType::PU, plain.add(ObjectType::Core, root, c), c);
    check_against_twin({hybrid, std::move(plain).finish(), hybrid}, 45);
}

TEST_CASE("distribute kinds: no preference, or nothing to prefer, changes nothing",
          "[distribute][cpu_kinds]") {
    const MachineTree hybrid = hybrid_tree();
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    for (std::uint32_t c = 0; c < 4; ++c) b.add(ObjectType::PU, b.add(ObjectType::Core, root), c);
    b.add_cpu_kind(CpuKind{0, {{"FrequencyMaxMHz", "3000"}}},
                   std::vector<std::uint32_t>{0, 1, 2, 3}); // one kind: homogeneous
    const MachineTree single = std::move(b).finish();
    CHECK(single.cpu_kinds().empty()); // not kept (min_cpu_kinds)
    const Cluster c = cluster_of({hybrid, single});
    const Cluster homogeneous = cluster_of({single, single});
    CHECK(has_ranked_cpu_kinds(c, all_machines(c)));
    CHECK_FALSE(has_ranked_cpu_kinds(c, std::vector<MachineId>{MachineId(1)}));
    CHECK_FALSE(has_ranked_cpu_kinds(homogeneous, all_machines(homogeneous)));
    for (const DistributePolicy policy : {DistributePolicy::Scatter, DistributePolicy::Compact})
        for (std::uint64_t n = 1; n <= 30; ++n) {
            CHECK(distribute(c, all_machines(c), n, policy) ==
                  distribute(c, all_machines(c), n, policy, CpuKindPreference::none));
            for (const CpuKindPreference p :
                 {CpuKindPreference::performance, CpuKindPreference::efficiency})
                CHECK(distribute(homogeneous, all_machines(homogeneous), n, policy, p) ==
                      distribute(homogeneous, all_machines(homogeneous), n, policy));
        }
}

TEST_CASE("distribute kinds: the hybrid exports", "[distribute][cpu_kinds]") {
    for (const std::string& path : test::hybrid_xmls()) {
        INFO(path);
        const MachineTree tree = load_cluster(path).type(TypeId(0)).tree();
        check_against_twin({tree}, 2 * tree.num_pus() + 1);
    }
}
