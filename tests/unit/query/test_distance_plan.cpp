// The one front door to distances (distance_plan.hpp): what the plan picks,
// that whatever it picks answers as the search does, and QueryEngine's
// default policy.
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/query/summary.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/random_cluster.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <random>

using namespace nettopo;

namespace {

// Every PE pair's hop count and distance through `index` equal a search's.
void require_same_answers(const Cluster& c, const DistanceIndex* index) {
    QueryEngine searched(c, nullptr);
    QueryEngine looked_up(c, index);
    for (std::uint32_t a = 0; a < c.num_pes(); ++a)
        for (std::uint32_t b = 0; b < c.num_pes(); ++b) {
            REQUIRE(looked_up.hop_count(PeId(a), PeId(b)) == searched.hop_count(PeId(a), PeId(b)));
            REQUIRE(looked_up.distance(PeId(a), PeId(b)) == searched.distance(PeId(a), PeId(b)));
        }
}

DistancePolicy policy_of(IndexUse use, std::optional<std::uint64_t> questions = std::nullopt,
                         DistanceIndexKind kind = DistanceIndexKind::Auto) {
    DistancePolicy p;
    p.use = use;
    p.questions = questions;
    p.kind = kind;
    return p;
}

// The index the plan builds for `questions` under `use`, nullptr to search.
std::shared_ptr<const DistanceIndex> index_for(const Cluster& c, IndexUse use,
                                               std::optional<std::uint64_t> questions,
                                               DistancePolicy policy = {}) {
    policy.use = use;
    policy.questions = questions;
    DistancePlan plan = plan_distances(c, policy);
    if (plan.kind() == DistanceIndexKind::Search) return nullptr;
    const DistanceIndexKind planned = plan.kind();
    auto index = build_distances(c, std::move(plan));
    // The plan says what answers (labels may fall back to rows).
    if (planned != DistanceIndexKind::Labels) CHECK(index->kind() == planned);
    return index;
}

} // namespace

TEST_CASE("distance plan: a family's closed form from the first question", "[distance-plan]") {
    const Cluster torus = generate_from_spec("torus --dims 4x3 --machine 'core:2 pu:1'");
    for (const auto questions : {std::optional<std::uint64_t>{}, std::optional<std::uint64_t>{1}}) {
        const auto index = index_for(torus, IndexUse::Auto, questions);
        REQUIRE(index);
        CHECK(index->kind() == DistanceIndexKind::ClosedForm);
        require_same_answers(torus, index.get());
    }
    CHECK_FALSE(index_for(torus, IndexUse::Never, 1000000));
}

TEST_CASE("distance plan: the general index when the batch pays for it", "[distance-plan]") {
    std::mt19937_64 rng(14);
    for (int round = 0; round < 30; ++round) {
        const Cluster c = test::build_cluster(test::random_cluster(rng), true);
        if (c.num_machines() < 2) continue;
        CAPTURE(round, c.num_machines(), c.num_switches());
        // No family: a search for one question or an unknown batch, ...
        CHECK_FALSE(index_for(c, IndexUse::Auto, 1));
        CHECK_FALSE(index_for(c, IndexUse::Auto, std::nullopt));
        // ... the general index for a batch far larger than the core, and
        // always when asked.
        const auto big = index_for(c, IndexUse::Auto, std::uint64_t{1} << 40);
        REQUIRE(big);
        CHECK(big->kind() != DistanceIndexKind::ClosedForm);
        require_same_answers(c, big.get());
        const auto always = index_for(c, IndexUse::Always, 1);
        REQUIRE(always);
        require_same_answers(c, always.get());
    }
}

TEST_CASE("distance plan: hop histograms from the index equal a search's", "[distance-plan]") {
    std::mt19937_64 rng(1414);
    for (int round = 0; round < 30; ++round) {
        const Cluster c = test::build_cluster(test::random_cluster(rng), true);
        CAPTURE(round, c.num_machines(), c.num_switches());
        for (const std::uint32_t sources : {4096u, 3u}) {
            const HopDistribution searched = machine_hop_distribution(c, sources, IndexUse::Never);
            const HopDistribution indexed = machine_hop_distribution(c, sources, IndexUse::Always);
            CHECK(indexed.pairs_at_hops == searched.pairs_at_hops);
            CHECK(indexed.unreachable_pairs == searched.unreachable_pairs);
            CHECK(indexed.sources == searched.sources);
        }
    }
    const Cluster torus = generate_from_spec("torus --dims 5x4");
    CHECK(machine_hop_distribution(torus, 4096, IndexUse::Always).pairs_at_hops ==
          machine_hop_distribution(torus, 4096, IndexUse::Never).pairs_at_hops);
}

