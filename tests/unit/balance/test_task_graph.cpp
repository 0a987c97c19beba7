// TaskGraph against a brute-force adjacency map, and CommModel against
// answers found without it: the Floyd–Warshall oracle of random clusters,
// QueryEngine without a distance index on a real cluster, BFS for the
// adjacent machines, and bandwidths worked out by hand.
#include "nettopo/balance/comm_model.hpp"
#include "nettopo/balance/task_graph.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/random_cluster.hpp"
#include "testkit/real_data.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <random>

namespace nettopo {

namespace {

using test::Oracle;

} // namespace

TEST_CASE("TaskGraph: merged, loop-free, sorted CSR equal to a brute-force adjacency",
          "[balance][task-graph]") {
    std::mt19937_64 rng(20260611);
    for (int round = 0; round < 200; ++round) {
        const auto n = static_cast<std::uint32_t>(rng() % 30 + 1);
        const std::size_t m = rng() % 120;
        std::vector<TaskEdge> edges;
        std::map<std::pair<std::uint32_t, std::uint32_t>, double> adjacency;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> first_seen;
        for (std::size_t i = 0; i < m; ++i) {
            const auto a = static_cast<std::uint32_t>(rng() % n);
            const auto b = static_cast<std::uint32_t>(rng() % n);
            const double bytes = static_cast<double>(rng() % 1000);
            edges.push_back({TaskId(a), TaskId(b), bytes});
            if (a == b) continue;
            const std::pair<std::uint32_t, std::uint32_t> key{std::min(a, b), std::max(a, b)};
            if (!adjacency.count(key)) first_seen.push_back(key);
            adjacency[key] += bytes;
        }
        const TaskGraph g(n, edges);
        REQUIRE(g.num_tasks() == n);
        REQUIRE(g.num_edges() == adjacency.size());
        // edges(): first appearance order, bytes merged.
        for (std::size_t i = 0; i < first_seen.size(); ++i) {
            const TaskEdge& e = g.edges()[i];
            REQUIRE(std::min(e.a.value, e.b.value) == first_seen[i].first);
            REQUIRE(std::max(e.a.value, e.b.value) == first_seen[i].second);
            REQUIRE(e.bytes == adjacency[first_seen[i]]);
        }
        for (std::uint32_t t = 0; t < n; ++t) {
            std::vector<std::pair<std::uint32_t, double>> expected;
            for (const auto& [key, bytes] : adjacency) {
                if (key.first == t) expected.emplace_back(key.second, bytes);
                if (key.second == t) expected.emplace_back(key.first, bytes);
            }
            std::sort(expected.begin(), expected.end());
            const auto partners = g.partners(TaskId(t));
            const auto bytes = g.bytes(TaskId(t));
            REQUIRE(partners.size() == expected.size());
            REQUIRE(bytes.size() == expected.size());
            double total = 0;
            for (std::size_t i = 0; i < expected.size(); ++i) {
                REQUIRE(partners[i].value == expected[i].first);
                REQUIRE(bytes[i] == expected[i].second);
                total += expected[i].second;
            }
            REQUIRE(g.total_bytes(TaskId(t)) == total);
        }
    }
}

TEST_CASE("TaskGraph: hand-made graph and refused edges", "[balance][task-graph]") {
    const std::vector<TaskEdge> edges{{TaskId(2), TaskId(0), 5},
                                      {TaskId(1), TaskId(1), 7}, // a self-loop: dropped
                                      {TaskId(0), TaskId(2), 3},
                                      {TaskId(0), TaskId(1), 1}};
    const TaskGraph g(3, edges);
    CHECK(g.num_edges() == 2);
    CHECK(g.edges()[0] == TaskEdge{TaskId(2), TaskId(0), 8});
    CHECK(g.edges()[1] == TaskEdge{TaskId(0), TaskId(1), 1});
    REQUIRE(g.partners(TaskId(0)).size() == 2);
    CHECK(g.partners(TaskId(0))[0] == TaskId(1));
    CHECK(g.partners(TaskId(0))[1] == TaskId(2));
    CHECK(g.bytes(TaskId(0))[1] == 8);
    CHECK(g.partners(TaskId(1)).size() == 1);
    CHECK(g.total_bytes(TaskId(0)) == 9);
    CHECK(TaskGraph().num_tasks() == 0);
    CHECK(TaskGraph(4, {}).partners(TaskId(3)).empty());

    const auto refused = [](std::vector<TaskEdge> e) { return TaskGraph(3, e); };
    CHECK_THROWS_AS(refused({{TaskId(0), TaskId(3), 1}}), UsageError);
    CHECK_THROWS_AS(refused({{TaskId(0), TaskId(1), -1}}), UsageError);
    CHECK_THROWS_AS(refused({{TaskId(0), TaskId(1), std::nan("")}}), UsageError);
    CHECK_THROWS_AS(refused({{TaskId(0), TaskId(1), std::numeric_limits<double>::infinity()}}),
                    UsageError);
}

TEST_CASE("CommModel: hops and latencies equal the Floyd–Warshall oracle on random clusters",
          "[balance][comm-model]") {
    std::mt19937_64 rng(77001);
    test::RandomOptions options;
    options.max_machines = 12;
    for (int round = 0; round < 40; ++round) {
        const test::ClusterSpec spec = test::random_cluster(rng, options);
        const Cluster c = test::build_cluster(spec);
        const Oracle o(spec);
        const CommModel model(c);
        const std::uint32_t n = c.num_pes();
        for (int pair = 0; pair < 300; ++pair) {
            const auto a = static_cast<std::uint32_t>(rng() % n);
            const auto b = static_cast<std::uint32_t>(rng() % n);
            INFO("round " << round << " PEs " << a << " " << b);
            REQUIRE(model.hops(PeId(a), PeId(b)) == o.hops(a, b));
            // The oracle adds link latencies in ns; the model in picoseconds.
            REQUIRE(model.latency_ns(PeId(a), PeId(b)) == Approx(o.distance(a, b)).margin(1e-6));
            const double t = model.transfer_seconds(PeId(a), PeId(b), 1000);
            if (a == b)
                REQUIRE(t == 0);
            else
                REQUIRE(t == Approx(o.distance(a, b) * 1e-9 +
                                    8000 / (model.bandwidth_gbps(PeId(a), PeId(b)) * 1e9)));
        }
        // adjacent_machines: the machines at the smallest non-zero hop
        // distance, by brute force over the oracle's vertex hops.
        for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
            double nearest = Oracle::inf;
            for (std::uint32_t x = 0; x < c.num_machines(); ++x)
                if (x != m) nearest = std::min(nearest, o.vertex_hops(m, x));
            std::vector<MachineId> expected;
            for (std::uint32_t x = 0; x < c.num_machines(); ++x)
                if (x != m && o.vertex_hops(m, x) == nearest) expected.push_back(MachineId(x));
            REQUIRE(model.adjacent_machines(MachineId(m)) == expected);
        }
    }
}

