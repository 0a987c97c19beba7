// The centralised strategies against independent answers: brute-force
// optima and a naive list scheduler for Greedy, a naive Refiner.C pass for
// Refine's heap machinery, SmartLB's stopping rule checked from the final
// state, and hop-bytes counted with BFS hops (NetworkSearch) rather than the
// CommModel the strategies use.
#include "balance/refine_charm.hpp"
#include "balance/refiner.hpp"
#include "nettopo/balance/balance.hpp"
#include "nettopo/balance/comm_model.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/random_cluster.hpp"
#include "testkit/sanitizer_scale.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <list>
#include <numeric>
#include <random>

namespace nettopo {

namespace {

const std::vector<std::string> central = {"greedy", "refine",      "refine-heap", "average",
                                          "smart",  "topo-greedy", "topo-refine"};

// One machine of `pes` cores: a flat set of PEs.
Cluster flat_cluster(std::uint32_t pes) {
    test::ClusterSpec spec;
    test::MachineSpec m;
    m.description = fmt::format("core:{} pu:1", pes);
    m.levels = {{ObjectType::Core, pes}, {ObjectType::PU, 1}};
    spec.machines = {m};
    return test::build_cluster(spec);
}

Cluster torus_cluster(const std::string& family, const std::string& machine) {
    return generate(*family_from_spec(family), synthetic_machine(machine, {}));
}

struct State {
    std::vector<double> loads;
    TaskGraph graph;
    std::vector<double> speeds; // empty: all 1
    std::vector<PeId> mapping;

