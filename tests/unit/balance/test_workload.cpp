// lb_test workloads: the load distribution against its closed form, the
// phases against a counter, each pattern's neighbours against a brute-force
// construction from lb_test's definition, the spec grammar and the presets.
#include "nettopo/balance/comm_model.hpp"
#include "nettopo/balance/detail/platform.hpp"
#include "nettopo/balance/workload.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <random>
#include <sstream>

using namespace nettopo;

namespace {

bool same_params(const LbTestParams& a, const LbTestParams& b) {
    return a.tasks == b.tasks && a.pattern == b.pattern && a.min_load_us == b.min_load_us &&
           a.max_load_us == b.max_load_us && a.message_bytes == b.message_bytes &&
           a.task_bytes == b.task_bytes && a.iterations == b.iterations && a.every == b.every &&
           a.seed == b.seed && a.redraw == b.redraw;
}

// The graph as a map (lo, hi) -> bytes.
std::map<std::pair<std::uint32_t, std::uint32_t>, double> pairs_of(const TaskGraph& g) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, double> m;
    for (const TaskEdge& e : g.edges()) {
        const auto key = std::minmax(e.a.value, e.b.value);
        m[{key.first, key.second}] += e.bytes;
    }
    return m;
}

LbTestParams with(std::uint32_t tasks, CommPattern pattern, std::uint64_t seed = 1) {
    LbTestParams p;
    p.tasks = tasks;
    p.pattern = pattern;
    p.seed = seed;
    return p;
}

} // namespace

TEST_CASE("lb_test loads are min + (max-min) U^4 with U uniform", "[balance][workload]") {
    LbTestParams p = with(100000, CommPattern::Ring, 7);
    p.min_load_us = 30;
    p.max_load_us = 4120;
    const Workload w(p);
    for (std::uint32_t phase : {0u, 3u}) {
        const std::vector<double> loads = w.loads(phase);
        REQUIRE(loads.size() == p.tasks);
        std::vector<double> u;
        double sum = 0;
        for (double l : loads) {
            REQUIRE(l >= 30e-6 * (1 - 1e-12));
            REQUIRE(l <= 4120e-6 * (1 + 1e-12));
            const double x = (l - 30e-6) / (4090e-6);
            sum += x;
            u.push_back(std::pow(std::max(x, 0.0), 0.25));
        }
        // E[U^4] = 1/5; the standard error over 1e5 draws is 0.00084.
        CHECK(sum / loads.size() == Approx(0.2).margin(0.005));
        // Kolmogorov-Smirnov against the uniform law: 1.63/sqrt(n) is the 1 % level.
        std::sort(u.begin(), u.end());
        double d = 0;
        const double n = double(u.size());
        for (std::size_t i = 0; i < u.size(); ++i)
            d = std::max({d, std::abs((i + 1) / n - u[i]), std::abs(u[i] - i / n)});
        CHECK(d < 1.63 / std::sqrt(n));
    }
}

TEST_CASE("lb_test loads are fixed per phase and change between phases and seeds",
          "[balance][workload]") {
    const Workload a(with(1000, CommPattern::Ring, 1)), b(with(1000, CommPattern::Ring, 2));
    CHECK(a.loads(0) == a.loads(0));
    CHECK(a.loads(5) == Workload(with(1000, CommPattern::Ring, 1)).loads(5));
    CHECK(a.loads(0) != a.loads(1));
    CHECK(a.loads(0) != b.loads(0));
    // Phase 1's loads do not depend on whether phase 0's were drawn first.
    const Workload c(with(1000, CommPattern::Ring, 1));
    CHECK(c.loads(1) == a.loads(1));
}

