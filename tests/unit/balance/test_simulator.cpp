// The simulator against a hand-computed run and against a naive replay that
// walks every iteration (no segments, no cached costs), on small clusters
// with fake strategies that return fixed or seeded mappings.
#include "nettopo/balance/simulator.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/sanitizer_scale.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

using namespace nettopo;

namespace {

// Returns a fixed mapping, or a seeded random one per step; remembers the
// loads it was given.
class FakeStrategy final : public Strategy {
public:
    FakeStrategy(bool distributed, std::vector<PeId> fixed, std::uint64_t seed = 0)
        : distributed_(distributed), fixed_(std::move(fixed)), seed_(seed) {}
    std::string_view name() const override { return distributed_ ? "fake-dist" : "fake"; }
    bool distributed() const override { return distributed_; }
    BalanceOutcome balance(const BalanceInput& in) const override {
        seen.emplace_back(in.task_loads.begin(), in.task_loads.end());
        steps.push_back(in.step);
        BalanceOutcome out;
        if (!fixed_.empty()) {
            out.mapping = fixed_;
        } else {
            std::mt19937_64 rng(seed_ * 1000 + in.step);
            const std::uint32_t pes = in.comm_model.cluster().num_pes();
            for (std::size_t t = 0; t < in.mapping.size(); ++t)
                out.mapping.push_back(rng() % 3 == 0 ? PeId(std::uint32_t(rng() % pes))
                                                     : in.mapping[t]);
        }
        out.messages = 10 + in.step;
        out.messages_lost = in.step % 2;
        out.rounds = 3;
        out.protocol_seconds = 0.25 * (in.step + 1);
        return out;
    }
    mutable std::vector<std::vector<double>> seen;
    mutable std::vector<std::uint32_t> steps;

private:
    bool distributed_;
    std::vector<PeId> fixed_;
    std::uint64_t seed_;
};

double max_avg(const std::vector<double>& loads, const std::vector<PeId>& m,
               const std::vector<double>& speed) {
    std::vector<double> pe(speed.size(), 0.0);
    for (std::size_t t = 0; t < m.size(); ++t) pe[m[t].value] += loads[t];
    double sum = 0, mx = 0;
    for (std::size_t p = 0; p < pe.size(); ++p) {
        sum += pe[p] / speed[p];
        mx = std::max(mx, pe[p] / speed[p]);
    }
    return sum > 0 ? mx / (sum / pe.size()) : 1;
}

// Every iteration on its own, costs recomputed from the task graph's CSR.
// With costs: each message's o and g, statistics gathered to PE 0 and the
// decision broadcast (rewritten here, not the library's), noise from
// apply_load_noise (tested on its own), fixed costs per migration.
SimulationResult replay(const CommModel& model, const Workload& w, const Strategy* s,
                        std::vector<double> speed, const StepCosts& costs = {}) {
    const std::uint32_t pes = model.cluster().num_pes(), n = w.num_tasks();
    if (speed.empty()) speed.assign(pes, 1.0);
    const LbTestParams& prm = w.params();
    SimulationResult r;
    std::vector<PeId> map = w.initial_mapping(pes);
    std::vector<double> measured(n, 0.0);
    std::uint32_t since = 0;
    for (std::uint32_t it = 0; it < prm.iterations; ++it) {
        const std::vector<double> loads = w.loads(w.phase_of_iteration(it));
        std::vector<double> busy(pes, 0.0);
        for (std::uint32_t t = 0; t < n; ++t) busy[map[t].value] += loads[t] / speed[map[t].value];
        for (std::uint32_t t = 0; t < n; ++t) {
            const auto partners = w.graph().partners(TaskId(t));
            const auto bytes = w.graph().bytes(TaskId(t));
            for (std::size_t k = 0; k < partners.size(); ++k) {
                const PeId a = map[t], b = map[partners[k].value];
                if (a == b) continue;
                busy[a.value] += model.transfer_seconds(a, b, bytes[k] / 2);
                if (model.has_software_costs()) {
                    busy[a.value] += model.send_seconds(a, b);
                    busy[b.value] += model.receive_seconds(a, b);
                }
                r.hop_bytes += bytes[k] * model.hops(a, b) / 2;
                r.latency_bytes += bytes[k] * model.latency_ns(a, b) / 2;
            }
        }
        r.compute_seconds += *std::max_element(busy.begin(), busy.end());
        for (std::uint32_t t = 0; t < n; ++t) measured[t] += loads[t];
        ++since;
        if ((it + 1) % prm.every != 0 || it + 1 >= prm.iterations) continue;
        for (double& m : measured) m /= since;
        std::vector<double> noisy = measured;
        apply_load_noise(noisy, costs.load_noise, prm.seed, r.steps);
        const BalanceInput in{model, noisy, w.graph(), {}, map, r.steps};
        // Without a strategy the mapping stays: an outcome that keeps it.
        const BalanceOutcome out = s ? s->balance(in) : BalanceOutcome{map};
        // A centralised strategy's decision is its wall time, not measured here.
        if (!s || s->distributed()) r.decision_seconds += out.protocol_seconds;
        std::uint64_t moves = 0;
        for (std::uint32_t t = 0; t < n; ++t) moves += out.mapping[t] != map[t];
        if (s && s->distributed()) {
            std::vector<double> held(pes, 0.0);
            for (PeId q : map) held[q.value] += 1;
            r.decision_seconds +=
                costs.local_seconds_per_task * *std::max_element(held.begin(), held.end());
        } else if (s && costs.gather_statistics && pes > 1) {
            double longest = 0, serial = 0, sender = 0, level = 0, narrowest = 1e300;
            for (std::uint32_t q = 1; q < pes; ++q) {
                double bytes = costs.stats_bytes_per_pe;
                for (std::uint32_t t = 0; t < n; ++t)
                    if (map[t].value == q)
                        bytes += costs.stats_bytes_per_task +
                                 costs.stats_bytes_per_edge * w.graph().partners(TaskId(t)).size();
                const PeId pq(q), root(0);
                longest = std::max(longest, model.latency_ns(pq, root) * 1e-9);
                serial += model.receive_seconds(pq, root) +
                          bytes * 8 / (model.bandwidth_gbps(pq, root) * 1e9);
                sender = std::max(sender, model.send_seconds(pq, root));
                level =
                    std::max(level, model.send_seconds(root, pq) + model.receive_seconds(root, pq));
                narrowest = std::min(narrowest, model.bandwidth_gbps(root, pq));
            }
            const double list =
                costs.stats_bytes_per_pe + costs.decision_bytes_per_migration * moves;
            r.decision_seconds +=
                sender + longest + serial +
                std::ceil(std::log2(pes)) * (longest + level + list * 8 / (narrowest * 1e9));
        }
        r.messages += out.messages;
        r.messages_lost += out.messages_lost;
        r.rounds += out.rounds;
        r.max_avg_before += max_avg(measured, map, speed);
        r.max_avg_after += max_avg(measured, out.mapping, speed);
        std::vector<double> in_time(pes, 0.0);
        for (std::uint32_t t = 0; t < n; ++t)
            if (out.mapping[t] != map[t]) {
                ++r.migrations;
                r.migration_bytes += prm.task_bytes;
                in_time[out.mapping[t].value] +=
                    model.transfer_seconds(map[t], out.mapping[t], prm.task_bytes) +
                    costs.migration_seconds_per_task;
                in_time[map[t].value] += costs.migration_seconds_per_task;
            }
        r.migration_seconds += *std::max_element(in_time.begin(), in_time.end());
        map = out.mapping;
        ++r.steps;
        std::fill(measured.begin(), measured.end(), 0.0);
        since = 0;
    }
    if (r.steps) {
        r.max_avg_before /= r.steps;
        r.max_avg_after /= r.steps;
    }
    r.total_seconds = r.compute_seconds + r.decision_seconds + r.migration_seconds;
    return r;
}

void check_same(const SimulationResult& got, const SimulationResult& want, bool timing_too) {
    const auto near = [](double x) { return Approx(x).epsilon(1e-12).margin(1e-300); };
    CHECK(got.compute_seconds == near(want.compute_seconds));
    CHECK(got.migration_seconds == near(want.migration_seconds));
    CHECK(got.hop_bytes == near(want.hop_bytes));
    CHECK(got.latency_bytes == near(want.latency_bytes));
    CHECK(got.max_avg_before == near(want.max_avg_before));
    CHECK(got.max_avg_after == near(want.max_avg_after));
    CHECK(got.migrations == want.migrations);
    CHECK(got.migration_bytes == want.migration_bytes);
    CHECK(got.messages == want.messages);
    CHECK(got.messages_lost == want.messages_lost);
    CHECK(got.rounds == want.rounds);
    CHECK(got.steps == want.steps);
    if (timing_too) {
        CHECK(got.decision_seconds == near(want.decision_seconds));
        CHECK(got.total_seconds == near(want.total_seconds));
    }
}

} // namespace

