// The costs real runs pay (issue 16): message overheads and gaps, round
// floors, statistics gathering, local computation, fixed migration costs
// and load noise. Each knob is checked to change what it should and
// nothing else; with every one at zero a run is what it was before.
#include "balance/protocol.hpp"
#include "nettopo/balance/simulator.hpp"
#include "nettopo/balance/step_costs.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/support/error.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>

using namespace nettopo;

namespace {

// Two machines of two PEs, 1 us apart at 8 Gbit/s.
Cluster two_by_two() {
    return generate_from_spec("complete --machines 2 --machine 'core:2 pu:1' --latency all=1000 "
                              "--bandwidth all=8");
}

CommModelOptions with_costs(double o_net, double g_net, double o_intra, double floor = 0) {
    CommModelOptions m;
    m.network_costs = {o_net, g_net};
    m.intra_machine_costs = {o_intra, 0};
    m.min_round_seconds = floor;
    return m;
}

LbTestParams small_run() {
    LbTestParams p;
    p.tasks = 64;
    p.iterations = 40;
    p.every = 10;
    p.min_load_us = 100;
    p.max_load_us = 9000;
    p.redraw = false;
    return p;
}

SimulationResult run(const CommModel& model, const char* strategy, const StepCosts& costs = {}) {
    const Workload w(small_run());
    SimulationOptions options;
    options.measure_wall_time = false;
    options.step_costs = costs;
    const auto s = make_strategy(strategy);
    return simulate(model, w, s.get(), options);
}

} // namespace

TEST_CASE("costs: a message's o and g by kind of pair", "[balance][costs]") {
    const Cluster c = two_by_two();
    const CommModel model(c, with_costs(5e-6, 8e-6, 1e-6));
    CHECK(model.has_software_costs());
    CHECK(model.send_seconds(PeId(0), PeId(2)) == 8e-6); // max(o, g) across machines
    CHECK(model.receive_seconds(PeId(0), PeId(2)) == 5e-6);
    CHECK(model.send_seconds(PeId(0), PeId(1)) == 1e-6); // one machine
    CHECK(model.receive_seconds(PeId(1), PeId(0)) == 1e-6);
    CHECK(model.send_seconds(PeId(3), PeId(3)) == 0); // the PE itself
    CHECK_FALSE(CommModel(c).has_software_costs());
    CHECK(CommModel(c, with_costs(0, 0, 0, 1e-6)).has_software_costs());
    CHECK_THROWS_AS(CommModel(c, with_costs(-1e-6, 0, 0)), UsageError);
    CHECK_THROWS_AS(CommModel(c, with_costs(0, 0, 0, std::nan(""))), UsageError);
}

TEST_CASE("costs: a protocol round pays overheads, gaps and its floor", "[balance][costs]") {
    const Cluster c = two_by_two();
    const double L = 1e-6, bytes = 100, wire = L + bytes * 8 / 8e9;
    SECTION("without software costs: the slowest message only") {
        const CommModel model(c);
        protocol::Network net(model, {}, 4, 1);
        for (std::uint32_t to : {1u, 2u, 3u}) net.send({0, to, 0, 0, 0, 0, bytes});
        net.next_round();
        net.next_round(); // nothing arrives: free
        BalanceOutcome out;
        net.report(out);
        CHECK(out.protocol_seconds == Approx(wire).epsilon(1e-12));
    }
    SECTION("with them: the busiest sender, the wire, the busiest receiver, the floor") {
        const double o = 5e-6, g = 8e-6, o_intra = 1e-6, floor = 20e-6;
        const CommModel model(c, with_costs(o, g, o_intra, floor));
        protocol::Network net(model, {}, 4, 1);
        // PE 0 sends to 1 (same machine), 2 and 3; PE 3 sends to 2 (same machine).
        for (std::uint32_t to : {1u, 2u, 3u}) net.send({0, to, 0, 0, 0, 0, bytes});
        net.send({3, 2, 0, 0, 0, 0, bytes});
        net.next_round();
        BalanceOutcome out;
        net.report(out);
        // Sender 0: o_intra + 2 max(o, g); receiver 2: one message of each kind.
        const double round = (o_intra + 2 * g) + wire + (o + o_intra);
        REQUIRE(round > floor);
        CHECK(out.protocol_seconds == Approx(round).epsilon(1e-12));
        net.next_round(); // nothing arrives: the floor
        net.report(out);
        CHECK(out.protocol_seconds == Approx(round + floor).epsilon(1e-12));
        // A lost message still costs its sender.
        protocol::Network lossy(model, FaultModel{1.0, 0, 0}, 4, 1);
        lossy.send({0, 2, 0, 0, 0, 0, bytes});
        lossy.next_round();
        lossy.report(out);
        CHECK(out.messages_lost == 1);
        CHECK(out.protocol_seconds == Approx(std::max(floor, g)).epsilon(1e-12));
    }
    SECTION("collectives: 2 ceil(log2 P) (L + 2o)") {
        const CommModel model(c, with_costs(5e-6, 0, 1e-6));
        protocol::Network net(model, {}, 4, 1);
        net.collective();
        BalanceOutcome out;
        net.report(out);
        CHECK(out.protocol_seconds == Approx(2 * 2 * (L + 2 * 5e-6)).epsilon(1e-12));
    }
}