    BalanceInput input(const CommModel& model) const {
        return {model, loads, graph, speeds, mapping};
    }
};

// lb_test's loads: min + (max - min) U^4.
std::vector<double> lbtest_loads(std::size_t n, double min, double max, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<double> loads(n);
    for (double& l : loads) l = min + (max - min) * std::pow(u(rng), 4);
    return loads;
}

// Consecutive tasks in blocks over the PEs, as Charm++ places an array.
std::vector<PeId> block_mapping(std::size_t n, std::uint32_t pes) {
    std::vector<PeId> m(n);
    for (std::size_t t = 0; t < n; ++t) m[t] = PeId(static_cast<std::uint32_t>(t * pes / n));
    return m;
}

// Mesh3D: each task talks to its 6 neighbours on an x*y*z torus grid.
TaskGraph mesh3d(std::uint32_t x, std::uint32_t y, std::uint32_t z, double bytes) {
    std::vector<TaskEdge> edges;
    const auto id = [&](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
        return TaskId((k * y + j) * x + i);
    };
    for (std::uint32_t k = 0; k < z; ++k)
        for (std::uint32_t j = 0; j < y; ++j)
            for (std::uint32_t i = 0; i < x; ++i) {
                edges.push_back({id(i, j, k), id((i + 1) % x, j, k), bytes});
                edges.push_back({id(i, j, k), id(i, (j + 1) % y, k), bytes});
                edges.push_back({id(i, j, k), id(i, j, (k + 1) % z), bytes});
            }
    return TaskGraph(x * y * z, edges);
}

std::vector<double> loads_of(const BalanceInput& in, std::span<const PeId> mapping) {
    return pe_loads(in, mapping);
}
double max_of(const std::vector<double>& v) {
    return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}
double average_of(const BalanceInput& in) {
    const double work = std::accumulate(in.task_loads.begin(), in.task_loads.end(), 0.0);
    const std::uint32_t p = in.comm_model.cluster().num_pes();
    const double speed =
        in.pe_speeds.empty() ? p : std::accumulate(in.pe_speeds.begin(), in.pe_speeds.end(), 0.0);
    return work / speed;
}
std::size_t moves(std::span<const PeId> before, std::span<const PeId> after) {
    std::size_t n = 0;
    for (std::size_t t = 0; t < before.size(); ++t) n += before[t] != after[t];
    return n;
}

void require_complete(const BalanceInput& in, const BalanceOutcome& out) {
    REQUIRE(out.mapping.size() == in.task_loads.size());
    for (PeId p : out.mapping) REQUIRE(p.value < in.comm_model.cluster().num_pes());
    REQUIRE(out.messages == 0);
}

// Smallest makespan over every assignment (equal speeds), branch and bound.
double brute_force_optimum(std::vector<double> loads, std::uint32_t pes) {
    std::sort(loads.rbegin(), loads.rend());
    std::vector<double> pe(pes, 0);
    double best = std::accumulate(loads.begin(), loads.end(), 0.0);
    const auto search = [&](auto&& self, std::size_t t, double current) -> void {
        if (current >= best) return;
        if (t == loads.size()) {
            best = current;
            return;
        }
        for (std::uint32_t p = 0; p < pes; ++p) {
            bool same = false; // PEs of equal load are interchangeable
            for (std::uint32_t q = 0; q < p; ++q) same = same || pe[q] == pe[p];
            if (same) continue;
            pe[p] += loads[t];
            self(self, t + 1, std::max(current, pe[p]));
            pe[p] -= loads[t];
        }
    };
    search(search, 0, 0);
    return best;
}

// List scheduling written the obvious way: heaviest first, every PE scanned.
std::vector<PeId> naive_greedy(const BalanceInput& in) {
    const std::uint32_t pes = in.comm_model.cluster().num_pes();
    std::vector<std::uint32_t> order(in.task_loads.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return in.task_loads[a] > in.task_loads[b];
    });
    std::vector<double> load(pes, 0);
    std::vector<PeId> m(order.size());
    for (std::uint32_t t : order) {
        std::uint32_t best = 0;
        double best_after = 0;
        for (std::uint32_t p = 0; p < pes; ++p) {
            const double s = in.pe_speeds.empty() ? 1 : in.pe_speeds[p];
            const double after = load[p] + in.task_loads[t] / s;
            if (p == 0 || after < best_after) {
                best = p;
                best_after = after;
            }
        }
        load[best] = best_after;
        m[t] = PeId(best);
    }
    return m;
}

// One Refiner.C pass written the obvious way: the heaviest PE above the
// limit, every (light PE, task) pair scanned; the largest task, then the
// PE with the most room, then lower ids.
bool naive_refine(const BalanceInput& in, double tolerance, std::vector<PeId>& m) {
    const std::uint32_t pes = in.comm_model.cluster().num_pes();
    const auto speed = [&](std::uint32_t p) {
        return in.pe_speeds.empty() ? 1.0 : in.pe_speeds[p];
    };
    m.assign(in.mapping.begin(), in.mapping.end());
    std::vector<double> load = pe_loads(in, m);
    const double avg = average_of(in), limit = tolerance * avg;
    for (;;) {
        std::uint32_t donor = pes;
        for (std::uint32_t p = 0; p < pes; ++p)
            if (load[p] > limit && (donor == pes || load[p] > load[donor])) donor = p;
        if (donor == pes) return true;
        std::size_t task = m.size();
        std::uint32_t to = pes;
        for (std::uint32_t p = 0; p < pes; ++p) {
            if (!(load[p] < avg)) continue;
            for (std::size_t t = 0; t < m.size(); ++t) {
                if (m[t].value != donor) continue;
                if (!(in.task_loads[t] / speed(p) + load[p] < limit)) continue;
                const auto key = [&](std::size_t c, std::uint32_t r) {
                    return std::tuple(in.task_loads[c], (limit - load[r]) * speed(r),
                                      -static_cast<double>(r), -static_cast<double>(c));
                };
                if (task == m.size() || key(t, p) > key(task, to)) {
                    task = t;
                    to = p;
                }
            }
        }
        if (task == m.size()) return false;
        load[donor] -= in.task_loads[task] / speed(donor);
        load[to] += in.task_loads[task] / speed(to);
        m[task] = PeId(to);
    }
}

// Hop-bytes of a mapping with machine hops from BFS on the built network.
struct HopOracle {
    explicit HopOracle(const Cluster& c) : cluster(c), machines(c.num_machines()) {
        NetworkSearch search(c.network());
        std::vector<std::uint32_t> hops;
        table.resize(std::size_t{machines} * machines);
        for (std::uint32_t m = 0; m < machines; ++m) {
            search.hops_from(c.vertex(MachineId(m)), hops);
            for (std::uint32_t x = 0; x < machines; ++x) table[m * machines + x] = hops[x];
        }
    }
    double hop_bytes(const TaskGraph& g, std::span<const PeId> mapping) const {
        double total = 0;
        for (const TaskEdge& e : g.edges())
            total += e.bytes * table[cluster.machine_of(mapping[e.a.value]).value * machines +
                                     cluster.machine_of(mapping[e.b.value]).value];
        return total;
    }
    const Cluster& cluster;
    std::uint32_t machines;
    std::vector<std::uint32_t> table;
};

// A random state on a cluster: lb_test or uniform loads, block, random or
// lopsided mapping, equal or unequal speeds (exact binary fractions or not).
State random_state(std::uint32_t pes, std::mt19937_64& rng, bool integer_loads) {
    State s;
    const std::size_t n = rng() % 160;
    s.loads = lbtest_loads(n, 1, 1000, rng);
    if (integer_loads)
        for (double& l : s.loads) l = std::round(l);
    switch (rng() % 3) {
    case 0:
        s.mapping = block_mapping(n, pes);
        break;
    case 1:
        for (std::size_t t = 0; t < n; ++t) s.mapping.emplace_back(rng() % pes);
        break;
    default: // most tasks on a few PEs
        for (std::size_t t = 0; t < n; ++t) s.mapping.emplace_back(rng() % std::min(pes, 3u));
    }
    switch (rng() % 3) {
    case 0:
        break;
    case 1:
        for (std::uint32_t p = 0; p < pes; ++p)
            s.speeds.push_back(std::ldexp(1.0, int(rng() % 3) - 1));
        break;
    default:
        for (std::uint32_t p = 0; p < pes; ++p) s.speeds.push_back(0.3 + (rng() % 1000) / 500.0);
    }
    std::vector<TaskEdge> edges;
    for (std::size_t t = 1; t < n; ++t)
        edges.push_back({TaskId(static_cast<std::uint32_t>(t - 1)),
                         TaskId(static_cast<std::uint32_t>(t)), 1000});
    for (std::size_t i = 0; n > 1 && i < n / 4; ++i)
        edges.push_back({TaskId(static_cast<std::uint32_t>(rng() % n)),
                         TaskId(static_cast<std::uint32_t>(rng() % n)), 500});
    s.graph = TaskGraph(static_cast<std::uint32_t>(n), edges);
    return s;
}

} // namespace