TEST_CASE("simulator: a two-PE run computed by hand", "[balance][simulator]") {
    // Two one-PU machines on one link of 1 us and 8 Gbit/s: a transfer of B
    // bytes takes 1e-6 + B * 1e-9 seconds.
    const Cluster cluster = generate_from_spec(
        "complete --machines 2 --machine pu:1 --latency all=1000 --bandwidth all=8");
    const CommModel model(cluster);
    REQUIRE(model.transfer_seconds(PeId(0), PeId(1), 1000) == Approx(2e-6));
    LbTestParams p;
    p.tasks = 2;
    p.iterations = 4;
    p.every = 2;
    p.task_bytes = 1e6;
    const Workload w(p);
    const auto l0 = w.loads(0), l1 = w.loads(1);
    // Two ring tasks send 1000 bytes twice each way: 4000 bytes a pair.
    REQUIRE(w.graph().edges().front().bytes == 4000);
    const FakeStrategy both_on_1(true, {PeId(1), PeId(1)});
    const SimulationResult r = simulate(model, w, &both_on_1);

    // Iterations 0 and 1 (phase 0) apart, each PE sending 2000 bytes; then
    // one step; 2 (phase 0) and 3 (phase 1: lb_test redraws after
    // every * 3/2 iterations) together on PE 1.
    const double comm = 1e-6 + 2000e-9;
    const double compute = 2 * (std::max(l0[0], l0[1]) + comm) + (l0[0] + l0[1]) + (l1[0] + l1[1]);
    CHECK(r.compute_seconds == Approx(compute).epsilon(1e-12));
    CHECK(r.steps == 1);
    CHECK(r.migrations == 1);
    CHECK(r.migration_bytes == 1e6);
    CHECK(r.migration_seconds == Approx(1e-6 + 1e6 * 1e-9).epsilon(1e-12));
    CHECK(r.decision_seconds == 0.25);
    CHECK(r.messages == 10);
    CHECK(r.rounds == 3);
    CHECK(r.total_seconds == Approx(compute + 0.25 + 1.001e-3).epsilon(1e-12));
    CHECK(r.hop_bytes == 2 * 4000);
    CHECK(r.latency_bytes == Approx(2 * 4000 * 1000.0));
    // The strategy saw each task's mean over iterations 0 and 1.
    REQUIRE(both_on_1.seen.size() == 1);
    const double m0 = l0[0], m1 = l0[1];
    CHECK(both_on_1.seen[0][0] == Approx(m0));
    CHECK(both_on_1.seen[0][1] == Approx(m1));
    CHECK(r.max_avg_before == Approx(std::max(m0, m1) / ((m0 + m1) / 2)));
    CHECK(r.max_avg_after == Approx(2.0));
}