TEST_CASE("load phases change where lb_test.C shuffles its loads", "[balance][workload]") {
    for (std::uint32_t every : {1u, 2u, 3u, 4u, 5u, 7u, 10u, 40u}) {
        LbTestParams p = with(4, CommPattern::Ring);
        p.every = every;
        const Workload w(p);
        p.redraw = false;
        const Workload fixed(p);
        // lb_test's own rule: after computing step nTimes (counted from 1),
        // shuffle when nTimes > every and (nTimes - every/2) % every == 0;
        // iteration `it` (from 0) is step it + 1.
        std::uint32_t phase = 0;
        std::vector<std::uint32_t> starts;
        for (std::uint32_t it = 0; it < 400; ++it) {
            const std::uint32_t done = it; // steps computed before this iteration
            // (else-if after the balancing test: a balancing step never shuffles)
            if (done % every != 0 && done > every && (done - every / 2) % every == 0) {
                ++phase;
                starts.push_back(it);
            }
            INFO("every " << every << " iteration " << it);
            REQUIRE(w.phase_of_iteration(it) == phase);
            REQUIRE(fixed.phase_of_iteration(it) == 0);
            REQUIRE(fixed.next_phase_start(it) == std::numeric_limits<std::uint32_t>::max());
        }
        // next_phase_start: the first recorded start after each iteration.
        for (std::uint32_t it = 0; it + 1 < 300; ++it) {
            const auto next = std::upper_bound(starts.begin(), starts.end(), it);
            INFO("every " << every << " iteration " << it);
            REQUIRE(w.next_phase_start(it) ==
                    (next == starts.end() ? std::numeric_limits<std::uint32_t>::max() : *next));
        }
    }
    LbTestParams p = with(4, CommPattern::Ring);
    p.every = 40;
    const Workload w(p);
    CHECK(w.phase_of_iteration(59) == 0);
    CHECK(w.phase_of_iteration(60) == 1);
    CHECK(w.phase_of_iteration(99) == 1);
    CHECK(w.phase_of_iteration(100) == 2);
}

TEST_CASE("ring: each task sends to t-1 and t+1", "[balance][workload]") {
    for (std::uint32_t n = 1; n <= 40; ++n) {
        const Workload w(with(n, CommPattern::Ring));
        const auto got = pairs_of(w.graph());
        std::map<std::pair<std::uint32_t, std::uint32_t>, double> want;
        for (std::uint32_t a = 0; a < n; ++a)
            for (std::uint32_t b = a + 1; b < n; ++b) {
                // Messages of a to its two neighbours and of b to its two.
                const int sends = ((a + 1) % n == b) + ((a + n - 1) % n == b) + ((b + 1) % n == a) +
                                  ((b + n - 1) % n == a);
                if (sends) want[{a, b}] = sends * 1000.0;
            }
        INFO("n " << n);
        CHECK(got == want);
        if (n >= 3)
            for (std::uint32_t t = 0; t < n; ++t) CHECK(w.graph().partners(TaskId(t)).size() == 2);
    }
}

TEST_CASE("mesh2d and mesh3d: grid neighbours without wrap-around, as lb_test builds them",
          "[balance][workload]") {
    std::mt19937_64 rng(11);
    std::vector<std::uint32_t> sizes{1, 2, 3, 8, 9, 10, 16, 26, 27, 28, 63, 64, 65, 100, 125};
    for (int i = 0; i < 20; ++i) sizes.push_back(1 + rng() % 300);
    for (std::uint32_t n : sizes) {
        // lb_test's shapes: a near-square grid, and the smallest cube.
        std::uint32_t rows = std::max(1u, static_cast<std::uint32_t>(std::sqrt(n) + 0.5));
        std::uint32_t cols = n / rows;
        while (rows * cols < n) ++cols;
        std::uint32_t side = 1;
        while (side * side * side < n) ++side;
        std::map<std::pair<std::uint32_t, std::uint32_t>, double> want2, want3;
        for (std::uint32_t a = 0; a < n; ++a)
            for (std::uint32_t b = a + 1; b < n; ++b) {
                const int dr = int(a / cols) - int(b / cols), dc = int(a % cols) - int(b % cols);
                if (std::abs(dr) + std::abs(dc) == 1) want2[{a, b}] = 2000;
                const int dx = int(a % side) - int(b % side);
                const int dy = int(a / side % side) - int(b / side % side);
                const int dz = int(a / (side * side)) - int(b / (side * side));
                if (std::abs(dx) + std::abs(dy) + std::abs(dz) == 1) want3[{a, b}] = 2000;
            }
        INFO("n " << n);
        CHECK(pairs_of(Workload(with(n, CommPattern::Mesh2D)).graph()) == want2);
        CHECK(pairs_of(Workload(with(n, CommPattern::Mesh3D)).graph()) == want3);
    }
    // A full 4x4 grid: inner tasks have 4 partners; a 4x4x4 cube: inner ones 6.
    const Workload m2(with(16, CommPattern::Mesh2D)), m3(with(64, CommPattern::Mesh3D));
    CHECK(m2.graph().partners(TaskId(5)).size() == 4);
    CHECK(m2.graph().partners(TaskId(0)).size() == 2);
    CHECK(m3.graph().partners(TaskId(21)).size() == 6); // (1,1,1)
    CHECK(m3.graph().partners(TaskId(0)).size() == 3);
}