TEST_CASE("greedy: LPT within (4/3 - 1/3P) of the brute-force optimum", "[balance][greedy]") {
    std::mt19937_64 rng(4242);
    const auto greedy = make_strategy("greedy");
    for (std::uint32_t pes = 2; pes <= 4; ++pes) {
        const Cluster c = flat_cluster(pes);
        const CommModel model(c);
        for (int round = 0; round < 80; ++round) {
            State s;
            const std::size_t n = rng() % 10 + 1;
            for (std::size_t t = 0; t < n; ++t) s.loads.push_back(double(rng() % 20 + 1));
            s.mapping.assign(n, PeId(0));
            s.graph = TaskGraph(static_cast<std::uint32_t>(n), {});
            const BalanceInput in = s.input(model);
            const BalanceOutcome out = greedy->balance(in);
            require_complete(in, out);
            const double got = max_of(loads_of(in, out.mapping));
            const double opt = brute_force_optimum(s.loads, pes);
            INFO("P=" << pes << " n=" << n);
            REQUIRE(got >= opt);
            REQUIRE(got <= (4.0 / 3 - 1.0 / (3 * pes)) * opt + 1e-9);
            REQUIRE(got <=
                    average_of(in) + *std::max_element(s.loads.begin(), s.loads.end()) + 1e-9);
        }
    }
}

TEST_CASE("greedy: hand-worked instances", "[balance][greedy]") {
    const Cluster two = flat_cluster(2);
    const CommModel model(two);
    State s;
    s.loads = {3, 3, 2, 2, 2}; // LPT's worst case on 2 PEs: 7 where 6 is possible
    s.mapping.assign(5, PeId(1));
    s.graph = TaskGraph(5, {});
    const BalanceOutcome out = make_strategy("greedy")->balance(s.input(model));
    CHECK(max_of(loads_of(s.input(model), out.mapping)) == 7);
    CHECK(out.mapping == std::vector<PeId>{PeId(0), PeId(1), PeId(0), PeId(1), PeId(0)});
    // A PE twice as fast takes the big task and one more: 4/2 + 2/2 = 3 each way.
    s.loads = {4, 2, 2};
    s.mapping.assign(3, PeId(0));
    s.graph = TaskGraph(3, {});
    s.speeds = {1, 2};
    const BalanceOutcome fast = make_strategy("greedy")->balance(s.input(model));
    CHECK(fast.mapping == std::vector<PeId>{PeId(1), PeId(0), PeId(1)});
    CHECK(max_of(loads_of(s.input(model), fast.mapping)) == 3);
}

TEST_CASE("greedy: the heap placement equals naive list scheduling, any speeds",
          "[balance][greedy]") {
    std::mt19937_64 rng(9090);
    const auto greedy = make_strategy("greedy");
    for (std::uint32_t pes : {1u, 3u, 8u, 17u}) {
        const Cluster c = flat_cluster(pes);
        const CommModel model(c);
        for (int round = 0; round < 60; ++round) {
            const State s = random_state(pes, rng, false);
            const BalanceInput in = s.input(model);
            const BalanceOutcome out = greedy->balance(in);
            require_complete(in, out);
            REQUIRE(out.mapping == naive_greedy(in));
            if (s.speeds.empty() && !s.loads.empty())
                REQUIRE(max_of(loads_of(in, out.mapping)) <=
                        average_of(in) + *std::max_element(s.loads.begin(), s.loads.end()) + 1e-9);
        }
    }
}

TEST_CASE("refine: one pass equals a naive Refiner.C pass", "[balance][refine]") {
    std::mt19937_64 rng(1105);
    for (int round = 0; round < 300; ++round) {
        const auto pes = static_cast<std::uint32_t>(rng() % 12 + 1);
        const Cluster c = flat_cluster(pes);
        const CommModel model(c);
        State s = random_state(pes, rng, true);
        if (!s.speeds.empty())
            for (double& sp : s.speeds) sp = std::ldexp(1.0, int(rng() % 3) - 1); // exact
        const BalanceInput in = s.input(model);
        balance::RefineState state(in);
        for (double tolerance : {1.0, 1.05, 1.2, 1.6}) {
            std::vector<PeId> expected;
            const bool ok = naive_refine(in, tolerance, expected);
            INFO("round " << round << " tolerance " << tolerance);
            REQUIRE(state.refine(tolerance, balance::LargestTaskPicker()) == ok);
            REQUIRE(std::vector<PeId>(state.mapping().begin(), state.mapping().end()) == expected);
        }
    }
}

