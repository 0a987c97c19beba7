// The general distance index (dense table, pruned landmark labels, row
// cache over the folded network) against NetworkSearch and, on small random
// clusters, against Floyd–Warshall: every machine pair, every kind, on random
// weighted clusters (disconnected ones, zero latencies, machines cabled to
// machines, parallel cables), generated families and the real fabrics.
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/support/error.hpp"
#include "query/index/folded_core.hpp"
#include "query/index/general_index.hpp"
#include "query/index/row_cache.hpp"
#include "testkit/random_cluster.hpp"
#include "testkit/real_data.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>
#include <thread>

using namespace nettopo;
using Catch::Contains;
using Kind = DistanceIndexKind;

namespace {

constexpr Kind forced_kinds[] = {Kind::DenseTable, Kind::Labels, Kind::RowCache};

const char* name(Kind k) {
    return kind_name(k);
}

using test::build_cluster;

std::unique_ptr<DistanceIndex> index_of(const Cluster& c, Kind kind,
                                        std::size_t budget = std::size_t{512} << 20,
                                        unsigned threads = 0) {
    DistancePolicy o;
    o.kind = kind;
    o.memory_budget_bytes = budget;
    o.threads = threads;
    auto index = detail::make_general_index(c, o);
    REQUIRE(index);
    if (kind != Kind::Auto) REQUIRE(index->kind() == kind);
    REQUIRE(index->memory_bytes() <= budget);
    return index;
}

// Machines the checks start from: all of them, or `limit` chosen at random.
std::vector<std::uint32_t> sources(const Cluster& c, std::uint32_t limit, std::uint64_t seed = 1) {
    std::vector<std::uint32_t> s(c.num_machines());
    for (std::uint32_t i = 0; i < s.size(); ++i) s[i] = i;
    if (s.size() > limit) {
        std::mt19937_64 rng(seed);
        std::shuffle(s.begin(), s.end(), rng);
        s.resize(limit);
    }
    return s;
}

// Every pair (a, b), a in `from`, b any machine: the index says what
// NetworkSearch says. Returns the number of pairs checked.
std::size_t check_against_search(const Cluster& c, const DistanceIndex& index,
                                 const std::vector<std::uint32_t>& from) {
    INFO(index.description());
    NetworkSearch bfs(c.network()), dijkstra(c.network());
    std::size_t pairs = 0, wrong = 0;
    for (std::uint32_t a : from)
        for (std::uint32_t b = 0; b < c.num_machines(); ++b, ++pairs) {
            const VertexId va(a), vb(b);
            const auto h = bfs.hops(va, vb);
            const auto l = dijkstra.latency_ps(va, vb);
            const std::uint32_t want_h = h ? *h : DistanceIndex::unreachable_hops;
            const std::int64_t want_l = l ? *l : DistanceIndex::unreachable_ps;
            const std::uint32_t got_h = index.hops(MachineId(a), MachineId(b));
            const std::int64_t got_l = index.latency_ps(MachineId(a), MachineId(b));
            if (got_h == want_h && got_l == want_l) continue;
            INFO("machines " << a << " and " << b);
            CHECK(got_h == want_h);
            CHECK(got_l == want_l);
            REQUIRE(++wrong < 5);
        }
    REQUIRE(wrong == 0);
    return pairs;
}

// Every machine pair against Floyd–Warshall on the random specification.
void check_against_oracle(const test::ClusterSpec& spec, const DistanceIndex& index) {
    INFO(index.description());
    const test::Oracle o(spec);
    const auto m = static_cast<std::uint32_t>(spec.machines.size());
    for (std::uint32_t a = 0; a < m; ++a)
        for (std::uint32_t b = 0; b < m; ++b) {
            const double want_h = o.vertex_hops(a, b);
            const double want_ns = o.vertex_latency(a, b);
            const std::uint32_t h = index.hops(MachineId(a), MachineId(b));
            const std::int64_t ps = index.latency_ps(MachineId(a), MachineId(b));
            const bool ok =
                want_h == test::Oracle::inf
                    ? h == DistanceIndex::unreachable_hops && ps == DistanceIndex::unreachable_ps
                    : h == want_h && static_cast<double>(ps) / 1000.0 == want_ns;
            if (ok) continue;
            INFO("machines " << a << " and " << b);
            CHECK(h == want_h);
            CHECK(static_cast<double>(ps) / 1000.0 == want_ns);
            FAIL("differs from Floyd-Warshall");
        }
}

// The index sees only the network: one machine type makes a cluster cheap to
// build (one synthetic topology, not up to eight).
test::ClusterSpec one_pu_machines(test::ClusterSpec spec) {
    for (test::MachineSpec& m : spec.machines)
        m = {"core:1 pu:1",
             {{ObjectType::Core, 1}, {ObjectType::PU, 1}},
             std::nullopt,
             LevelLatencies::defaults(),
             ""};
    return spec;
}

void check_random(std::uint64_t seed, int rounds, const test::RandomOptions& options) {
    std::mt19937_64 rng(seed);
    std::size_t folded_total = 0;
    for (int round = 0; round < rounds; ++round) {
        const test::ClusterSpec spec = one_pu_machines(test::random_cluster(rng, options));
        const Cluster c = build_cluster(spec, options.allow_disconnected);
        INFO("round " << round << "\n" << spec.description());
        folded_total += detail::fold_network(c.network()).folded;
        for (Kind k : {Kind::DenseTable, Kind::Labels, Kind::RowCache, Kind::Auto}) {
            INFO(name(k));
            const auto index = index_of(c, k);
            check_against_search(c, *index, sources(c, 1000));
            check_against_oracle(spec, *index);
        }
    }
    CHECK(folded_total > 0); // the folding was exercised
}

Cluster generated(const Family& family, LinkClasses links = LinkClasses::defaults()) {
    GenerateOptions o;
    o.links = links;
    return generate(family, synthetic_machine("pu:1", {}), o);
}

std::optional<Cluster> real_cluster(const std::string& name) {
    if (!test::have_real_cluster(name)) return std::nullopt;
    return test::assemble_real_cluster(name).cluster;
}

} // namespace