namespace {

// The histogram as a search from each sampled source counts it, pair by
// pair: the oracle of machine_hop_distribution, which looks a row up once
// per class of twins (machines with the same neighbours).
HopDistribution hops_pair_by_pair(const Cluster& c, std::uint32_t max_sources) {
    HopDistribution d;
    const std::uint32_t machines = c.num_machines();
    d.all_sources = machines <= max_sources;
    const std::uint32_t sources = d.all_sources ? machines : max_sources;
    NetworkSearch search(c.network());
    std::vector<std::uint32_t> hops;
    for (std::uint32_t i = 0; i < sources; ++i) {
        const auto s = static_cast<std::uint32_t>(std::uint64_t{i} * machines / sources);
        search.hops_from(VertexId(s), hops);
        for (std::uint32_t t = 0; t < machines; ++t) {
            if (t == s) continue;
            if (hops[t] == NetworkSearch::unreachable_hops) {
                ++d.unreachable_pairs;
                continue;
            }
            if (hops[t] >= d.pairs_at_hops.size()) d.pairs_at_hops.resize(hops[t] + 1, 0);
            ++d.pairs_at_hops[hops[t]];
        }
    }
    d.sources = sources;
    return d;
}

void require_histogram_pair_by_pair(const Cluster& c) {
    for (const std::uint32_t sources : {4096u, 7u, 2u}) {
        const HopDistribution expected = hops_pair_by_pair(c, sources);
        for (const IndexUse use : {IndexUse::Never, IndexUse::Always}) {
            const HopDistribution got = machine_hop_distribution(c, sources, use);
            CHECK(got.pairs_at_hops == expected.pairs_at_hops);
            CHECK(got.unreachable_pairs == expected.unreachable_pairs);
            CHECK(got.sources == expected.sources);
            CHECK(got.all_sources == expected.all_sources);
        }
    }
}

} // namespace

TEST_CASE("hop histograms: twins share a row, the counts are a pair-by-pair search's",
          "[distance-plan][summary]") {
    std::mt19937_64 rng(1416);
    for (int round = 0; round < 40; ++round) {
        const Cluster c = test::build_cluster(test::random_cluster(rng), true);
        CAPTURE(round, c.num_machines(), c.num_switches());
        require_histogram_pair_by_pair(c);
    }
    // Many twins: a fat-tree's hosts under one leaf, a torus (none), a
    // dragonfly's routers' hosts.
    for (const char* spec :
         {"fat-tree --k 4 --n 3", "torus --dims 5x4", "dragonfly --a 4 --p 2 --h 2"}) {
        CAPTURE(spec);
        require_histogram_pair_by_pair(generate_from_spec(spec));
    }
    // The real DGX SuperPOD fabric: hosts of 1 to 4 adapters, end hosts.
    const std::string path =
        std::string(NETTOPO_SHARED_DATA) + "/fabrics/dgx-superpod-cs8500.ibnetdiscover";
    std::ifstream in(path);
    REQUIRE(in);
    const Fabric f = read_ibnetdiscover(in, path);
    AssembleOptions o;
    o.default_machine = "pu:1";
    require_histogram_pair_by_pair(assemble_cluster({}, &f, o).cluster);
}

TEST_CASE("distance plan: a kept index serves every batch unless searching is forced",
          "[distance-plan]") {
    std::mt19937_64 rng(1415);
    for (int round = 0; round < 10; ++round) {
        const Cluster c = test::build_cluster(test::random_cluster(rng), true);
        if (c.num_machines() < 2) continue;
        CAPTURE(round, c.num_machines(), c.num_switches());
        const std::shared_ptr<const DistanceIndex> kept = build_distance_index(c);
        for (const IndexUse use : {IndexUse::Auto, IndexUse::Always}) {
            // Even one question, which alone would search, takes what is kept.
            DistancePolicy policy = policy_of(use, 1);
            policy.kept = kept;
            DistancePlan plan = plan_distances(c, policy);
            CHECK(plan.kind() == kept->kind());
            CHECK(plan.build_searches() == 0);
            CHECK(build_distances(c, std::move(plan)) == kept);
        }
        DistancePolicy never = policy_of(IndexUse::Never, 1000000);
        never.kept = kept;
        CHECK(plan_distances(c, never).kind() == DistanceIndexKind::Search);
        // Nothing kept: the rule's own choice.
        const auto built = index_for(c, IndexUse::Always, 1);
        REQUIRE(built);
        require_same_answers(c, built.get());
        CHECK_FALSE(index_for(c, IndexUse::Auto, 1));
    }
}

TEST_CASE("distance plan: kind Search answers every question by a search", "[distance-plan]") {
    std::mt19937_64 rng(4114);
    for (int round = 0; round < 30; ++round) {
        const Cluster c = test::build_cluster(test::random_cluster(rng), true);
        CAPTURE(round, c.num_machines(), c.num_switches());
        DistancePolicy search;
        search.kind = DistanceIndexKind::Search;
        const auto searched = build_distance_index(c, search);
        CHECK(searched->kind() == DistanceIndexKind::Search);
        // Held to an index built otherwise (unreachable pairs included) ...
        DistancePolicy dense;
        dense.kind = DistanceIndexKind::DenseTable;
        const auto table = build_distance_index(c, dense);
        for (std::uint32_t a = 0; a < c.num_machines(); ++a)
            for (std::uint32_t b = 0; b < c.num_machines(); ++b) {
                REQUIRE(searched->hops(MachineId(a), MachineId(b)) ==
                        table->hops(MachineId(a), MachineId(b)));
                REQUIRE(searched->latency_ps(MachineId(a), MachineId(b)) ==
                        table->latency_ps(MachineId(a), MachineId(b)));
            }
        // ... and, PE by PE, to the engine's own search.
        require_same_answers(c, searched.get());
    }
}

