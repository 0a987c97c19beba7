// The dense table of the core's terminals (terminal_table.hpp) against
// NetworkSearch on every machine pair: damaged fat-trees (unreachable pairs
// among them), machine-only rings (more hop counts than 4-bit codes hold),
// random clusters; and that it is not built where it cannot be exact (a core
// of several latencies), the general index falling back as before.
#include "nettopo/families/family.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/query/distance_index.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "query/index/folded_core.hpp"
#include "query/index/general_index.hpp"
#include "query/index/terminal_table.hpp"
#include "testkit/random_cluster.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <optional>
#include <random>
#include <sstream>

using namespace nettopo;
using Catch::Contains;

namespace {

constexpr std::size_t big = std::size_t{1} << 30;

Cluster generated(const Family& family, LinkClasses links) {
    GenerateOptions o;
    o.links = links;
    return generate(family, synthetic_machine("pu:1", {}), o);
}

// `c` as a description without a `cut` fraction of its switch-to-switch
// links (seeded); with `spread`, each switch link kept gets 1 or 2 times its
// latency (a core of several latencies); with `one`, every link gets it.
Cluster damaged(const Cluster& c, double cut, std::uint64_t seed, bool spread = false,
                std::optional<double> one = std::nullopt) {
    const Network& net = c.network();
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    auto name = [&](VertexId v) {
        return net.is_machine(v) ? fmt::format("m{}", v.value)
                                 : fmt::format("s{}", v.value - net.num_machines());
    };
    std::string text = "name damaged\n";
    for (std::uint32_t m = 0; m < net.num_machines(); ++m)
        text += fmt::format("machine m{} pu:1\n", m);
    for (std::uint32_t s = 0; s < net.num_switches(); ++s) text += fmt::format("switch s{}\n", s);
    for (const Link& l : net.links()) {
        const bool core = !net.is_machine(l.a) && !net.is_machine(l.b);
        if (core && u(rng) < cut) continue;
        double lat = core && spread && u(rng) < 0.5 ? 2 * l.latency_ns : l.latency_ns;
        if (one) lat = *one;
        text += fmt::format("link {} {} {}\n", name(l.a), name(l.b), lat);
    }
    std::istringstream in(text);
    LoadOptions lo;
    lo.build.allow_disconnected = true;
    return read_description(in, "damaged.topo", lo);
}

std::vector<MachineId> all_machines(const Cluster& c) {
    std::vector<MachineId> m;
    for (std::uint32_t i = 0; i < c.num_machines(); ++i) m.push_back(MachineId(i));
    return m;
}

std::unique_ptr<DistanceIndex> terminal_table(const Cluster& c, unsigned threads = 2) {
    detail::FoldedCore f = detail::fold_network(c.network());
    return detail::make_terminal_table(f, big, threads, nullptr);
}

// Every machine pair: the index answers what the search answers.
void require_exact(const Cluster& c, const DistanceIndex& index) {
    INFO(index.description());
    const auto from = all_machines(c);
    const auto mismatch = check_distance_index(c, index, from);
    if (mismatch)
        FAIL("machines " << mismatch->from.value << ", " << mismatch->to.value << ": "
                         << (mismatch->hops ? "hops " : "latency ") << mismatch->index_value
                         << " against the search's " << mismatch->search_value);
}

bool has_unreachable_pair(const Cluster& c, const DistanceIndex& index) {
    for (std::uint32_t a = 0; a < c.num_machines(); ++a)
        for (std::uint32_t b = 0; b < c.num_machines(); ++b)
            if (index.hops(MachineId(a), MachineId(b)) == DistanceIndex::unreachable_hops)
                return true;
    return false;
}

} // namespace

TEST_CASE("terminal table: damaged fat-trees, every pair", "[general-index][terminal-table]") {
    const Cluster ft = generated(*make_fat_tree(4, 3), LinkClasses::uniform(1.5, 0));
    bool unreachable = false;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        const double cut = seed <= 6 ? 0.05 : 0.4; // heavy cuts split the fabric
        const Cluster c = damaged(ft, cut, seed);
        INFO("seed " << seed << ", cut " << cut);
        const auto index = terminal_table(c, 1 + seed % 3);
        REQUIRE(index);
        CHECK(index->kind() == DistanceIndexKind::TerminalTable);
        // The leaf switches only: 16 of the 48.
        CHECK_THAT(index->description(), Contains("dense table of 16 terminals: 48 core vertices"));
        require_exact(c, *index);
        unreachable = unreachable || has_unreachable_pair(c, *index);
    }
    CHECK(unreachable); // the unreachable code was exercised
}

TEST_CASE("terminal table: more than 256 sources, several batches and threads",
          "[general-index][terminal-table]") {
    // 8-ary 3-tree: 64 leaf switches; 4-ary 5-tree: 256 leaf switches, 5 levels.
    for (const auto& [k, n] : {std::pair{8u, 3u}, std::pair{4u, 5u}}) {
        const Cluster c =
            damaged(generated(*make_fat_tree(k, n), LinkClasses::uniform(1, 0)), 0.03, k + n);
        const auto one = terminal_table(c, 1);
        const auto two = terminal_table(c, 3);
        REQUIRE(one);
        REQUIRE(two);
        CHECK(one->description() == two->description());
        require_exact(c, *two);
    }
    // 1,024 machines cabled in a ring: every machine a terminal (4 batches of
    // sources), 512 hop counts: more than 8-bit codes hold, so not built.
    const Cluster ring = generated(*make_ring(1024, 0), LinkClasses::uniform(1, 0));
    CHECK_FALSE(terminal_table(ring));
}