TEST_CASE("general index: random connected weighted clusters, every kind, every pair",
          "[general-index]") {
    check_random(20261122, 120, {});
}

TEST_CASE("general index: random disconnected clusters", "[general-index]") {
    test::RandomOptions o;
    o.allow_disconnected = true;
    o.extra_link_ratio = 0.2;
    check_random(7, 120, o);
}

TEST_CASE("general index: random trees (many degree-1 machines to fold)", "[general-index]") {
    test::RandomOptions o;
    o.extra_link_ratio = 0;
    o.max_machines = 40;
    check_random(11, 80, o);
    o.allow_disconnected = true;
    check_random(12, 80, o);
}

TEST_CASE("general index: machine-only random graphs", "[general-index]") {
    test::RandomOptions o;
    o.max_switches = 0;
    o.min_machines = 1;
    check_random(13, 80, o);
    o.allow_disconnected = true;
    o.extra_link_ratio = 0.1;
    check_random(14, 80, o);
}

TEST_CASE("general index: larger random clusters, sampled pairs", "[general-index]") {
    std::mt19937_64 rng(5);
    test::RandomOptions o;
    o.min_machines = 300;
    o.max_machines = 500;
    o.max_switches = 60;
    o.extra_link_ratio = 0.3;
    for (int round = 0; round < 3; ++round) {
        o.allow_disconnected = round == 2;
        const test::ClusterSpec spec = one_pu_machines(test::random_cluster(rng, o));
        const Cluster c = build_cluster(spec, o.allow_disconnected);
        for (Kind k : forced_kinds) check_against_search(c, *index_of(c, k), sources(c, 40, round));
    }
}