TEST_CASE("refine and topo-refine: never raise the maximum, end under the tolerance reached",
          "[balance][refine][topo-refine]") {
    std::mt19937_64 rng(60601);
    test::RandomOptions options;
    options.max_machines = 8;
    StrategyOptions so;
    std::size_t refine_moves = 0, greedy_moves = 0;
    for (int round = 0; round < 240; ++round) {
        const test::ClusterSpec spec = test::random_cluster(rng, options);
        const Cluster c = test::build_cluster(spec);
        const CommModel model(c);
        const State s = random_state(c.num_pes(), rng, false);
        const BalanceInput in = s.input(model);
        const double before = max_of(loads_of(in, s.mapping)), avg = average_of(in);
        const balance::LargestTaskPicker largest;
        for (const std::string name : {"refine-heap", "topo-refine"}) {
            INFO("round " << round << " " << name);
            const BalanceOutcome out = make_strategy(name, so)->balance(in);
            require_complete(in, out);
            const std::vector<double> after = loads_of(in, out.mapping);
            REQUIRE(max_of(after) <= before * (1 + 1e-12));
            if (name == "refine-heap") {
                const balance::RefineResult r = balance::multirefine(in, so, largest);
                REQUIRE(r.mapping == out.mapping);
                for (double l : after) REQUIRE(l <= r.tolerance * avg * (1 + 1e-12));
                // The search stopped at the first step that works.
                if (r.tolerance > so.refine_tolerance + 1e-9 && r.tolerance < before / avg) {
                    balance::RefineState fresh(in);
                    REQUIRE_FALSE(fresh.refine(r.tolerance - so.refine_step, largest));
                }
                refine_moves += moves(s.mapping, out.mapping);
                greedy_moves += moves(s.mapping, make_strategy("greedy")->balance(in).mapping);
            }
        }
    }
    // Refine keeps most tasks where they are; Greedy moves most of them.
    CHECK(refine_moves * 4 < greedy_moves);
}

TEST_CASE("refine: hand-worked moves", "[balance][refine]") {
    const Cluster two = flat_cluster(2);
    const CommModel model(two);
    State s;
    s.loads = {4, 3, 1}; // all on PE 0: avg 4, limit 4.2: the 4 moves, nothing else
    s.mapping.assign(3, PeId(0));
    s.graph = TaskGraph(3, {});
    const BalanceOutcome out = make_strategy("refine-heap")->balance(s.input(model));
    CHECK(out.mapping == std::vector<PeId>{PeId(1), PeId(0), PeId(0)});
    // Balanced within 1.05: nothing moves.
    s.loads = {10, 10.4};
    s.mapping = {PeId(0), PeId(1)};
    s.graph = TaskGraph(2, {});
    CHECK(make_strategy("refine-heap")->balance(s.input(model)).mapping == s.mapping);
    // {5, 5} on PE 0 of 2: neither fits under 1.05 x 5 on PE 1... the 5 does
    // (0 + 5 < 5.25): one move.
    s.loads = {5, 5};
    s.mapping = {PeId(0), PeId(0)};
    CHECK(moves(s.mapping, make_strategy("refine-heap")->balance(s.input(model)).mapping) == 1);
    // {6} alone: cannot move anywhere useful; the tolerance relaxes to max/avg.
    const balance::RefineResult r = balance::multirefine(
        BalanceInput{
            model, std::vector<double>{6}, TaskGraph(1, {}), {}, std::vector<PeId>{PeId(0)}},
        {}, balance::LargestTaskPicker());
    CHECK(r.mapping == std::vector<PeId>{PeId(0)});
    CHECK(r.tolerance == Approx(2.0));
}

TEST_CASE("smart: stops as the pseudo-code says, never raises the maximum", "[balance][smart]") {
    std::mt19937_64 rng(8086);
    StrategyOptions so;
    for (int round = 0; round < 200; ++round) {
        const auto pes = static_cast<std::uint32_t>(rng() % 10 + 1);
        const Cluster c = flat_cluster(pes);
        const CommModel model(c);
        const State s = random_state(pes, rng, false);
        const BalanceInput in = s.input(model);
        const BalanceOutcome out = make_strategy("smart", so)->balance(in);
        require_complete(in, out);
        const std::vector<double> before = loads_of(in, s.mapping),
                                  after = loads_of(in, out.mapping);
        INFO("round " << round);
        REQUIRE(max_of(after) <= max_of(before) * (1 + 1e-12));
        if (s.loads.empty() || pes < 2) continue;
        // Stopping rule, from the final state: the gap is within the
        // threshold, or no task on PM fits strictly inside the gap.
        const auto pm = static_cast<std::uint32_t>(std::max_element(after.begin(), after.end()) -
                                                   after.begin());
        const auto pn = static_cast<std::uint32_t>(std::min_element(after.begin(), after.end()) -
                                                   after.begin());
        const double gap = after[pm] - after[pn];
        if (gap / average_of(in) <= so.smart_threshold) continue;
        const double speed_min = s.speeds.empty() ? 1 : s.speeds[pn];
        for (std::size_t t = 0; t < out.mapping.size(); ++t) {
            if (out.mapping[t].value != pm) continue;
            const double ct = s.loads[t] / speed_min;
            // ties of PM/Pm with other PEs could pick another pair; these inputs have none
            REQUIRE_FALSE((ct > 0 && ct <= so.smart_gap_factor * gap && ct < gap * (1 - 1e-9)));
        }
    }
    // Within the threshold: nothing moves.
    const Cluster c = flat_cluster(2);
    const CommModel model(c);
    State s;
    s.loads = {100, 104};
    s.mapping = {PeId(0), PeId(1)};
    s.graph = TaskGraph(2, {});
    CHECK(make_strategy("smart")->balance(s.input(model)).mapping == s.mapping);
}