TEST_CASE("simulator: agrees with a naive replay on random small runs", "[balance][simulator]") {
    std::mt19937_64 rng(21);
    const char* clusters[] = {
        "complete --machines 2 --machine pu:1 --latency all=500",
        "complete --machines 1 --machine 'core:3 pu:1'",
        "ring --machines 3 --machine pu:1 --bandwidth all=25",
        "complete --machines 2 --machine 'core:2 pu:1'",
    };
    const CommPattern patterns[] = {CommPattern::Ring, CommPattern::Mesh2D, CommPattern::Mesh3D,
                                    CommPattern::RandGraph};
    for (int round = 0; round < 60; ++round) {
        const Cluster cluster = generate_from_spec(clusters[round % 4]);
        const CommModel model(cluster);
        LbTestParams p;
        p.tasks = 1 + rng() % 12;
        p.pattern = patterns[rng() % 4];
        p.iterations = 1 + rng() % 25;
        p.every = 1 + rng() % 6;
        p.seed = rng();
        p.task_bytes = double(rng() % 100000);
        const Workload w(p);
        std::vector<double> speed;
        if (rng() % 2)
            for (std::uint32_t q = 0; q < cluster.num_pes(); ++q)
                speed.push_back(0.5 + double(rng() % 100) / 50);
        SimulationOptions options;
        options.pe_speeds = speed;
        const FakeStrategy s(true, {}, round), oracle_s(true, {}, round);
        INFO("round " << round << " tasks " << p.tasks << " every " << p.every << " iterations "
                      << p.iterations);
        const SimulationResult got = simulate(model, w, &s, options);
        const SimulationResult want = replay(model, w, &oracle_s, speed);
        check_same(got, want, true);
        REQUIRE(s.seen.size() == oracle_s.seen.size());
        for (std::size_t k = 0; k < s.seen.size(); ++k)
            for (std::size_t t = 0; t < p.tasks; ++t)
                CHECK(s.seen[k][t] == Approx(oracle_s.seen[k][t]).epsilon(1e-12));
        for (std::size_t k = 0; k < s.steps.size(); ++k) CHECK(s.steps[k] == k);
        // Without a strategy: the same replay, no steps.
        check_same(simulate(model, w, nullptr, options), replay(model, w, nullptr, speed), true);
    }
}