TEST_CASE("general index: folding hosts and small components", "[general-index]") {
    // s0 - s1 switches; m0, m1 on s0 (m1 by two merged cables), m2 on s1, m3 on
    // m4 (a machine with two links), m4 - s1; m5 - m6 alone together; m7 alone;
    // m8 on a switch s2 of its own; a zero-latency host link (m9 on s0).
    std::istringstream in("name fold\n"
                          "machine m0 pu:1\nmachine m1 pu:1\nmachine m2 pu:1\nmachine m3 pu:1\n"
                          "machine m4 pu:1\nmachine m5 pu:1\nmachine m6 pu:1\nmachine m7 pu:1\n"
                          "machine m8 pu:1\nmachine m9 pu:1\n"
                          "switch s0\nswitch s1\nswitch s2\n"
                          "link s0 s1 2.5\nlink m0 s0 1\nlink m1 s0 1.25 count=2\n"
                          "link m2 s1 0.75\nlink m3 m4 4\nlink m4 s1 1\nlink m4 s0 9\n"
                          "link m5 m6 3\nlink m8 s2 1\nlink m9 s0 0\n");
    LoadOptions lo;
    lo.build.allow_disconnected = true;
    const Cluster c = read_description(in, "fold.topo", lo);
    const detail::FoldedCore f = detail::fold_network(c.network());
    // Folded: m0, m1, m2, m3 (onto m4), m8, m9, and m5 and m6, each the other's
    // only neighbour (no anchor, one direct cable). In the core: m4, m7 + 3 switches.
    CHECK(f.folded == 8);
    CHECK(f.complex == 2);
    CHECK(f.num_core() == 5);
    for (Kind k : {Kind::DenseTable, Kind::Labels, Kind::RowCache}) {
        INFO(name(k));
        const auto index = index_of(c, k);
        CHECK_THAT(index->description(),
                   Contains("5 core vertices, 8 machines folded (2 not on a single anchor)"));
        check_against_search(c, *index, sources(c, 100));
        CHECK(index->latency_ps(MachineId(0), MachineId(1)) == 2250);
        CHECK(index->latency_ps(MachineId(0), MachineId(9)) == 1000);
        CHECK(index->hops(MachineId(3), MachineId(0)) == 3); // m3 m4 s1 s0 m0 is 4, m3 m4 s0 m0 3
        CHECK(index->latency_ps(MachineId(3), MachineId(0)) == 4000 + 1000 + 2500 + 1000);
        CHECK(index->hops(MachineId(5), MachineId(6)) == 1);
        CHECK(index->hops(MachineId(5), MachineId(0)) == DistanceIndex::unreachable_hops);
        CHECK(index->latency_ps(MachineId(7), MachineId(8)) == DistanceIndex::unreachable_ps);
        CHECK(index->hops(MachineId(7), MachineId(7)) == 0);
        CHECK(index->latency_ps(MachineId(8), MachineId(8)) == 0);
    }
}

TEST_CASE("general index: generated families", "[general-index]") {
    std::vector<std::pair<std::string, Cluster>> cases;
    cases.emplace_back("fat-tree 4 3", generated(*make_fat_tree(4, 3)));
    cases.emplace_back("torus 4x5 c0", generated(*make_torus({4, 5}, 0)));
    cases.emplace_back("torus 3x4 c2", generated(*make_torus({3, 4}, 2)));
    cases.emplace_back("mesh 4x4x3 c1", generated(*make_mesh({4, 4, 3}, 1)));
    cases.emplace_back("hypercube 5 c0", generated(*make_hypercube(5, 0)));
    cases.emplace_back("dragonfly 2", generated(*make_dragonfly(2, 0, 0)));
    cases.emplace_back("ring 9 c1", generated(*make_ring(9, 1)));
    cases.emplace_back("tree-M unit",
                       generated(*make_preset("tree-M"), LinkClasses::uniform(1, 0)));
    cases.emplace_back("tree-G unit",
                       generated(*make_preset("tree-G"), LinkClasses::uniform(1, 0)));
    for (const auto& [label, c] : cases) {
        INFO(label);
        for (Kind k : forced_kinds) {
            INFO(name(k));
            check_against_search(c, *index_of(c, k), sources(c, 200));
        }
    }
}

TEST_CASE("general index: the real avakas and plafrim fabrics", "[general-index]") {
    for (const char* n : {"avakas", "plafrim"}) {
        const auto c = real_cluster(n);
        if (!c) continue;
        INFO(n);
        for (Kind k : {Kind::DenseTable, Kind::Labels, Kind::RowCache, Kind::Auto}) {
            INFO(name(k));
            const auto index = index_of(*c, k);
            CHECK(check_against_search(*c, *index, sources(*c, 1000)) ==
                  std::size_t{c->num_machines()} * c->num_machines());
            if (k == Kind::Auto) CHECK(index->kind() == Kind::DenseTable);
        }
    }
}

TEST_CASE("general index: the parallel fill does not depend on the number of threads",
          "[general-index]") {
    std::mt19937_64 rng(3);
    test::RandomOptions o;
    o.min_machines = 600; // enough work for the fill to start its threads
    o.max_machines = 700;
    o.max_switches = 60;
    o.allow_disconnected = true;
    const Cluster c = build_cluster(one_pu_machines(test::random_cluster(rng, o)), true);
    const auto one = index_of(c, Kind::DenseTable, std::size_t{512} << 20, 1);
    for (unsigned threads : {2u, 4u}) {
        const auto other = index_of(c, Kind::DenseTable, std::size_t{512} << 20, threads);
        CHECK(other->description() == one->description());
        for (std::uint32_t a = 0; a < c.num_machines(); ++a)
            for (std::uint32_t b = 0; b < c.num_machines(); ++b) {
                const MachineId x(a), y(b);
                if (one->hops(x, y) != other->hops(x, y) ||
                    one->latency_ps(x, y) != other->latency_ps(x, y))
                    FAIL("threads " << threads << ": machines " << a << ", " << b);
            }
    }
    check_against_search(c, *one, sources(c, 50));
}