// SmartLB's claim against Greedy on the paper's lb_test setting.
struct SmartVsGreedy {
    double smart_moves = 0, greedy_moves = 0, smart_ratio = 0, greedy_ratio = 0, refine_moves = 0,
           refine_ratio = 0, before_ratio = 0;
};
SmartVsGreedy smart_vs_greedy(std::size_t tasks, const StrategyOptions& so, int seeds) {
    const Cluster c = flat_cluster(8);
    const CommModel model(c);
    SmartVsGreedy r;
    for (int seed = 0; seed < seeds; ++seed) {
        std::mt19937_64 rng(1000 + seed);
        State s;
        s.loads = lbtest_loads(tasks, 1000, 150000, rng);
        s.mapping = block_mapping(tasks, 8);
        s.graph = TaskGraph(static_cast<std::uint32_t>(tasks), {});
        const BalanceInput in = s.input(model);
        const double avg = average_of(in);
        const auto smart = make_strategy("smart", so)->balance(in).mapping;
        const auto greedy = make_strategy("greedy", so)->balance(in).mapping;
        const auto refine = make_strategy("refine", so)->balance(in).mapping;
        r.smart_moves += double(moves(s.mapping, smart)) / seeds;
        r.greedy_moves += double(moves(s.mapping, greedy)) / seeds;
        r.refine_moves += double(moves(s.mapping, refine)) / seeds;
        r.smart_ratio += max_of(loads_of(in, smart)) / avg / seeds;
        r.greedy_ratio += max_of(loads_of(in, greedy)) / avg / seeds;
        r.refine_ratio += max_of(loads_of(in, refine)) / avg / seeds;
        r.before_ratio += max_of(loads_of(in, s.mapping)) / avg / seeds;
    }
    return r;
}

TEST_CASE("smart: 3x fewer migrations than greedy, max/avg within 5 %, on lb_test loads",
          "[balance][smart]") {
    for (std::size_t tasks : {50u, 100u, 200u}) {
        const SmartVsGreedy r = smart_vs_greedy(tasks, {}, 50);
        INFO(tasks << " tasks: smart " << r.smart_moves << " moves, max/avg " << r.smart_ratio
                   << "; greedy " << r.greedy_moves << ", " << r.greedy_ratio);
        CHECK(r.smart_moves * 3 <= r.greedy_moves);
        // At 50 tasks (6 per PE) SmartLB stops with every task of PM heavier
        // than the gap: max/avg 1.080 against Greedy's 1.005 (mean of 50
        // seeds), 7.5 % off, whatever the threshold (0.01 to 0.05 give the
        // same). The 5 % target holds from 100 tasks on.
        CHECK(r.smart_ratio <= r.greedy_ratio * (tasks >= 100 ? 1.05 : 1.10));
    }
}

TEST_CASE("smart: the numbers behind the claim", "[.bench][balance-bench]") {
    for (std::uint32_t passes : {1u, 0u})
        for (std::size_t tasks : {50u, 100u, 200u}) {
            StrategyOptions so;
            so.smart_passes = passes;
            const SmartVsGreedy r = smart_vs_greedy(tasks, so, 50);
            WARN(
                fmt::format("passes={} {} tasks on 8 PEs, mean of 50 seeds: before max/avg {:.3f}; "
                            "smart {:.1f} moves max/avg {:.3f}; greedy {:.1f} moves {:.3f}; "
                            "refine {:.1f} moves {:.3f}",
                            passes, tasks, r.before_ratio, r.smart_moves, r.smart_ratio,
                            r.greedy_moves, r.greedy_ratio, r.refine_moves, r.refine_ratio));
        }
}

// Mesh3D lb_test on a 3-D torus of 8-PU machines.
struct TopoCase {
    double greedy_hop_bytes, topo_hop_bytes, greedy_ratio, topo_ratio;
};
TopoCase topo_case(const std::string& family, const std::string& machine, std::uint32_t x,
                   std::uint32_t y, std::uint32_t z, std::uint64_t seed) {
    const Cluster c = torus_cluster(family, machine);
    const CommModel model(c);
    const HopOracle oracle(c);
    std::mt19937_64 rng(seed);
    State s;
    s.graph = mesh3d(x, y, z, 1000);
    s.loads = lbtest_loads(s.graph.num_tasks(), 30, 4120, rng);
    s.mapping = block_mapping(s.loads.size(), c.num_pes());
    const BalanceInput in = s.input(model);
    const BalanceOutcome g = make_strategy("greedy")->balance(in);
    const BalanceOutcome t = make_strategy("topo-greedy")->balance(in);
    require_complete(in, t);
    const double avg = average_of(in);
    return {oracle.hop_bytes(s.graph, g.mapping), oracle.hop_bytes(s.graph, t.mapping),
            max_of(loads_of(in, g.mapping)) / avg, max_of(loads_of(in, t.mapping)) / avg};
}