TEST_CASE("costs: statistics gathering and the decision broadcast", "[balance][costs]") {
    const Cluster c = two_by_two();
    const CommModel model(c, with_costs(5e-6, 0, 1e-6));
    // 4 tasks in a ring (t-1, t+1, no wrap): degrees 1 2 2 1; tasks 0,1 on
    // PE 0, 2 on PE 1, 3 on PE 2, none on PE 3.
    const TaskEdge edges[] = {
        {TaskId(0), TaskId(1), 10}, {TaskId(1), TaskId(2), 10}, {TaskId(2), TaskId(3), 10}};
    const TaskGraph graph(4, edges);
    const std::vector<PeId> mapping{PeId(0), PeId(0), PeId(1), PeId(2)};
    StepCosts costs;
    CHECK(statistics_gather_seconds(model, graph, mapping, costs) == 0); // off
    CHECK(decision_broadcast_seconds(model, 7, costs) == 0);
    costs.gather_statistics = true;
    costs.stats_bytes_per_pe = 100;
    costs.stats_bytes_per_task = 50;
    costs.stats_bytes_per_edge = 10;
    costs.decision_bytes_per_migration = 20;
    // PE 1: 100 + 50 + 2*10 = 170 B over the intra-machine 100 Gbit/s; PE 2:
    // 100 + 50 + 10 = 160 B and PE 3: 100 B over 8 Gbit/s.
    const double intra_latency_s = c.intra_machine_latency(PeId(0), PeId(1)) * 1e-9;
    const double serial =
        (1e-6 + 170 * 8 / 100e9) + (5e-6 + 160 * 8 / 8e9) + (5e-6 + 100 * 8 / 8e9);
    CHECK(statistics_gather_seconds(model, graph, mapping, costs) ==
          Approx(5e-6 + std::max(1e-6, intra_latency_s) + serial).epsilon(1e-12));
    // 2 levels of (1 us + 2 o + (100 + 7 * 20) B at 8 Gbit/s).
    CHECK(decision_broadcast_seconds(model, 7, costs) ==
          Approx(2 * (1e-6 + 10e-6 + 240 * 8 / 8e9)).epsilon(1e-12));
}

TEST_CASE("costs: load noise is seeded, unbiased and never negative", "[balance][costs]") {
    std::vector<double> ones(200000, 1.0), a = ones, b = ones, c = ones;
    apply_load_noise(a, 0.1, 7, 3);
    apply_load_noise(b, 0.1, 7, 3);
    apply_load_noise(c, 0.1, 7, 4);
    CHECK(a == b);
    CHECK(a != c);
    const double mean = std::accumulate(a.begin(), a.end(), 0.0) / a.size();
    double var = 0;
    for (double x : a) var += (x - mean) * (x - mean);
    CHECK(mean == Approx(1).margin(0.002));
    CHECK(std::sqrt(var / a.size()) == Approx(0.1).epsilon(0.02));
    std::vector<double> wide = ones;
    apply_load_noise(wide, 3.0, 1, 0);
    CHECK(*std::min_element(wide.begin(), wide.end()) == 0); // clamped, not negative
    std::vector<double> exact = ones;
    apply_load_noise(exact, 0, 1, 0);
    CHECK(exact == ones);
    StepCosts bad;
    bad.load_noise = -0.1;
    CHECK_THROWS_AS(bad.check(), UsageError);
}