TEST_CASE("general index: the memory budget", "[general-index]") {
    // Sparse and irregular: labels well below the table, above one row.
    std::mt19937_64 rng(21);
    test::RandomOptions o;
    o.min_machines = o.max_machines = 800;
    o.max_switches = 80;
    o.extra_link_ratio = 0.3;
    const Cluster c = build_cluster(one_pu_machines(test::random_cluster(rng, o)));
    const std::size_t dense = index_of(c, Kind::DenseTable)->memory_bytes();
    const std::size_t labels = index_of(c, Kind::Labels)->memory_bytes();
    const std::size_t rows = detail::row_cache_min_bytes(detail::fold_network(c.network()));
    INFO("dense " << dense << ", labels " << labels << ", one row " << rows);
    REQUIRE(rows < labels);
    REQUIRE(labels < dense);

    SECTION("a forced kind that does not fit throws, saying what it needs") {
        CHECK_THROWS_AS(index_of(c, Kind::DenseTable, dense - 1), UsageError);
        CHECK_THROWS_WITH(index_of(c, Kind::DenseTable, dense - 1),
                          Contains("a dense table") && Contains(std::to_string(dense) + " bytes"));
        CHECK_THROWS_WITH(index_of(c, Kind::Labels, labels / 2),
                          Contains("pruned landmark labels") && Contains("needs more than"));
        CHECK_THROWS_WITH(index_of(c, Kind::RowCache, rows - 1),
                          Contains("row cache") && Contains(std::to_string(rows) + " bytes"));
        CHECK_THROWS_AS(index_of(c, Kind::Auto, rows - 1), UsageError);
        CHECK_THROWS_AS(index_of(c, Kind::ClosedForm), UsageError);
        CHECK(index_of(c, Kind::DenseTable, dense)->kind() == Kind::DenseTable);
    }
    SECTION("auto falls through dense table, labels, row cache as the budget shrinks") {
        const std::pair<std::size_t, Kind> steps[] = {{dense, Kind::DenseTable},
                                                      {dense - 1, Kind::Labels},
                                                      {labels, Kind::Labels},
                                                      {labels - 1, Kind::RowCache},
                                                      {rows, Kind::RowCache}};
        for (const auto& [budget, kind] : steps) {
            INFO("budget " << budget);
            const auto index = index_of(c, Kind::Auto, budget);
            CHECK(index->kind() == kind);
            check_against_search(c, *index, sources(c, 20));
        }
    }
    SECTION("a row cache of a couple of rows evicts and still answers every pair") {
        const std::size_t row = detail::row_cache_row_bytes(detail::fold_network(c.network()));
        const auto index = index_of(c, Kind::RowCache, rows + row);
        INFO(index->description());
        CHECK_THAT(index->description(), Contains("up to 2 rows"));
        check_against_search(c, *index, sources(c, 100));
        CHECK(index->memory_bytes() <= rows + row); // full, and still within its budget
        // Concurrent queries share the cache.
        std::vector<std::thread> pool;
        std::vector<std::size_t> wrong(4, 0);
        for (std::uint32_t t = 0; t < 4; ++t)
            pool.emplace_back([&, t] {
                NetworkSearch s(c.network());
                for (std::uint32_t a = t; a < c.num_machines(); a += 4)
                    for (std::uint32_t b = 0; b < c.num_machines(); b += 3)
                        wrong[t] += index->latency_ps(MachineId(a), MachineId(b)) !=
                                    *s.latency_ps(VertexId(a), VertexId(b));
            });
        for (std::thread& t : pool) t.join();
        CHECK(wrong == std::vector<std::size_t>(4, 0));
    }
}

TEST_CASE("general index: progress of the fill", "[general-index]") {
    struct Recorder final : Progress {
        std::uint64_t last = 0, total = 0;
        int finished = 0;
        void update(std::string_view, std::uint64_t done, std::uint64_t all) override {
            CHECK(done >= last);
            last = done, total = all;
        }
        void finish() override { ++finished; }
    };
    const Cluster c = generated(*make_preset("tree-G"), LinkClasses::uniform(1, 0));
    for (Kind k : {Kind::DenseTable, Kind::Labels}) {
        Recorder r;
        DistancePolicy o;
        o.kind = k;
        o.threads = 2;
        o.progress = &r;
        detail::make_general_index(c, o);
        CHECK(r.total == 511);
        CHECK(r.last > 0);
        CHECK(r.finished == 1);
    }
}