TEST_CASE("topo-greedy: 30 % fewer hop-bytes than greedy, max/avg within 5 %",
          "[balance][topo-greedy]") {
    struct Instance {
        std::string family, machine;
        std::uint32_t x, y, z;
    };
    const std::vector<Instance> instances = {
        {"torus --dims 4x4x4", "core:8 pu:1", 16, 16, 16},       // 8 tasks per PE
        {"torus --dims 4x4x4", "core:8 pu:1", 32, 16, 16},       // 16 per PE
        {"torus --dims 4x4x2", "pack:2 core:4 pu:1", 16, 16, 8}, // 8 per PE
    };
    for (const Instance& i : instances)
        for (std::uint64_t seed : {1u, 2u}) {
            const TopoCase r = topo_case(i.family, i.machine, i.x, i.y, i.z, seed);
            INFO(i.family << " seed " << seed << ": hop-bytes greedy " << r.greedy_hop_bytes
                          << " topo " << r.topo_hop_bytes << "; max/avg greedy " << r.greedy_ratio
                          << " topo " << r.topo_ratio);
            WARN(fmt::format(
                "{} ({}), Mesh3D {}x{}x{}, seed {}: hop-bytes greedy {:.4g} topo-greedy "
                "{:.4g} ({:.1f} % less); max/avg greedy {:.4f} topo-greedy {:.4f}",
                i.family, i.machine, i.x, i.y, i.z, seed, r.greedy_hop_bytes, r.topo_hop_bytes,
                100 * (1 - r.topo_hop_bytes / r.greedy_hop_bytes), r.greedy_ratio, r.topo_ratio));
            CHECK(r.topo_hop_bytes <= 0.7 * r.greedy_hop_bytes);
            CHECK(r.topo_ratio <= 1.05 * r.greedy_ratio);
        }
}

TEST_CASE("every centralised strategy: complete, deterministic, edge cases", "[balance][central]") {
    std::mt19937_64 rng(777);
    for (const std::string& name : central) {
        INFO(name);
        const auto strategy = make_strategy(name);
        CHECK(strategy->name() == name);
        CHECK_FALSE(strategy->distributed());
        CHECK(std::find(strategy_names().begin(), strategy_names().end(), name) !=
              strategy_names().end());
        for (std::uint32_t pes : {1u, 5u, 64u}) {
            const Cluster c = flat_cluster(pes);
            const CommModel model(c);
            for (int round = 0; round < 20; ++round) {
                State s = random_state(pes, rng, false);
                if (round % 4 == 1) std::fill(s.loads.begin(), s.loads.end(), 0.0);
                const BalanceInput in = s.input(model);
                const BalanceOutcome a = strategy->balance(in);
                require_complete(in, a);
                CHECK(make_strategy(name)->balance(in).mapping == a.mapping);
                if (pes == 1)
                    CHECK(std::all_of(a.mapping.begin(), a.mapping.end(),
                                      [](PeId p) { return p == PeId(0); }));
            }
            // No tasks.
            State empty;
            CHECK(strategy->balance(empty.input(model)).mapping.empty());
        }
        // More PEs than tasks: the from-scratch strategies spread them one per PE.
        const Cluster wide = flat_cluster(16);
        const CommModel model(wide);
        State s;
        s.loads = {5, 1, 3};
        s.mapping.assign(3, PeId(0));
        s.graph = TaskGraph(3, {});
        const BalanceOutcome out = strategy->balance(s.input(model));
        require_complete(s.input(model), out);
        CHECK(max_of(loads_of(s.input(model), out.mapping)) == 5);
        // Bad input is refused at the door: loads each finite but whose
        // sum is not, and a mapping of the wrong size.
        s.loads = {1e308, 1e308, 1e308};
        CHECK_THROWS_AS(strategy->balance(s.input(model)), UsageError);
        s.loads = {5, 1, 3};
        s.mapping.pop_back();
        CHECK_THROWS_AS(strategy->balance(s.input(model)), UsageError);
    }
    StrategyOptions bad;
    bad.refine_step = 0;
    CHECK_THROWS_AS(make_strategy("refine", bad), UsageError);
    CHECK_THROWS_AS(make_strategy("topo-refine", bad), UsageError);
    bad.refine_step = 1e-20; // would overflow the count of search steps
    CHECK_THROWS_AS(make_strategy("refine", bad), UsageError);
}

TEST_CASE("centralised strategies on 100,000 tasks and 4,096 PEs", "[.bench][balance-bench]") {
    const Cluster c = torus_cluster("torus --dims 8x8x8", "core:8 pu:1");
    const CommModel model(c);
    std::mt19937_64 rng(5);
    State s;
    s.graph = mesh3d(50, 50, 40, 1000);
    s.loads = lbtest_loads(s.graph.num_tasks(), 30, 4120, rng);
    s.mapping = block_mapping(s.loads.size(), c.num_pes());
    const BalanceInput in = s.input(model);
    const HopOracle oracle(c);
    for (const std::string& name : central) {
        const auto start = std::chrono::steady_clock::now();
        const BalanceOutcome out = make_strategy(name)->balance(in);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        WARN(fmt::format(
            "{}: {:.1f} ms, {} moves, max/avg {:.3f} (before {:.3f}), hop-bytes {:.3g}", name, ms,
            moves(s.mapping, out.mapping), max_of(loads_of(in, out.mapping)) / average_of(in),
            max_of(loads_of(in, s.mapping)) / average_of(in),
            oracle.hop_bytes(s.graph, out.mapping)));
    }
}

TEST_CASE("strategy lists as users write them", "[balance]") {
    const auto names_of = [](std::string_view list) {
        std::vector<std::string> n;
        for (const auto& s : make_strategies(list)) n.emplace_back(s->name());
        return n;
    };
    CHECK(names_of("greedy,none,topo-refine") == std::vector<std::string>{"greedy", "topo-refine"});
    const std::vector<std::string> all(strategy_names().begin(), strategy_names().end());
    CHECK(names_of("") == all);
    CHECK(names_of("all") == all);
    CHECK(all.size() == 14);
    for (const char* bad : {"greedy,", ",greedy", "greedy,,refine", "fastest", "Greedy"})
        CHECK_THROWS_AS(make_strategies(bad), UsageError);
    CHECK_THROWS_WITH(make_strategies("greedy,"), "empty name in the list");
}

} // namespace nettopo

