// distribute(): its properties on generated and random clusters, against
// brute forces that know nothing of its algorithm. (Scatter inside one
// machine is checked against hwloc-distrib itself by tests/tools/
// distribute_oracle.py.)
#include "nettopo/gen/generate.hpp"
#include "nettopo/query/distribute.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/random_cluster.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>

using namespace nettopo;

namespace {

// How many ranks each key got, keyed by the function of their PE.
template <class F>
std::map<std::uint64_t, std::uint64_t> counts_by(const std::vector<PeId>& pes, F key) {
    std::map<std::uint64_t, std::uint64_t> counts;
    for (const PeId p : pes) ++counts[key(p)];
    return counts;
}

// The counts of every key of `all` (those with none included) are within one.
void require_within_one(const std::map<std::uint64_t, std::uint64_t>& counts,
                        const std::vector<std::uint64_t>& all) {
    std::uint64_t low = UINT64_MAX, high = 0;
    for (const std::uint64_t k : all) {
        const auto it = counts.find(k);
        const std::uint64_t c = it == counts.end() ? 0 : it->second;
        low = std::min(low, c);
        high = std::max(high, c);
    }
    REQUIRE(high - low <= 1);
}

// The leaf switch of each machine, found by the test itself: the switch a
// host is cabled to (generated hosts have exactly one).
std::uint64_t leaf_of(const Cluster& c, MachineId m) {
    for (const VertexId v : c.network().neighbors(c.vertex(m)))
        if (!c.network().is_machine(v)) return v.value;
    return c.vertex(m).value;
}

// Machine hop counts by the library's search (QueryEngine), all pairs.
std::vector<std::vector<std::uint32_t>> machine_hops(const Cluster& c) {
    QueryEngine engine(c);
    std::vector<std::vector<std::uint32_t>> hops(c.num_machines(),
                                                 std::vector<std::uint32_t>(c.num_machines(), 0));
    for (std::uint32_t a = 0; a < c.num_machines(); ++a)
        for (std::uint32_t b = 0; b < c.num_machines(); ++b)
            hops[a][b] = *engine.hop_count(c.pes_of_machine(MachineId(a))[0],
                                           c.pes_of_machine(MachineId(b))[0]);
    return hops;
}

std::uint32_t min_pairwise(const std::vector<std::vector<std::uint32_t>>& hops,
                           const std::vector<std::uint32_t>& machines) {
    std::uint32_t best = UINT32_MAX;
    for (std::size_t i = 0; i < machines.size(); ++i)
        for (std::size_t j = i + 1; j < machines.size(); ++j)
            best = std::min(best, hops[machines[i]][machines[j]]);
    return best;
}

// The largest smallest pairwise hop count of any n machines: every subset.
std::uint32_t best_spread(const std::vector<std::vector<std::uint32_t>>& hops, std::uint32_t n) {
    const auto m = static_cast<std::uint32_t>(hops.size());
    std::vector<bool> pick(m, false);
    std::fill(pick.begin(), pick.begin() + n, true);
    std::uint32_t best = 0;
    do {
        std::vector<std::uint32_t> chosen;
        for (std::uint32_t i = 0; i < m; ++i)
            if (pick[i]) chosen.push_back(i);
        best = std::max(best, min_pairwise(hops, chosen));
    } while (std::prev_permutation(pick.begin(), pick.end()));
    return best;
}

// Compact's slow twin on switched networks (on a direct network compact
// takes the hosts in the allocation's order, which no greedy by hops does): rank 0 on the first PU
// of the first machine, each next rank on the free PU closest to the previous rank's (fewest hops,
// then the deepest common object in one machine), ties to the earliest machine of the allocation
// and the lowest logical index.
std::vector<PeId> closest_first(const Cluster& c, const std::vector<MachineId>& allocation,
                                std::uint32_t n) {
    const auto hops = machine_hops(c);
    std::vector<PeId> order;
    for (const MachineId m : allocation)
        for (std::uint32_t i = 0; i < c.pes_of_machine(m).count; ++i)
            order.push_back(c.pes_of_machine(m)[i]);
    std::vector<bool> used(order.size(), false);
    std::vector<PeId> placed{order.front()};
    used[0] = true;
    while (placed.size() < n) {
        const PeId last = placed.back();
        std::size_t best = order.size();
        std::pair<std::uint32_t, std::int64_t> best_key{};
        for (std::size_t i = 0; i < order.size(); ++i) {
            if (used[i]) continue;
            const PeId p = order[i];
            const std::uint32_t h = hops[c.machine_of(last).value][c.machine_of(p).value];
            const auto ancestor = c.common_ancestor(last, p);
            const std::pair<std::uint32_t, std::int64_t> key{
                h, ancestor ? -static_cast<std::int64_t>(ancestor->depth) : 0};
            if (best == order.size() || key < best_key) {
                best = i;
                best_key = key;
            }
        }
        used[best] = true;
        placed.push_back(order[best]);
    }
    return placed;
}

} // namespace

TEST_CASE("distribute: the words of --policy and what is refused", "[distribute]") {
    CHECK(parse_distribute_policy("scatter") == DistributePolicy::Scatter);
    CHECK(parse_distribute_policy("compact") == DistributePolicy::Compact);
    CHECK_THROWS_AS(parse_distribute_policy("spread"), ValueError);
    const Cluster c = generate_from_spec("ring --machines 3 --machine 'core:2 pu:1'");
    const auto all = all_machines(c);
    CHECK_THROWS_AS(distribute(c, all, 0, DistributePolicy::Scatter), UsageError);
    CHECK_THROWS_AS(distribute(c, all, max_distributed_ranks + 1, DistributePolicy::Compact),
                    UsageError);
    CHECK_THROWS_AS(distribute(c, {}, 1, DistributePolicy::Scatter), UsageError);
    const std::vector<MachineId> twice{MachineId(1), MachineId(0), MachineId(1)};
    CHECK_THROWS_WITH(distribute(c, twice, 2, DistributePolicy::Scatter),
                      Catch::Contains("given twice"));
}