TEST_CASE("randgraph: the ring plus random links up to 1 % of all pairs", "[balance][workload]") {
    for (std::uint32_t n : {3u, 50u, 150u, 300u, 1000u}) {
        const Workload w(with(n, CommPattern::RandGraph, 5));
        const auto got = pairs_of(w.graph());
        const std::uint64_t target = std::uint64_t{n} * (n - 1) / 2 / 100;
        const std::size_t want_links = n >= 4 && target > n ? target : (n == 3 ? 3 : n);
        INFO("n " << n);
        CHECK(got.size() == want_links);
        for (std::uint32_t t = 0; t < n; ++t) {
            const std::uint32_t u = (t + 1) % n;
            CHECK(got.count({std::min(t, u), std::max(t, u)}) == 1);
        }
        for (const auto& [pair, bytes] : got) {
            CHECK(pair.first < pair.second);
            CHECK(bytes == 2000);
        }
        if (n >= 300) {
            const Workload other(with(n, CommPattern::RandGraph, 6));
            CHECK(pairs_of(other.graph()) != got);
            CHECK(pairs_of(Workload(with(n, CommPattern::RandGraph, 5)).graph()) == got);
        }
    }
    CHECK_THROWS_AS(Workload(with(1000000, CommPattern::RandGraph)), UsageError);
}

TEST_CASE("initial mapping: consecutive blocks, the first N mod P PEs one task more",
          "[balance][workload]") {
    for (std::uint32_t n : {1u, 7u, 12u, 100u, 3600u})
        for (std::uint32_t pes : {1u, 3u, 12u, 128u}) {
            const std::vector<PeId> m = Workload(with(n, CommPattern::Ring)).initial_mapping(pes);
            REQUIRE(m.size() == n);
            std::vector<std::uint32_t> count(pes, 0);
            for (std::uint32_t t = 0; t < n; ++t) {
                ++count[m[t].value];
                if (t > 0) CHECK(m[t - 1].value <= m[t].value);
            }
            for (std::uint32_t p = 0; p < pes; ++p)
                CHECK(count[p] == n / pes + (p < n % pes ? 1 : 0));
        }
    CHECK_THROWS_AS(Workload(with(5, CommPattern::Ring)).initial_mapping(0), UsageError);
}

TEST_CASE("a million-task ring is built and loaded", "[balance][workload]") {
    const Workload w(with(1000000, CommPattern::Ring));
    CHECK(w.graph().num_edges() == 1000000);
    CHECK(w.loads(2).size() == 1000000);
    CHECK(w.initial_mapping(128).back() == PeId(127));
}