TEST_CASE("terminal table: widens to 8-bit codes past 15 hop counts",
          "[general-index][terminal-table]") {
    const Cluster small = generated(*make_ring(20, 0), LinkClasses::uniform(2, 0)); // hops 1..10
    const auto four = terminal_table(small);
    REQUIRE(four);
    CHECK_THAT(four->description(), Contains("4-bit codes of 10 hop counts"));
    require_exact(small, *four);
    const Cluster ring = generated(*make_ring(300, 0), LinkClasses::uniform(2, 0)); // hops 1..150
    const auto eight = terminal_table(ring);
    REQUIRE(eight);
    CHECK_THAT(eight->description(), Contains("8-bit codes of 150 hop counts"));
    require_exact(ring, *eight);
}

TEST_CASE("terminal table: random clusters of one core latency, against the search",
          "[general-index][terminal-table]") {
    std::mt19937_64 rng(20261124);
    test::RandomOptions o;
    o.allow_disconnected = true;
    std::size_t built = 0;
    for (int round = 0; round < 60; ++round) {
        // Random graphs (machines cabled to machines, several components),
        // every link of one latency (0 ps in some), or as drawn.
        const test::ClusterSpec spec = test::random_cluster(rng, o);
        const Cluster r = test::build_cluster(spec, true);
        const Cluster c = round % 3 == 2 ? damaged(r, 0, round)
                                         : damaged(r, 0, round, false, round % 3 == 0 ? 1.25 : 0.0);
        INFO("round " << round << "\n" << spec.description());
        detail::FoldedCore f = detail::fold_network(c.network());
        const bool uniform = f.uniform_ps.has_value();
        const auto index = detail::make_terminal_table(f, big, 2, nullptr);
        CHECK(bool(index) == uniform); // built exactly when the core has one latency
        if (!index) continue;
        ++built;
        require_exact(c, *index);
    }
    CHECK(built >= 40);
}

TEST_CASE("terminal table: not built for a core of several latencies; the general index falls "
          "back",
          "[general-index][terminal-table]") {
    const Cluster c =
        damaged(generated(*make_fat_tree(8, 4), LinkClasses::uniform(1, 0)), 0.05, 9, true);
    REQUIRE_FALSE(detail::fold_network(c.network()).uniform_ps);
    CHECK_FALSE(terminal_table(c));
    // A budget below the full table: labels or rows, exact as ever.
    DistancePolicy o;
    o.kind = DistanceIndexKind::DenseTable;
    const std::size_t full = detail::make_general_index(c, o)->memory_bytes();
    o.kind = DistanceIndexKind::Auto;
    o.memory_budget_bytes = full - 1;
    const auto index = detail::make_general_index(c, o);
    CHECK(index->kind() != DistanceIndexKind::DenseTable);
    INFO(index->description());
    std::vector<MachineId> from;
    for (std::uint32_t m = 0; m < c.num_machines(); m += 37) from.push_back(MachineId(m));
    CHECK_FALSE(check_distance_index(c, *index, from));
}

TEST_CASE("terminal table: auto takes it when the full table does not fit the budget",
          "[general-index][terminal-table]") {
    const Cluster c = damaged(generated(*make_fat_tree(8, 3), LinkClasses::uniform(1, 0)), 0.02, 4);
    DistancePolicy o;
    const auto full = detail::make_general_index(c, o); // the full table fits 512 MiB
    CHECK_THAT(full->description(), !Contains("terminals"));
    const auto terminals = terminal_table(c);
    REQUIRE(terminals);
    REQUIRE(terminals->memory_bytes() < full->memory_bytes());
    o.memory_budget_bytes = terminals->memory_bytes() + 1024;
    for (DistanceIndexKind kind : {DistanceIndexKind::Auto, DistanceIndexKind::DenseTable}) {
        o.kind = kind;
        const auto index = detail::make_general_index(c, o);
        CHECK(index->kind() == DistanceIndexKind::TerminalTable);
        CHECK_THAT(index->description(), Contains("dense table of 64 terminals"));
        CHECK(index->memory_bytes() <= o.memory_budget_bytes);
        require_exact(c, *index);
    }
}

TEST_CASE("terminal table: the tools' rule counts its fill as a search per 64 terminals",
          "[general-index][terminal-table][distance-plan]") {
    // 512 machines on 192 switches (64 leaves): the full table costs 192 core
    // searches, about 114 questions' worth; the terminal table one.
    const Cluster c = damaged(generated(*make_fat_tree(8, 3), LinkClasses::uniform(1, 0)), 0.02, 5);
    DistancePolicy o;
    o.questions = 2;
    CHECK(plan_distances(c, o).kind() == DistanceIndexKind::Search);
    o.questions = 200;
    CHECK(plan_distances(c, o).kind() == DistanceIndexKind::DenseTable);
    const auto terminals = terminal_table(c);
    REQUIRE(terminals);
    o.memory_budget_bytes = terminals->memory_bytes() + 1024; // the full table does not fit
    o.questions = 2;
    DistancePlan plan = plan_distances(c, o);
    REQUIRE(plan.kind() == DistanceIndexKind::TerminalTable);
    CHECK(plan.build_searches() < 2);
    const auto index = build_distances(c, std::move(plan));
    CHECK_THAT(index->description(), Contains("dense table of 64 terminals"));
    require_exact(c, *index);
    // With several core latencies no terminal table: the full table's cost again.
    const Cluster spread =
        damaged(generated(*make_fat_tree(8, 3), LinkClasses::uniform(1, 0)), 0.02, 5, true);
    CHECK(plan_distances(spread, o).kind() == DistanceIndexKind::Search);
}