TEST_CASE("distribute: compact fills the closest PUs first, as a greedy brute force does",
          "[distribute]") {
    for (const char* spec : {"fat-tree --k 2 --n 3 --machine 'pack:2 core:2 pu:2'",
                             "fat-tree --k 4 --n 2 --machine 'pack:2 l3:1 core:3 pu:1'"}) {
        CAPTURE(spec);
        const Cluster c = generate_from_spec(spec);
        const auto all = all_machines(c);
        const auto n = c.num_pes();
        CHECK(distribute(c, all, n, DistributePolicy::Compact) == closest_first(c, all, n));
        // A part of the allocation, in its own order: only its machines.
        const std::vector<MachineId> part{MachineId(2), MachineId(3), MachineId(0)};
        const std::uint32_t part_pes = c.pes_of_machine(MachineId(0)).count * 3;
        CHECK(distribute(c, part, part_pes - 1, DistributePolicy::Compact) ==
              closest_first(c, part, part_pes - 1));
    }
}

TEST_CASE("distribute: scatter spreads as far as the network allows, level by level",
          "[distribute]") {
    for (const char* spec :
         {"fat-tree --k 2 --n 3 --machine 'pack:2 core:2 pu:1'",
          "fat-tree --k 4 --n 2 --machine 'core:2 pu:1'", "fat-tree --k 4 --n 3 --machine pu:1"}) {
        CAPTURE(spec);
        const Cluster c = generate_from_spec(spec);
        const auto all = all_machines(c);
        const auto hops = machine_hops(c);
        const std::uint32_t m = c.num_machines();
        for (std::uint32_t n = 2; n <= std::min<std::uint32_t>(m, 4); ++n) {
            CAPTURE(n);
            const auto placed = distribute(c, all, n, DistributePolicy::Scatter);
            std::vector<std::uint32_t> machines;
            for (const PeId p : placed) machines.push_back(c.machine_of(p).value);
            CHECK(min_pairwise(hops, machines) == best_spread(hops, n));
        }
    }
}

TEST_CASE("distribute: counts per leaf switch, host and PU within one", "[distribute]") {
    for (const char* spec : {"fat-tree --k 4 --n 2 --machine 'pack:2 core:2 pu:2'",
                             "fat-tree --k 2 --n 3 --machine 'pack:3 core:2 pu:1'",
                             "dragonfly --p 2 --machine 'pack:2 core:2 pu:1'",
                             "torus --dims 4x3 --machine 'core:2 pu:2'"}) {
        const Cluster c = generate_from_spec(spec);
        const auto all = all_machines(c);
        std::vector<std::uint64_t> leaves, hosts, pus;
        for (const MachineId m : all) {
            leaves.push_back(leaf_of(c, m));
            hosts.push_back(m.value);
        }
        std::sort(leaves.begin(), leaves.end());
        leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
        for (std::uint32_t p = 0; p < c.num_pes(); ++p) pus.push_back(p);
        for (const auto policy : {DistributePolicy::Scatter, DistributePolicy::Compact})
            for (const std::uint64_t n :
                 {std::uint64_t{1}, std::uint64_t{5}, std::uint64_t{c.num_machines() + 1},
                  std::uint64_t{c.num_pes() - 1}, std::uint64_t{c.num_pes()},
                  std::uint64_t{2 * c.num_pes() + 3}}) {
                CAPTURE(spec, n, policy == DistributePolicy::Scatter);
                const auto placed = distribute(c, all, n, policy);
                REQUIRE(placed.size() == n);
                require_within_one(counts_by(placed, [](PeId p) { return p.value; }), pus);
                if (policy == DistributePolicy::Compact) continue;
                require_within_one(
                    counts_by(placed, [&](PeId p) { return leaf_of(c, c.machine_of(p)); }), leaves);
                require_within_one(counts_by(placed, [&](PeId p) { return c.machine_of(p).value; }),
                                   hosts);
            }
    }
}

TEST_CASE("distribute: every rank on the allocation, distinct PUs while they last",
          "[distribute]") {
    std::mt19937_64 rng(14);
    for (int round = 0; round < 40; ++round) {
        const Cluster c = test::build_cluster(test::random_cluster(rng), true);
        std::vector<MachineId> allocation = all_machines(c);
        std::shuffle(allocation.begin(), allocation.end(), rng);
        allocation.resize(1 + rng() % allocation.size());
        std::vector<bool> in(c.num_machines(), false);
        std::uint64_t pus = 0;
        for (const MachineId m : allocation) {
            in[m.value] = true;
            pus += c.pes_of_machine(m).count;
        }
        for (const auto policy : {DistributePolicy::Scatter, DistributePolicy::Compact})
            for (const std::uint64_t n : {std::uint64_t{1}, pus / 2 + 1, pus, pus + 7}) {
                CAPTURE(round, n, policy == DistributePolicy::Scatter);
                const auto placed = distribute(c, allocation, n, policy);
                REQUIRE(placed.size() == n);
                for (const PeId p : placed) REQUIRE(in[c.machine_of(p).value]);
                auto sorted = placed;
                std::sort(sorted.begin(), sorted.end());
                const auto distinct = static_cast<std::uint64_t>(
                    std::unique(sorted.begin(), sorted.end()) - sorted.begin());
                REQUIRE(distinct == std::min(n, pus));
            }
    }
}