TEST_CASE("distance plan: says what answers, its memory and its cost", "[distance-plan]") {
    const Cluster torus = generate_from_spec("torus --dims 4x3 --machine 'core:2 pu:1'");
    const DistancePlan closed = plan_distances(torus);
    CHECK(closed.kind() == DistanceIndexKind::ClosedForm);
    CHECK(closed.build_searches() == 0); // the plan built it: its check is its build
    CHECK(closed.memory_bytes() > 0);
    CHECK_THAT(closed.reason(), Catch::Contains("torus"));

    std::mt19937_64 rng(2525);
    for (int round = 0; round < 20; ++round) {
        const Cluster c = test::build_cluster(test::random_cluster(rng), true);
        if (c.num_machines() < 2) continue;
        CAPTURE(round, c.num_machines(), c.num_switches());
        DistancePlan plan = plan_distances(c, policy_of(IndexUse::Always));
        CHECK(plan.kind() != DistanceIndexKind::Search);
        CHECK(plan.build_searches() > 0);
        const std::size_t estimate = plan.memory_bytes();
        const DistanceIndexKind kind = plan.kind();
        const auto index = build_distances(c, std::move(plan));
        if (kind == DistanceIndexKind::DenseTable) CHECK(index->memory_bytes() >= estimate / 2);
        CHECK(index->memory_bytes() <= DistancePolicy{}.memory_budget_bytes);
        // Forced kinds are planned as such, or refused.
        for (const auto forced : {DistanceIndexKind::DenseTable, DistanceIndexKind::Labels,
                                  DistanceIndexKind::RowCache, DistanceIndexKind::Search}) {
            const DistancePlan p =
                plan_distances(c, policy_of(IndexUse::Auto, std::nullopt, forced));
            CHECK(p.kind() == forced);
        }
        CHECK_THROWS_AS(plan_distances(c, policy_of(IndexUse::Auto, std::nullopt,
                                                    DistanceIndexKind::ClosedForm)),
                        UsageError);
        // A batch smaller than the build searches; one far larger builds.
        CHECK(plan_distances(c, policy_of(IndexUse::Auto, 0)).kind() == DistanceIndexKind::Search);
        CHECK(plan_distances(c, policy_of(IndexUse::Auto, std::uint64_t{1} << 40)).kind() !=
              DistanceIndexKind::Search);
    }
}

TEST_CASE("distance plan: QueryEngine's default policy", "[distance-plan][query-engine]") {
    SECTION("a family answers by its closed form from the first question") {
        const Cluster torus = generate_from_spec("torus --dims 6x5 --machine 'core:2 pu:1'");
        QueryEngine engine(torus), searched(torus, nullptr);
        CHECK_FALSE(engine.index()); // nothing planned before the first question
        CHECK(engine.hop_count(PeId(0), PeId(59)) == searched.hop_count(PeId(0), PeId(59)));
        REQUIRE(engine.index());
        CHECK(engine.index()->kind() == DistanceIndexKind::ClosedForm);
    }
    SECTION("other clusters search, then build once the questions would have paid") {
        std::mt19937_64 rng(2526);
        int built = 0;
        for (int round = 0; round < 20; ++round) {
            const Cluster c = test::build_cluster(test::random_cluster(rng), true);
            if (c.num_machines() < 3) continue;
            CAPTURE(round, c.num_machines(), c.num_switches());
            QueryEngine engine(c), searched(c, nullptr);
            const DistancePlan plan = plan_distances(c, policy_of(IndexUse::Always));
            // The questions after which the rule builds: the first look past
            // the estimated build cost (looks at 16, 32, 64, ...).
            std::uint64_t expect = 16;
            while (static_cast<double>(expect) < plan.build_searches()) expect *= 2;
            std::mt19937_64 pick(round);
            std::uint64_t asked = 0;
            while (!engine.index() && asked <= 2 * expect + 2) {
                const PeId a(static_cast<std::uint32_t>(pick() % c.num_pes()));
                const PeId b(static_cast<std::uint32_t>(pick() % c.num_pes()));
                if (c.machine_of(a) == c.machine_of(b)) continue;
                REQUIRE(engine.hop_count(a, b) == searched.hop_count(a, b));
                REQUIRE(engine.distance(a, b) == searched.distance(a, b));
                asked += 2;
            }
            REQUIRE(engine.index());
            CHECK(asked <= 2 * expect + 2);
            CHECK(asked >= 16);
            ++built;
            require_same_answers(c, engine.index());
        }
        CHECK(built > 5);
    }
    SECTION("use Never searches whatever the questions") {
        const Cluster torus = generate_from_spec("torus --dims 4x4");
        QueryEngine engine(torus, policy_of(IndexUse::Never));
        for (std::uint32_t i = 0; i < 200; ++i) engine.hop_count(PeId(i % 16), PeId(15 - i % 16));
        CHECK_FALSE(engine.index());
    }
}