TEST_CASE("costs: each knob changes what it should and nothing else", "[balance][costs]") {
    const Cluster c = two_by_two();
    const CommModel plain(c);
    const auto same_decisions = [](const SimulationResult& a, const SimulationResult& b) {
        CHECK(a.migrations == b.migrations);
        CHECK(a.messages == b.messages);
        CHECK(a.max_avg_after == b.max_avg_after);
        CHECK(a.hop_bytes == b.hop_bytes);
    };
    for (const char* name : {"greedy", "refine", "grapevine", "packdrop", "neighbor"}) {
        INFO(name);
        const bool distributed = make_strategy(name)->distributed();
        const SimulationResult base = run(plain, name);
        SECTION("message overhead: iterations and protocols cost more") {
            const CommModel model(c, with_costs(20e-6, 0, 2e-6));
            const SimulationResult r = run(model, name);
            same_decisions(r, base);
            CHECK(r.compute_seconds > base.compute_seconds);
            CHECK(r.migration_seconds == base.migration_seconds);
            if (distributed && base.messages > 0)
                CHECK(r.decision_seconds > base.decision_seconds);
            else if (!distributed)
                CHECK(r.decision_seconds == base.decision_seconds);
        }
        SECTION("round floor: only protocols") {
            const CommModel model(c, with_costs(0, 0, 0, 1e-3));
            const SimulationResult r = run(model, name);
            same_decisions(r, base);
            CHECK(r.compute_seconds == base.compute_seconds);
            if (distributed)
                CHECK(r.decision_seconds >= base.decision_seconds + 1e-3 * r.rounds * 0.999);
            else
                CHECK(r.decision_seconds == base.decision_seconds);
        }
        SECTION("statistics gathering: only centralised decisions") {
            StepCosts costs;
            costs.gather_statistics = true;
            costs.stats_bytes_per_task = 100;
            const SimulationResult r = run(plain, name, costs);
            same_decisions(r, base);
            CHECK(r.compute_seconds == base.compute_seconds);
            CHECK(r.migration_seconds == base.migration_seconds);
            if (distributed)
                CHECK(r.decision_seconds == base.decision_seconds);
            else
                CHECK(r.decision_seconds > base.decision_seconds);
        }
        SECTION("local computation: only distributed decisions") {
            StepCosts costs;
            costs.local_seconds_per_task = 1e-5;
            const SimulationResult r = run(plain, name, costs);
            same_decisions(r, base);
            CHECK(r.compute_seconds == base.compute_seconds);
            // 3 steps, 16 tasks per PE at the first (blocks), never fewer than 16 on the busiest.
            if (distributed)
                CHECK(r.decision_seconds >= base.decision_seconds + 3 * 16 * 1e-5 * 0.999);
            else
                CHECK(r.decision_seconds == base.decision_seconds);
        }
        SECTION("fixed migration cost: only migration time, by the moves") {
            StepCosts costs;
            costs.migration_seconds_per_task = 1e-3;
            const SimulationResult r = run(plain, name, costs);
            same_decisions(r, base);
            CHECK(r.compute_seconds == base.compute_seconds);
            CHECK(r.decision_seconds == base.decision_seconds);
            if (base.migrations > 0)
                CHECK(r.migration_seconds > base.migration_seconds + 1e-3);
            else
                CHECK(r.migration_seconds == base.migration_seconds);
        }
        SECTION("load noise: what the strategy sees, not what the run costs") {
            StepCosts costs;
            costs.load_noise = 0.2;
            const SimulationResult r = run(plain, name, costs);
            // The run differs through the decisions the noisy view led to
            // (the replay test checks that the run itself costs true loads).
            CHECK((r.migrations != base.migrations || r.max_avg_after != base.max_avg_after));
        }
    }
}

TEST_CASE("costs: with noise, Greedy keeps moving tasks at every step", "[balance][costs]") {
    // Exact loads: Greedy rebuilds the same placement and moves nothing
    // after the first step. With 5 % noise it moves tasks at every step,
    // as Charm++'s Greedy does on measured wall times.
    const Cluster c = two_by_two();
    const CommModel model(c);
    const SimulationResult exact = run(model, "greedy");
    StepCosts costs;
    costs.load_noise = 0.05;
    const SimulationResult noisy = run(model, "greedy", costs);
    const Workload w(small_run());
    SimulationOptions first_only;
    first_only.measure_wall_time = false;
    LbTestParams one = small_run();
    one.iterations = 11; // a single step
    const auto greedy = make_strategy("greedy");
    const SimulationResult first = simulate(model, Workload(one), greedy.get(), first_only);
    CHECK(exact.migrations == first.migrations);
    CHECK(noisy.migrations > first.migrations + 10);
}