TEST_CASE("CommModel: a disconnected cluster is refused", "[balance][comm-model]") {
    std::mt19937_64 rng(5150);
    test::RandomOptions options;
    options.allow_disconnected = true;
    int refused = 0;
    for (int round = 0; round < 60; ++round) {
        const test::ClusterSpec spec = test::random_cluster(rng, options);
        const Cluster c = test::build_cluster(spec, true);
        const Oracle o(spec);
        bool split = false; // some machine unreachable from machine 0 (switches may be apart)
        for (std::uint32_t m = 1; m < spec.machines.size(); ++m)
            split = split || o.vertex_hops(0, m) == Oracle::inf;
        if (!split) {
            CHECK_NOTHROW(CommModel(c));
            continue;
        }
        CHECK_THROWS_AS(CommModel(c), InputError);
        ++refused;
    }
    CHECK(refused > 0); // the case was exercised
}

TEST_CASE("CommModel: bandwidths of a hand-made cluster", "[balance][comm-model]") {
    // m0 -(40 Gb/s x 2)- s0 -(10)- m1; s0 -(unknown)- m2; m0 holds 4 PUs.
    test::ClusterSpec spec;
    test::MachineSpec four;
    four.description = "core:4 pu:1";
    four.levels = {{ObjectType::Core, 4}, {ObjectType::PU, 1}};
    test::MachineSpec one;
    one.description = "pu:1";
    one.levels = {{ObjectType::PU, 1}};
    spec.machines = {four, one, one};
    spec.switches = 1;
    spec.links = {{0, 3, 100, 40, 2}, {1, 3, 100, 10, 1}, {2, 3, 100, 0, 1}};
    const Cluster c = test::build_cluster(spec);
    CommModelOptions options;
    options.intra_machine_gbps = 64;
    options.default_link_gbps = 5;
    const CommModel model(c, options);
    // PEs 0..3 on m0, 4 on m1, 5 on m2.
    CHECK(model.bandwidth_gbps(PeId(0), PeId(3)) == 64);
    CHECK(model.bandwidth_gbps(PeId(0), PeId(4)) == 10); // min(80, 10)
    CHECK(model.bandwidth_gbps(PeId(0), PeId(5)) == 5);  // m2's link unknown: the default
    CHECK(model.bandwidth_gbps(PeId(4), PeId(5)) == 5);
    CHECK(model.hops(PeId(0), PeId(4)) == 2);
    CHECK(model.hops(PeId(1), PeId(2)) == 0);
    CHECK(model.transfer_seconds(PeId(2), PeId(2), 1e6) == 0);
    CHECK(model.transfer_seconds(PeId(0), PeId(4), 1e6) == Approx(200e-9 + 8e6 / 10e9));
    CHECK(model.adjacent_machines(MachineId(0)) ==
          std::vector<MachineId>{MachineId(1), MachineId(2)});
    CommModelOptions no_bandwidth;
    no_bandwidth.intra_machine_gbps = 0;
    CHECK_THROWS_AS(CommModel(c, no_bandwidth), UsageError);
}