TEST_CASE("simulator: every cost against the naive replay", "[balance][simulator][costs]") {
    std::mt19937_64 rng(77);
    const char* clusters[] = {
        "complete --machines 2 --machine 'core:2 pu:1' --latency all=700 --bandwidth all=10",
        "ring --machines 3 --machine 'core:2 pu:1'",
        "complete --machines 1 --machine 'core:3 pu:1'",
    };
    const auto draw = [&](double scale) { return rng() % 3 == 0 ? 0.0 : scale * (rng() % 100); };
    for (int round = 0; round < test::random_cases(45); ++round) {
        const Cluster cluster = generate_from_spec(clusters[round % 3]);
        CommModelOptions mo;
        mo.network_costs = {draw(1e-7), draw(1e-7)};
        mo.intra_machine_costs = {draw(1e-8), draw(1e-8)};
        mo.min_round_seconds = draw(1e-6);
        const CommModel model(cluster, mo);
        LbTestParams p;
        p.tasks = 1 + rng() % 14;
        p.pattern = round % 2 ? CommPattern::Mesh2D : CommPattern::Ring;
        p.iterations = 1 + rng() % 20;
        p.every = 1 + rng() % 5;
        p.seed = rng();
        const Workload w(p);
        SimulationOptions options;
        options.measure_wall_time = false;
        StepCosts& c = options.step_costs;
        c.gather_statistics = rng() % 2;
        c.stats_bytes_per_pe = draw(10);
        c.stats_bytes_per_task = draw(1);
        c.stats_bytes_per_edge = draw(1);
        c.decision_bytes_per_migration = draw(1);
        c.local_seconds_per_task = draw(1e-6);
        c.migration_seconds_per_task = draw(1e-6);
        c.load_noise = draw(0.002);
        INFO("round " << round);
        for (const bool distributed : {true, false}) {
            const FakeStrategy s(distributed, {}, round), oracle_s(distributed, {}, round);
            check_same(simulate(model, w, &s, options), replay(model, w, &oracle_s, {}, c), true);
            REQUIRE(s.seen.size() == oracle_s.seen.size());
            for (std::size_t k = 0; k < s.seen.size(); ++k)
                for (std::size_t t = 0; t < p.tasks; ++t)
                    CHECK(s.seen[k][t] == Approx(oracle_s.seen[k][t]).epsilon(1e-12));
        }
        check_same(simulate(model, w, nullptr, options), replay(model, w, nullptr, {}, c), true);
    }
}