// Hosts on a random irregular fabric of switches, as real clusters are.
Cluster switch_fabric(std::uint32_t hosts, std::uint32_t switches, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](std::uint32_t n) {
        return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng);
    };
    std::string text = "name fabric\n";
    for (std::uint32_t h = 0; h < hosts; ++h) text += "machine h" + std::to_string(h) + " pu:1\n";
    for (std::uint32_t s = 0; s < switches; ++s) text += "switch s" + std::to_string(s) + "\n";
    auto lat = [&] { return std::to_string(50 + pick(400)) + "." + std::to_string(pick(1000)); };
    std::vector<std::pair<std::uint32_t, std::uint32_t>> seen;
    auto link = [&](std::uint32_t a, std::uint32_t b) {
        if (a == b) return;
        auto key = std::minmax(a, b);
        if (std::find(seen.begin(), seen.end(), std::pair{key.first, key.second}) != seen.end())
            return;
        seen.emplace_back(key.first, key.second);
        text += "link s" + std::to_string(a) + " s" + std::to_string(b) + " " + lat() + "\n";
    };
    for (std::uint32_t s = 1; s < switches; ++s) link(s, pick(s));
    for (std::uint32_t i = 0; i < switches; ++i) link(pick(switches), pick(switches));
    for (std::uint32_t h = 0; h < hosts; ++h)
        text += "link h" + std::to_string(h) + " s" + std::to_string(pick(switches)) + " " + lat() +
                "\n";
    std::istringstream in(text);
    return read_description(in, "fabric.topo");
}

// Timings, not assertions: nettopo_tests "[.bench]" -s
TEST_CASE("general index: build and query times", "[.bench]") {
    using Clock = std::chrono::steady_clock;
    const auto ms = [](Clock::time_point t) {
        return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
    };
    std::vector<std::pair<std::string, Cluster>> cases;
    cases.emplace_back("tree-G", generated(*make_preset("tree-G"), LinkClasses::uniform(1, 0)));
    for (const char* n : {"avakas", "plafrim"})
        if (auto c = real_cluster(n)) cases.emplace_back(n, std::move(*c));
    {
        std::mt19937_64 rng(8);
        test::RandomOptions o;
        o.min_machines = o.max_machines = 3000;
        o.max_switches = 300;
        o.extra_link_ratio = 0.3;
        cases.emplace_back("random 3000+switches",
                           build_cluster(one_pu_machines(test::random_cluster(rng, o))));
    }
    cases.emplace_back("fabric 20000 hosts 1000 switches", switch_fabric(20000, 1000, 4));
    for (const auto& [label, c] : cases) {
        for (Kind k : forced_kinds) {
            for (unsigned threads : {1u, 0u}) {
                if (k != Kind::DenseTable && threads == 1) continue;
                double best = 1e300;
                std::unique_ptr<DistanceIndex> index;
                for (int rep = 0; rep < 5; ++rep) {
                    const auto t0 = Clock::now();
                    index = index_of(c, k, std::size_t{512} << 20, threads);
                    best = std::min(best, ms(t0));
                }
                std::mt19937_64 rng(1);
                std::uniform_int_distribution<std::uint32_t> pick(0, c.num_machines() - 1);
                std::vector<std::pair<MachineId, MachineId>> pairs(200000);
                for (auto& p : pairs) p = {MachineId(pick(rng)), MachineId(pick(rng))};
                std::uint64_t sum = 0;
                const auto t1 = Clock::now();
                for (const auto& [a, b] : pairs) sum += index->hops(a, b);
                const double hops_ns = ms(t1) * 1e6 / static_cast<double>(pairs.size());
                const auto t2 = Clock::now();
                for (const auto& [a, b] : pairs)
                    sum += static_cast<std::uint64_t>(index->latency_ps(a, b));
                const double lat_ns = ms(t2) * 1e6 / static_cast<double>(pairs.size());
                const auto t3 = Clock::now(); // again: the row cache is warm
                for (const auto& [a, b] : pairs) sum += index->hops(a, b);
                const double warm_ns = ms(t3) * 1e6 / static_cast<double>(pairs.size());
                std::cout << label << " | " << name(k) << " | threads "
                          << (threads ? std::to_string(threads) : "all") << " | build " << best
                          << " ms | " << index->memory_bytes() << " bytes | hops " << hops_ns
                          << " ns | latency " << lat_ns << " ns | hops again " << warm_ns
                          << " ns | " << index->description() << " (" << sum % 10 << ")\n";
            }
        }
    }
}