TEST_CASE("workload specs round-trip and name what is wrong", "[balance][workload]") {
    std::mt19937_64 rng(3);
    const CommPattern patterns[] = {CommPattern::Ring, CommPattern::Mesh2D, CommPattern::Mesh3D,
                                    CommPattern::RandGraph};
    for (int i = 0; i < 100; ++i) {
        LbTestParams p;
        p.tasks = 1 + rng() % 5000;
        p.pattern = patterns[rng() % 4];
        p.min_load_us = double(rng() % 1000);
        p.max_load_us = p.min_load_us + double(rng() % 100000) / 4;
        p.message_bytes = double(rng() % 5000);
        p.task_bytes = double(rng() % (1 << 22));
        p.iterations = 1 + rng() % 500;
        p.every = 1 + rng() % 50;
        p.seed = rng();
        p.redraw = rng() % 2;
        const std::string spec = fmt::format(
            "lb_test:seed={},every={},iterations={},task-bytes={},bytes={},max={},min={},"
            "pattern={},redraw={},tasks={}",
            p.seed, p.every, p.iterations, p.task_bytes, p.message_bytes, p.max_load_us,
            p.min_load_us, to_string(p.pattern), p.redraw ? "on" : "off", p.tasks);
        INFO(spec);
        CHECK(same_params(parse_workload_spec(spec), p));
    }
    CHECK(same_params(parse_workload_spec("lb_test"), LbTestParams{}));
    CHECK(parse_workload_spec("lb_test:pattern=Mesh3D").pattern == CommPattern::Mesh3D);
    const LbTestParams over = parse_workload_spec("packdrop-18990:seed=9");
    CHECK(over.tasks == 18990);
    CHECK(over.seed == 9);
    CHECK(!over.redraw); // the papers' runs had static loads
    CHECK(!parse_workload_spec("lb_test:redraw=off").redraw);

    const auto fails_naming = [](const std::string& spec, const std::string& word) {
        INFO(spec);
        try {
            parse_workload_spec(spec);
            FAIL("accepted");
        } catch (const UsageError& e) {
            CHECK_THAT(e.what(), Catch::Contains(word));
        }
    };
    fails_naming("lb_test:redraw=yes", "redraw");
    fails_naming("lb_test:size=3", "size");
    fails_naming("lb_test:tasks=abc", "tasks=abc");
    fails_naming("lb_test:tasks=-1", "tasks=-1");
    fails_naming("lb_test:tasks=0", "tasks");
    fails_naming("lb_test:pattern=star", "pattern=star");
    fails_naming("lb_test:min=10,max=5", "max=5");
    fails_naming("lb_test:min=-1", "min=-1");
    fails_naming("lb_test:every=0", "every");
    fails_naming("lb_test:iterations=0", "iterations");
    fails_naming("lb_test:bytes=1e", "bytes=1e");
    fails_naming("lb_test:seed=1,seed=2", "seed given twice");
    fails_naming("lb_test:tasks", "'tasks' is not KEY=VALUE");
    fails_naming("lb_test:", "'' is not KEY=VALUE");
    fails_naming("lbtest:tasks=3", "nettopo-3600");
    fails_naming("smartlb-51", "smartlb-50");
}

TEST_CASE("presets: the papers' numbers, on the papers' platforms", "[balance][workload]") {
    struct Want {
        std::string_view name;
        std::uint32_t tasks, every, pes, machines;
        double min, max;
        std::string_view network, charm;
        double gbps;          // between the first and last PE's machines (0: one machine)
        double slow_pe_speed; // the first PE's speed (1 when none are given)
    };
    const Want wants[] = {
        {"smartlb-50", 50, 10, 8, 1, 1000, 150000, "shm", "6.5.1", 0, 1},
        {"smartlb-100", 100, 10, 8, 1, 1000, 150000, "shm", "6.5.1", 0, 1},
        {"smartlb-200", 200, 10, 8, 1, 1000, 150000, "shm", "6.5.1", 0, 1},
        // 32 hosts x 4 PEs on Gigabit Ethernet (the final paper's Platform 1).
        {"packdrop-18990", 18990, 40, 128, 32, 30, 9000, "gige", "6.8.1", 1, 1},
        {"packdrop-36990", 36990, 40, 128, 32, 30, 9000, "gige", "6.8.1", 1, 1},
        // An 8-PE i7 (speed 0.75) and a 4-PE i5 on one link; loads as the run script passed them.
        {"nettopo-3600", 3600, 40, 12, 2, 60, 4120, "gige", "6.9.0", 1, 0.75},
        {"nettopo-5400", 5400, 40, 12, 2, 60, 4120, "gige", "6.9.0", 1, 0.75},
    };
    REQUIRE(workload_presets().size() == std::size(wants));
    for (const Want& want : wants) {
        INFO(want.name);
        const auto presets = workload_presets();
        const auto it = std::find_if(presets.begin(), presets.end(),
                                     [&](const WorkloadPreset& p) { return p.name == want.name; });
        REQUIRE(it != presets.end());
        const LbTestParams& p = it->params;
        CHECK(p.tasks == want.tasks);
        CHECK(p.every == want.every);
        CHECK(p.iterations == 150);
        CHECK(p.min_load_us == want.min);
        CHECK(p.max_load_us == want.max);
        CHECK(p.pattern == CommPattern::Ring);
        CHECK(p.message_bytes == 1000);
        CHECK(same_params(parse_workload_spec(want.name), p));
        CHECK(it->network == want.network);
        CHECK(it->charm_version == want.charm);
        CHECK_NOTHROW(platform_costs(it->network));
        std::istringstream text{std::string(it->cluster)};
        const Cluster cluster = it->cluster_is_description
                                    ? read_description(text, std::string(it->name))
                                    : generate_from_spec(it->cluster);
        CHECK(cluster.num_pes() == want.pes);
        CHECK(cluster.num_machines() == want.machines);
        CHECK((it->pe_speeds.empty() || it->pe_speeds.size() == want.pes));
        CHECK((it->pe_speeds.empty() ? 1.0 : it->pe_speeds.front()) == want.slow_pe_speed);
        const CommModel model(cluster);
        if (want.machines > 1)
            CHECK(model.bandwidth_gbps(PeId(0), PeId(want.pes - 1)) == want.gbps);
    }
    // Net Topo's hosts differ: 8 PEs (4 cores x 2 threads) then 4.
    const auto nettopo = workload_preset_of("nettopo-3600");
    std::istringstream text{std::string(nettopo->cluster)};
    const Cluster c = read_description(text, "nettopo-3600");
    CHECK(c.pes_of_machine(MachineId(0)).count == 8);
    CHECK(c.pes_of_machine(MachineId(1)).count == 4);
    // PackDrop's hosts are 23 us apart (two 11.5 us links through the switch).
    const Cluster pd = generate_from_spec(workload_preset_of("packdrop-18990")->cluster);
    CHECK(CommModel(pd).latency_ns(PeId(0), PeId(127)) == Approx(23000));
}

