// The tools' rule for building a distance index or searching: what it picks,
// and that whatever it picks answers as the search does.
#include "nettopo/gen/generate.hpp"
#include "nettopo/query/index_choice.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/query/summary.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/random_cluster.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace nettopo;

namespace {

// Every PE pair's hop count and distance through `index` equal a search's.
void require_same_answers(const Cluster& c, const DistanceIndex* index) {
    QueryEngine searched(c);
    QueryEngine looked_up(c, index);
    for (std::uint32_t a = 0; a < c.num_pes(); ++a)
        for (std::uint32_t b = 0; b < c.num_pes(); ++b) {
            REQUIRE(looked_up.hop_count(PeId(a), PeId(b)) == searched.hop_count(PeId(a), PeId(b)));
            REQUIRE(looked_up.distance(PeId(a), PeId(b)) == searched.distance(PeId(a), PeId(b)));
        }
}

} // namespace

TEST_CASE("index choice: the words of --index", "[index-choice]") {
    CHECK(parse_index_use("auto") == IndexUse::Auto);
    CHECK(parse_index_use("always") == IndexUse::Always);
    CHECK(parse_index_use("never") == IndexUse::Never);
    CHECK_THROWS_AS(parse_index_use("sometimes"), ValueError);
    CHECK_THROWS_AS(parse_index_use(""), ValueError);
}

TEST_CASE("index choice: a family's closed form from the first question", "[index-choice]") {
    const Cluster torus = generate_from_spec("torus --dims 4x3 --machine 'core:2 pu:1'");
    for (const auto questions : {std::optional<std::uint64_t>{}, std::optional<std::uint64_t>{1}}) {
        const auto index = index_for_batch(torus, IndexUse::Auto, questions);
        REQUIRE(index);
        CHECK(index->kind() == DistanceIndexKind::ClosedForm);
        require_same_answers(torus, index.get());
    }
    CHECK_FALSE(index_for_batch(torus, IndexUse::Never, 1000000));
}

TEST_CASE("index choice: the general index when the batch pays for it", "[index-choice]") {
    std::mt19937_64 rng(14);
    for (int round = 0; round < 30; ++round) {
        const Cluster c = test::build_cluster(test::random_cluster(rng), true);
        if (c.num_machines() < 2) continue;
        CAPTURE(round, c.num_machines(), c.num_switches());
        // No family: a search for one question or an unknown batch, ...
        CHECK_FALSE(index_for_batch(c, IndexUse::Auto, 1));
        CHECK_FALSE(index_for_batch(c, IndexUse::Auto, std::nullopt));
        // ... the general index for a batch far larger than the core, and
        // always when asked.
        const auto big = index_for_batch(c, IndexUse::Auto, std::uint64_t{1} << 40);
        REQUIRE(big);
        CHECK(big->kind() != DistanceIndexKind::ClosedForm);
        require_same_answers(c, big.get());
        const auto always = index_for_batch(c, IndexUse::Always, 1);
        REQUIRE(always);
        require_same_answers(c, always.get());
    }
}

TEST_CASE("index choice: hop histograms from the index equal a search's", "[index-choice]") {
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

TEST_CASE("index choice: a kept index serves every batch unless searching is forced",
          "[index-choice]") {
    std::mt19937_64 rng(1415);
    for (int round = 0; round < 10; ++round) {
        const Cluster c = test::build_cluster(test::random_cluster(rng), true);
        if (c.num_machines() < 2) continue;
        CAPTURE(round, c.num_machines(), c.num_switches());
        const auto kept = index_for_batch(c, IndexUse::Always, std::nullopt);
        REQUIRE(kept);
        for (const IndexUse use : {IndexUse::Auto, IndexUse::Always}) {
            // Even one question, which alone would search, takes what is kept.
            const BatchIndex batch = choose_batch_index(c, use, 1, kept.get());
            CHECK(batch.index == kept.get());
            CHECK_FALSE(batch.owned);
        }
        const BatchIndex never = choose_batch_index(c, IndexUse::Never, 1000000, kept.get());
        CHECK_FALSE(never.index);
        // Nothing kept: the rule's own choice, owned by the batch.
        const BatchIndex built = choose_batch_index(c, IndexUse::Always, 1, nullptr);
        REQUIRE(built.index);
        CHECK(built.index == built.owned.get());
        require_same_answers(c, built.index);
        CHECK_FALSE(choose_batch_index(c, IndexUse::Auto, 1, nullptr).index);
    }
}

TEST_CASE("index choice: kind Search answers every question by a search", "[index-choice]") {
    std::mt19937_64 rng(4114);
    for (int round = 0; round < 30; ++round) {
        const Cluster c = test::build_cluster(test::random_cluster(rng), true);
        CAPTURE(round, c.num_machines(), c.num_switches());
        DistanceIndexOptions search;
        search.kind = DistanceIndexKind::Search;
        const auto searched = build_distance_index(c, search);
        CHECK(searched->kind() == DistanceIndexKind::Search);
        // Held to an index built otherwise (unreachable pairs included) ...
        DistanceIndexOptions dense;
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
