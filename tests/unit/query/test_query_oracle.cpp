// Every query of the library against an independent oracle (the random
// specification and Floyd–Warshall) on random connected weighted clusters
// with switches, heterogeneous machines, zero-latency links and parallel cables.
#include "nettopo/formats/description.hpp"
#include "nettopo/query/query_engine.hpp"
#include "testkit/random_cluster.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <sstream>

using namespace nettopo;
using nettopo::test::Oracle;

namespace {

using test::build_cluster;

struct Counter {
    std::size_t pairs = 0, cross_machine = 0, unreachable = 0;
};

void check_pair(const Cluster& c, QueryEngine& q, const Oracle& o, std::uint32_t a, std::uint32_t b,
                Counter& n) {
    const PeId pa(a), pb(b);
    ++n.pairs;
    REQUIRE(c.machine_of(pa).value == o.machine_of(a));
    REQUIRE(c.node_of(pa).value == o.node_of(a));
    REQUIRE(static_cast<int>(c.proximity(pa, pb)) == o.proximity(a, b));

    const auto anc = c.common_ancestor(pa, pb);
    const auto expected_anc = o.ancestor(a, b);
    REQUIRE(anc.has_value() == expected_anc.has_value());
    if (anc) {
        REQUIRE(anc->type == expected_anc->first);
        REQUIRE(anc->logical_index == expected_anc->second);
    }

    const double d = o.distance(a, b);
    const auto got = q.distance(pa, pb);
    if (d == Oracle::inf) {
        ++n.unreachable;
        REQUIRE_FALSE(got.has_value());
        REQUIRE_FALSE(q.hop_count(pa, pb).has_value());
        REQUIRE_FALSE(q.path(pa, pb).has_value());
        return;
    }
    REQUIRE(got.has_value());
    REQUIRE(*got == d);                 // picosecond sums are exact
    REQUIRE(q.distance(pb, pa) == got); // and do not depend on the direction
    const auto h = q.hop_count(pa, pb);
    REQUIRE(h.has_value());
    REQUIRE(*h == o.hops(a, b));
    if (o.machine_of(a) != o.machine_of(b)) ++n.cross_machine;

    // A latency path is a walk over existing links whose cost is the distance;
    // a hop path has the hop count's length.
    for (PathMetric metric : {PathMetric::Latency, PathMetric::Hops}) {
        const auto p = q.path(pa, pb, metric);
        REQUIRE(p.has_value());
        REQUIRE(p->front().value == o.machine_of(a));
        REQUIRE(p->back().value == o.machine_of(b));
        std::int64_t cost_ps = 0; // the model adds picoseconds
        for (std::size_t i = 1; i < p->size(); ++i) {
            const double l = o.link_latency((*p)[i - 1].value, (*p)[i].value);
            REQUIRE(l != Oracle::inf);
            cost_ps += std::llround(l * 1000);
        }
        if (metric == PathMetric::Latency && o.machine_of(a) != o.machine_of(b))
            REQUIRE(static_cast<double>(cost_ps) / 1000.0 == d);
        if (metric == PathMetric::Hops) REQUIRE(p->size() - 1 == o.hops(a, b));
    }
}

void check_nearest(QueryEngine& q, const Oracle& o, std::uint32_t p, std::uint32_t k) {
    std::vector<NearPe> all;
    for (std::uint32_t x = 0; x < o.num_pes(); ++x)
        if (x != p && o.distance(p, x) != Oracle::inf) all.push_back({PeId(x), o.distance(p, x)});
    std::sort(all.begin(), all.end(), [](const NearPe& x, const NearPe& y) {
        return x.distance_ns != y.distance_ns ? x.distance_ns < y.distance_ns : x.pe < y.pe;
    });
    if (all.size() > k) all.resize(k);
    REQUIRE(q.nearest(PeId(p), k) == all);
}

} // namespace

TEST_CASE("every query matches the oracle on random connected weighted clusters", "[oracle]") {
    std::mt19937_64 rng(20261121);
    Counter n;
    for (int round = 0; round < 40; ++round) {
        const test::ClusterSpec spec = test::random_cluster(rng);
        const Cluster c = build_cluster(spec);
        const Oracle o(spec);
        QueryEngine q(c);
        INFO("round " << round << "\n" << spec.description());
        REQUIRE(c.num_pes() == o.num_pes());
        REQUIRE(c.num_nodes() == o.num_nodes());
        REQUIRE(c.num_machines() == spec.machines.size());
        REQUIRE(c.num_switches() == spec.switches);
        REQUIRE(c.num_net_links() == spec.links.size());
        std::uniform_int_distribution<std::uint32_t> pe(0, c.num_pes() - 1);
        for (int i = 0; i < 400; ++i) check_pair(c, q, o, pe(rng), pe(rng), n);
        // Pairs inside one machine are rare among random pairs; add them.
        for (int i = 0; i < 100; ++i) {
            const std::uint32_t a = pe(rng), m = o.machine_of(a);
            check_pair(c, q, o, a, o.first_pe(m) + pe(rng) % o.pes_of(m), n);
        }
        for (int i = 0; i < 10; ++i) check_nearest(q, o, pe(rng), 1 + pe(rng) % 12);
        check_nearest(q, o, pe(rng), c.num_pes()); // everything, fully ordered
    }
    CHECK(n.pairs >= 10000);
    CHECK(n.cross_machine >= 5000);
}