TEST_CASE("simulator: none first, speedups, determinism", "[balance][simulator]") {
    const Cluster cluster =
        generate_from_spec("complete --machines 2 --machine 'core:2 pu:1' --latency all=2000");
    const CommModel model(cluster);
    LbTestParams p;
    p.tasks = 40;
    p.iterations = 30;
    p.every = 8;
    const Workload w(p);
    const FakeStrategy random_moves(true, {}, 4);
    const FakeStrategy central(false, std::vector<PeId>(40, PeId(2)));
    const Strategy* list[] = {&random_moves, &central};
    const auto results = compare_strategies(model, w, list);
    REQUIRE(results.size() == 3);
    CHECK(results[0].strategy == "none");
    CHECK(results[0].migrations == 0);
    CHECK(results[0].steps == 3); // the balancing points it let pass: 8, 16, 24
    CHECK(results[0].decision_seconds == 0);
    CHECK(results[0].speedup == 1);
    CHECK(results[1].strategy == "fake-dist");
    CHECK(results[2].strategy == "fake");
    for (const SimulationResult& r : results)
        CHECK(r.speedup == Approx(results[0].total_seconds / r.total_seconds));
    CHECK(results[1].steps == 3);
    CHECK(results[2].migrations == 30); // all 40 onto PE 2 at the first step; 10 were there
    CHECK(results[2].decision_seconds == results[2].decision_wall_seconds);
    CHECK(results[1].decision_seconds == 0.25 + 0.5 + 0.75);
    // Everything but measured wall time is reproducible.
    const auto again = compare_strategies(model, w, list);
    for (std::size_t i = 0; i < results.size(); ++i) check_same(again[i], results[i], i < 2);
}

TEST_CASE("simulator: bad input is a usage error", "[balance][simulator]") {
    const Cluster cluster = generate_from_spec("complete --machines 2 --machine pu:1");
    const CommModel model(cluster);
    LbTestParams p;
    p.tasks = 4;
    p.iterations = 10;
    p.every = 3;
    const Workload w(p);
    SimulationOptions bad_speeds;
    bad_speeds.pe_speeds = {1.0};
    CHECK_THROWS_AS(simulate(model, w, nullptr, bad_speeds), UsageError);
    bad_speeds.pe_speeds = {1.0, 0.0};
    CHECK_THROWS_AS(simulate(model, w, nullptr, bad_speeds), UsageError);
    const FakeStrategy short_mapping(false, {PeId(0)});
    CHECK_THROWS_AS(simulate(model, w, &short_mapping), UsageError);
    const FakeStrategy off_cluster(false, {PeId(0), PeId(1), PeId(2), PeId(0)});
    CHECK_THROWS_AS(simulate(model, w, &off_cluster), UsageError);
}

TEST_CASE("simulator: results averaged over seeds, field by field", "[balance][simulator]") {
    SimulationResult a, b;
    a.strategy = b.strategy = "x";
    a.total_seconds = 1;
    b.total_seconds = 3;
    a.max_avg_after = 1.5;
    b.max_avg_after = 1.0;
    a.migrations = 3;
    b.migrations = 4; // 3.5 rounds to 4
    a.rounds = 10;
    b.rounds = 20;
    a.hop_bytes = 100;
    b.hop_bytes = 300;
    const std::vector<std::vector<SimulationResult>> runs{{a}, {b}};
    const auto mean = average_results(runs);
    REQUIRE(mean.size() == 1);
    CHECK(mean[0].strategy == "x");
    CHECK(mean[0].total_seconds == 2);
    CHECK(mean[0].max_avg_after == 1.25);
    CHECK(mean[0].migrations == 4);
    CHECK(mean[0].rounds == 15);
    CHECK(mean[0].hop_bytes == 200);
    CHECK(average_results({}).empty());
    const std::vector<std::vector<SimulationResult>> uneven{{a}, {a, b}};
    CHECK_THROWS_AS(average_results(uneven), UsageError);
}

TEST_CASE("simulator: steps and phases past 2^31 iterations do not wrap", "[balance][simulator]") {
    const Cluster cluster = generate_from_spec("complete --machines 1 --machine 'core:2 pu:1'");
    const CommModel model(cluster);
    LbTestParams p;
    p.tasks = 4;
    p.iterations = 4294967295u;
    p.every = 3000000000u; // one step; the next would be past 2^32
    const Workload w(p);
    // lb_test's first redraw would come after every * 3/2 > iterations.
    CHECK(w.phase_of_iteration(4294967294u) == 0);
    CHECK(w.next_phase_start(0) == std::numeric_limits<std::uint32_t>::max());
    const FakeStrategy keep(false, w.initial_mapping(2));
    const SimulationResult r = simulate(model, w, &keep);
    CHECK(r.steps == 1);
    const auto l = w.loads(0);
    const double makespan = std::max(l[0] + l[1], l[2] + l[3]);
    // Each PE also sends its ring neighbour on the other PE a message.
    CHECK(r.compute_seconds >= makespan * 4294967295.0 * (1 - 1e-9));
}