namespace nettopo {
namespace {

// Refiner.C (v6.8.1) transcribed literally, pointers and all: the oracle of
// refine_charm.cpp. Sets are std::list inserting at the front; the heap is
// ckheap.C's maxHeap; loads are recomputed exactly as assign/deAssign do.
struct LiteralRefiner {
    struct Proc {
        double load = 0, compute = 0, speed = 1;
        std::list<int> tasks;
    };
    struct Comp {
        double load;
        int old, proc;
    };
    std::vector<Proc> procs;
    std::vector<Comp> comps;
    double avg = 0, overload = 1.05;

    void assign(int c, int p) {
        const double ratio = procs[comps[c].old].speed / procs[p].speed;
        comps[c].proc = p;
        procs[p].tasks.push_front(c);
        procs[p].compute += comps[c].load * ratio;
        procs[p].load = procs[p].compute;
    }
    void deassign(int c, int p) {
        const double ratio = procs[comps[c].old].speed / procs[p].speed;
        comps[c].proc = -1;
        procs[p].tasks.remove(c);
        procs[p].compute -= comps[c].load * ratio;
        procs[p].load = procs[p].compute;
    }
    bool heavy(int p) const { return procs[p].load > overload * avg; }
    bool light(int p) const { return procs[p].load < avg; }

    bool refine() {
        std::vector<int> h; // maxHeap
        const auto key = [&](std::size_t i) { return procs[h[i]].load; };
        const auto insert = [&](int p) {
            h.push_back(p);
            std::size_t cur = h.size() - 1;
            while (cur != 0) {
                const std::size_t parent = (cur - 1) / 2;
                if (key(cur) > key(parent)) {
                    std::swap(h[cur], h[parent]);
                    cur = parent;
                } else {
                    break;
                }
            }
        };
        const auto delete_max = [&]() -> int {
            if (h.empty()) return -1;
            const int top = h[0];
            h[0] = h.back();
            h.pop_back();
            std::size_t cur = 0, c1 = 1, c2 = 2;
            while (c1 < h.size()) {
                const std::size_t best = c2 >= h.size() ? c1 : (key(c1) > key(c2) ? c1 : c2);
                if (key(best) > key(cur)) {
                    std::swap(h[best], h[cur]);
                    cur = best;
                    c1 = 2 * cur + 1;
                    c2 = c1 + 1;
                } else {
                    break;
                }
            }
            return top;
        };
        std::list<int> lights;
        const auto light_insert = [&](int p) {
            if (std::find(lights.begin(), lights.end(), p) == lights.end()) lights.push_front(p);
        };
        for (int i = 0; i < int(procs.size()); ++i) {
            if (heavy(i))
                insert(i);
            else if (light(i))
                light_insert(i);
        }
        for (;;) {
            const int donor = delete_max();
            if (donor < 0) return true;
            double best_size = 0;
            int best_c = -1, best_p = -1;
            for (int p : lights)
                for (int c : procs[donor].tasks) {
                    const double ratio = procs[comps[c].old].speed / procs[p].speed;
                    if (comps[c].load * ratio + procs[p].load < overload * avg &&
                        comps[c].load > best_size) {
                        best_size = comps[c].load;
                        best_c = c;
                        best_p = p;
                    }
                }
            if (best_c < 0) return false;
            deassign(best_c, donor);
            assign(best_c, best_p);
            if (procs[best_p].load > avg) lights.remove(best_p);
            if (heavy(donor))
                insert(donor);
            else if (light(donor))
                light_insert(donor);
        }
    }