TEST_CASE("unreachable pairs are reported as unreachable, not as a distance", "[oracle]") {
    std::mt19937_64 rng(7);
    test::RandomOptions opts;
    opts.allow_disconnected = true;
    opts.extra_link_ratio = 0.1;
    Counter n;
    int disconnected = 0;
    for (int round = 0; round < 40; ++round) {
        const test::ClusterSpec spec = test::random_cluster(rng, opts);
        disconnected += !spec.connected;
        const Cluster c = build_cluster(spec, true);
        const Oracle o(spec);
        QueryEngine q(c);
        std::uniform_int_distribution<std::uint32_t> pe(0, c.num_pes() - 1);
        for (int i = 0; i < 300; ++i) check_pair(c, q, o, pe(rng), pe(rng), n);
    }
    CHECK(disconnected > 5);
    CHECK(n.unreachable > 100);
}

TEST_CASE("structural queries agree with the oracle on every PE", "[oracle]") {
    std::mt19937_64 rng(99);
    for (int round = 0; round < 30; ++round) {
        const test::ClusterSpec spec = test::random_cluster(rng);
        const Cluster c = build_cluster(spec);
        const Oracle o(spec);
        for (std::uint32_t p = 0; p < c.num_pes(); ++p) {
            const PeId pe(p);
            const MachineId m = c.machine_of(pe);
            const PeRange mr = c.pes_of_machine(m);
            REQUIRE(mr.first == o.first_pe(m.value));
            REQUIRE(mr.count == o.pes_of(m.value));
            REQUIRE(c.local_pu(pe) == o.local(p));
            const NodeId node = c.node_of(pe);
            REQUIRE(c.machine_of_node(node) == m);
            const PeRange nr = c.pes_of_node(node);
            REQUIRE(nr.contains(pe));
            for (std::uint32_t i = 0; i < nr.count; ++i)
                REQUIRE(o.node_of(nr[i].value) == node.value);
            // The other PEs of the machine / node: exactly those, without p.
            const auto same_machine = c.on_same_machine(pe);
            REQUIRE(same_machine.size() == mr.count - 1);
            for (PeId x : same_machine) REQUIRE((x != pe && o.machine_of(x.value) == m.value));
            const auto same_node = c.on_same_node(pe);
            REQUIRE(same_node.size() == nr.count - 1);
            for (PeId x : same_node) REQUIRE((x != pe && o.node_of(x.value) == node.value));
        }
        // Neighbours: exactly the linked vertices, with the link's latency.
        const Network& net = c.network();
        for (std::uint32_t v = 0; v < net.num_vertices(); ++v) {
            std::size_t expected = 0;
            for (std::uint32_t w = 0; w < net.num_vertices(); ++w)
                expected += o.link_latency(v, w) != Oracle::inf;
            const auto to = net.neighbors(VertexId(v));
            const auto links = net.neighbor_links(VertexId(v));
            REQUIRE(to.size() == expected);
            for (std::size_t i = 0; i < to.size(); ++i)
                REQUIRE(net.links()[links[i]].latency_ns == o.link_latency(v, to[i].value));
        }
    }
}

TEST_CASE("latency sums are exact and symmetric", "[oracle]") {
    // In doubles, 0.1 + 0.2 + 0.3 is 0.6000000000000001 one way and 0.6 the other.
    std::istringstream in("machine a pu:1\nmachine b pu:1\nmachine c pu:1\nmachine d pu:1\n"
                          "link a b 0.1\nlink b c 0.2\nlink c d 0.3\n");
    const Cluster c = read_description(in, "sum.topo");
    QueryEngine q(c);
    CHECK(q.distance(PeId(0), PeId(3)) == 0.6);
    CHECK(q.distance(PeId(3), PeId(0)) == 0.6);
    CHECK(q.distance(PeId(1), PeId(3)) == 0.5);
    // Batches from one source resume the same search; answers must not change.
    CHECK(q.distance(PeId(0), PeId(1)) == 0.1);
    CHECK(q.distance(PeId(0), PeId(3)) == 0.6);
    CHECK(q.hop_count(PeId(0), PeId(3)) == 3u);
    CHECK(q.hop_count(PeId(0), PeId(1)) == 1u);
    CHECK(q.hop_count(PeId(0), PeId(3)) == 3u);
}