TEST_CASE("CommModel: a real cluster against QueryEngine without an index",
          "[balance][comm-model]") {
    for (const std::string name : {"avakas", "plafrim"}) {
        if (!test::have_real_cluster(name)) continue;
        const Cluster c = test::assemble_real_cluster(name).cluster;
        const CommModel model(c);
        QueryEngine plain(c, nullptr);
        std::mt19937_64 rng(31337);
        for (int pair = 0; pair < 400; ++pair) {
            const PeId a(static_cast<std::uint32_t>(rng() % c.num_pes()));
            const PeId b(static_cast<std::uint32_t>(rng() % c.num_pes()));
            INFO(name << " PEs " << a.value << " " << b.value);
            REQUIRE(model.hops(a, b) == plain.hop_count(a, b).value());
            REQUIRE(model.latency_ns(a, b) == Approx(plain.distance(a, b).value()).margin(1e-6));
        }
        // Adjacent machines by BFS from the machine, through QueryEngine.
        for (std::uint32_t m = 0; m < std::min(c.num_machines(), 6u); ++m) {
            const PeId pm = c.pes_of_machine(MachineId(m))[0];
            std::uint32_t nearest = std::numeric_limits<std::uint32_t>::max();
            for (std::uint32_t x = 0; x < c.num_machines(); ++x)
                if (x != m)
                    nearest =
                        std::min(nearest, *plain.hop_count(pm, c.pes_of_machine(MachineId(x))[0]));
            std::vector<MachineId> expected;
            for (std::uint32_t x = 0; x < c.num_machines(); ++x)
                if (x != m && *plain.hop_count(pm, c.pes_of_machine(MachineId(x))[0]) == nearest)
                    expected.push_back(MachineId(x));
            REQUIRE(model.adjacent_machines(MachineId(m)) == expected);
        }
    }
}

TEST_CASE("CommModel: searching every distance answers as the index does",
          "[balance][comm-model]") {
    for (const std::string name : {"avakas", "plafrim"}) {
        if (!test::have_real_cluster(name)) continue;
        const Cluster c = test::assemble_real_cluster(name).cluster;
        const CommModel indexed(c);
        CommModelOptions search;
        search.index.kind = DistanceIndexKind::Search;
        const CommModel searched(c, search);
        CHECK(indexed.index().kind() != DistanceIndexKind::Search);
        CHECK(searched.index().kind() == DistanceIndexKind::Search);
        std::mt19937_64 rng(1414);
        for (int pair = 0; pair < 400; ++pair) {
            const PeId a(static_cast<std::uint32_t>(rng() % c.num_pes()));
            const PeId b(static_cast<std::uint32_t>(rng() % c.num_pes()));
            INFO(name << " PEs " << a.value << " " << b.value);
            REQUIRE(searched.hops(a, b) == indexed.hops(a, b));
            REQUIRE(searched.latency_ns(a, b) == indexed.latency_ns(a, b));
            REQUIRE(searched.transfer_seconds(a, b, 1e6) == indexed.transfer_seconds(a, b, 1e6));
        }
    }
}

} // namespace nettopo