    std::vector<PeId> run(const BalanceInput& in) {
        const std::uint32_t P = in.comm_model.cluster().num_pes();
        procs.assign(P, {});
        for (std::uint32_t p = 0; p < P; ++p)
            procs[p].speed = in.pe_speeds.empty() ? 1.0 : in.pe_speeds[p];
        comps.clear();
        double total = 0;
        for (std::size_t t = 0; t < in.task_loads.size(); ++t) {
            const int old = int(in.mapping[t].value);
            comps.push_back({in.task_loads[t] / procs[old].speed, old, -1});
            total += comps.back().load;
        }
        for (int c = 0; c < int(comps.size()); ++c) assign(c, comps[c].old);
        avg = total / P;
        double max = -1;
        for (const Proc& p : procs) max = std::max(max, p.load);
        int lo = 0, hi = int((max / avg - 1.05) / 0.01 + 1);
        bool done = false;
        overload = 1.05;
        if (refine()) {
            done = true;
        } else {
            overload = 1.05 + 0.01 * hi;
            if (!refine()) done = true;
        }
        while (!done) {
            if (hi - lo <= 1) {
                done = true;
            } else {
                const int cur = (hi + lo) / 2;
                overload = cur * 0.01 + 1.05;
                for (Proc& p : procs) {
                    p.compute = 0;
                    p.tasks.clear();
                }
                for (int c = 0; c < int(comps.size()); ++c) assign(c, comps[c].old);
                if (refine())
                    hi = cur;
                else
                    lo = cur;
            }
        }
        std::vector<PeId> m;
        for (const Comp& c : comps) m.push_back(PeId(std::uint32_t(c.proc)));
        return m;
    }
};

} // namespace

TEST_CASE("refine: Charm++ 6.8's Refiner, against a literal transcription", "[balance][refine]") {
    std::mt19937_64 rng(6801);
    std::size_t moved = 0;
    const int rounds = test::random_cases(300);
    for (int round = 0; round < rounds; ++round) {
        const std::uint32_t pes = 2 + rng() % 24;
        const Cluster c = flat_cluster(pes);
        const CommModel model(c);
        State s;
        const std::size_t n = 1 + rng() % 200;
        s.loads = lbtest_loads(n, 30, 9000, rng);
        if (round % 3 == 0) // integer loads: many ties
            for (double& l : s.loads) l = std::floor(l / 1000);
        if (round % 4 == 1) { // some PEs start empty: reset keeps their stale load
            s.mapping.resize(n);
            for (auto& p : s.mapping) p = PeId(std::uint32_t(rng() % std::max(1u, pes / 2)));
        } else {
            s.mapping = block_mapping(n, pes);
        }
        if (round % 5 == 2) {
            s.speeds.resize(pes);
            for (double& v : s.speeds) v = 0.5 + double(rng() % 4) * 0.25;
        }
        s.graph = TaskGraph(static_cast<std::uint32_t>(n), {});
        const BalanceInput in = s.input(model);
        INFO("round " << round << " pes " << pes << " tasks " << n);
        const std::vector<PeId> want = LiteralRefiner{}.run(in);
        const StrategyOptions so;
        REQUIRE(balance::charm_refine(in, so, true) == want);
        REQUIRE(balance::charm_refine(in, so, false) == want);
        REQUIRE(make_strategy("refine")->balance(in).mapping == want);
        moved += moves(s.mapping, want);
    }
    CHECK(moved > std::size_t(rounds) * 3);
}

TEST_CASE("refine: the first light PE that fits, not the one with the most room",
          "[balance][refine]") {
    // PE 0: 6 + 1 + 1; PEs 1, 2, 3: 1.5, 1.5, 3. avg 3.5. The light list is
    // built in PE order, inserting at its head: PE 3, 2, 1. The search ends
    // at a tolerance where the 6 stays and both 1s leave; the first 1 (task
    // 2, the newest of PE 0) fits PE 3, first in the list: Charm++ puts it
    // there, refine-heap on a PE with the most room (PE 1 or 2).
    const Cluster four = flat_cluster(4);
    const CommModel model(four);
    State s;
    s.loads = {6, 1, 1, 1.5, 1.5, 3};
    s.mapping = {PeId(0), PeId(0), PeId(0), PeId(1), PeId(2), PeId(3)};
    s.graph = TaskGraph(6, {});
    const std::vector<PeId> got = make_strategy("refine")->balance(s.input(model)).mapping;
    CHECK(got == LiteralRefiner{}.run(s.input(model)));
    CHECK(got[0] == PeId(0));
    CHECK(got[2] == PeId(3));
    CHECK(got[1] == PeId(2));
    const std::vector<PeId> heap = make_strategy("refine-heap")->balance(s.input(model)).mapping;
    CHECK(heap[2] != PeId(3));
}

TEST_CASE("smart-code: SmartLB.C as its authors ran it", "[balance][smart]") {
    const Cluster two = flat_cluster(2);
    const CommModel model(two);
    State s;
    s.graph = TaskGraph(3, {});
    // PM = PE 0 (7 + 1), Pm = PE 1 (2): gap 6. The 7 exceeds the gap but not
    // 1.5 x the gap: the code moves it (and raises the maximum to 9); the
    // thesis' rule (smart) does not.
    s.loads = {7, 1, 2};
    s.mapping = {PeId(0), PeId(0), PeId(1)};
    const auto code = make_strategy("smart-code")->balance(s.input(model)).mapping;
    CHECK(code == std::vector<PeId>{PeId(1), PeId(0), PeId(1)});
    CHECK(make_strategy("smart")->balance(s.input(model)).mapping[0] == PeId(0));
    // The gate is on the maximum: Pm above 0.95 PM, nothing moves.
    s.loads = {10, 9.6, 0};
    s.mapping = {PeId(0), PeId(1), PeId(1)};
    CHECK(make_strategy("smart-code")->balance(s.input(model)).mapping == s.mapping);
    // One walk, PM and Pm never re-picked: only PM's tasks move, all to Pm.
    const Cluster eight = flat_cluster(8);
    const CommModel model8(eight);
    std::mt19937_64 rng(2018);
    for (int round = 0; round < 50; ++round) {
        State r;
        r.loads = lbtest_loads(100, 1000, 150000, rng);
        r.mapping = block_mapping(100, 8);
        r.graph = TaskGraph(100, {});
        const BalanceInput in = r.input(model8);
        const std::vector<double> before = loads_of(in, r.mapping);
        const auto pm = std::max_element(before.begin(), before.end()) - before.begin();
        const auto pmin = std::min_element(before.begin(), before.end()) - before.begin();
        const auto out = make_strategy("smart-code")->balance(in).mapping;
        for (std::size_t t = 0; t < out.size(); ++t)
            if (out[t] != r.mapping[t]) {
                REQUIRE(r.mapping[t].value == std::uint32_t(pm));
                REQUIRE(out[t].value == std::uint32_t(pmin));
            }
    }
}

} // namespace nettopo