TEST_CASE("generate_from_spec takes the machine and link options out of the family's",
          "[balance][workload]") {
    const Cluster c =
        generate_from_spec("torus --machine='pack:2 pu:3' --dims 2x3 --latency all=7");
    CHECK(c.num_machines() == 6);
    CHECK(c.num_pes() == 36);
    CHECK(c.family() == "torus --dims 2x3");
    CHECK(CommModel(c).latency_ns(PeId(0), PeId(6)) == 7);
    CHECK(generate_from_spec("ring --machines 3").num_pes() ==
          3 * synthetic_machine(default_machine, {}).num_pus());
    CHECK_THROWS_AS(generate_from_spec("ring --machines 3 --machine"), UsageError);
    CHECK_THROWS_AS(generate_from_spec("ring --machines 3 --machine 'pu:1"), UsageError);
    CHECK_THROWS_AS(generate_from_spec("ring --machines 3 --machine pu:1 --machine pu:2"),
                    UsageError);
    CHECK_THROWS_AS(generate_from_spec("ring --machines 3 --colour red"), UsageError);
    // A value that does not read is named by the spec's own option.
    CHECK_THROWS_WITH(generate_from_spec("ring --machines 3 --latency uplink=5"),
                      Catch::StartsWith("--latency 'uplink=5': unknown link kind 'uplink'"));
    CHECK_THROWS_WITH(generate_from_spec("ring --machines 3 --machine pu:0"),
                      Catch::StartsWith("--machine 'pu:0': bad count '0' for pu"));
}

TEST_CASE("workload: mean loads over the first iterations, phase by phase", "[balance][workload]") {
    LbTestParams p;
    p.tasks = 50;
    p.every = 4; // loads redrawn from iteration 6 on
    p.iterations = 20;
    const Workload w(p);
    for (std::uint32_t count : {1u, 4u, 7u, 13u}) {
        std::vector<double> want(p.tasks, 0.0);
        for (std::uint32_t it = 0; it < count; ++it) {
            const auto l = w.loads(w.phase_of_iteration(it));
            for (std::uint32_t t = 0; t < p.tasks; ++t) want[t] += l[t] / count;
        }
        const std::vector<double> got = w.mean_loads(count);
        REQUIRE(got.size() == want.size());
        for (std::uint32_t t = 0; t < p.tasks; ++t) CHECK(got[t] == Approx(want[t]));
    }
    CHECK(w.mean_loads(0) == w.loads(0)); // at least one iteration
}
