// Forwarding: machines that do not forward (end hosts) are never passed
// through; a path may only start or end at one. Every search (BFS, Dijkstra,
// paths, hops_from, the incremental Dijkstra, nearest) and every kind of
// distance index, forced one by one, against Floyd–Warshall whose
// intermediate vertices are only those that forward (testkit's Oracle), on
// random clusters with random end hosts and on random fabrics shaped like real
// ones: switches and routers, hosts cabled to one to three of them
// (multi-rail), host-to-host cables, hosts hanging off hosts. Also the
// connectivity rule, hop histograms and summaries, and the closed forms.
#include "nettopo/families/family.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/gen/detail/family_check.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/query/summary.hpp"
#include "nettopo/support/error.hpp"
#include "query/index/folded_core.hpp"
#include "query/index/general_index.hpp"
#include "query/index/row_cache.hpp"
#include "testkit/random_cluster.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <sstream>

using namespace nettopo;
using Catch::Contains;
using test::Oracle;
using Kind = DistanceIndexKind;

namespace {

std::uint32_t pick(std::mt19937_64& rng, std::uint32_t lo, std::uint32_t hi) {
    return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
}

test::MachineSpec one_pu(bool forwards) {
    return {"core:1 pu:1",
            {{ObjectType::Core, 1}, {ObjectType::PU, 1}},
            std::nullopt,
            LevelLatencies::defaults(),
            "",
            forwards};
}

// A fabric: switches and forwarding machines (routers) joined by a random
// connected graph; end hosts, each cabled to 0..3 vertices (mostly one; a
// switch or router, or another host); forwarding machines hanging off a
// single vertex (often a host). Machines come in random order.
test::ClusterSpec random_fabric(std::mt19937_64& rng) {
    enum Role { Router, Host, Leaf };
    std::vector<Role> roles;
    for (std::uint32_t i = pick(rng, 0, 4); i > 0; --i) roles.push_back(Router);
    for (std::uint32_t i = pick(rng, 2, 24); i > 0; --i) roles.push_back(Host);
    for (std::uint32_t i = pick(rng, 0, 3); i > 0; --i) roles.push_back(Leaf);
    std::shuffle(roles.begin(), roles.end(), rng);
    test::ClusterSpec spec;
    for (Role r : roles) spec.machines.push_back(one_pu(r != Host));
    spec.switches = pick(rng, roles.size() > 8 ? 1 : 0, 6);
    const auto m = static_cast<std::uint32_t>(roles.size());
    const std::uint32_t n = spec.vertices();

    auto latency = [&] { return pick(rng, 0, 9) == 0 ? 0.0 : pick(rng, 1, 400000) / 1000.0; };
    auto add = [&](std::uint32_t a, std::uint32_t b) {
        if (a == b) return;
        for (const test::LinkSpec& l : spec.links)
            if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) return;
        spec.links.push_back({a, b, latency(), 0.0, pick(rng, 1, 2)});
    };
    std::vector<std::uint32_t> fabric, hosts;
    for (std::uint32_t v = 0; v < n; ++v)
        (v >= m || roles[v] == Router ? fabric : hosts).push_back(v);
    std::shuffle(fabric.begin(), fabric.end(), rng);
    for (std::size_t i = 1; i < fabric.size(); ++i)
        add(fabric[i], fabric[pick(rng, 0, static_cast<std::uint32_t>(i - 1))]);
    for (std::size_t i = 0; i < fabric.size() / 2; ++i)
        add(fabric[pick(rng, 0, static_cast<std::uint32_t>(fabric.size() - 1))],
            fabric[pick(rng, 0, static_cast<std::uint32_t>(fabric.size() - 1))]);
    auto any_of = [&](const std::vector<std::uint32_t>& from) {
        return from[pick(rng, 0, static_cast<std::uint32_t>(from.size() - 1))];
    };
    for (std::uint32_t v = 0; v < m; ++v) {
        if (roles[v] == Router) continue;
        const std::uint32_t r = pick(rng, 0, 19);
        const std::uint32_t cables = roles[v] == Leaf ? 1
                                     : r == 0         ? 0
                                     : r < 12         ? 1
                                     : r < 17         ? 2
                                                      : 3;
        for (std::uint32_t i = 0; i < cables; ++i) {
            const bool to_host = fabric.empty() || pick(rng, 0, 3) == 0 || roles[v] == Leaf;
            add(v, to_host ? any_of(hosts) : any_of(fabric));
        }
    }
    return spec;
}

// Cables alone (whoever forwards): one component?
bool cables_connect(const test::ClusterSpec& spec) {
    std::vector<std::uint32_t> parent(spec.vertices());
    std::iota(parent.begin(), parent.end(), 0u);
    const std::function<std::uint32_t(std::uint32_t)> root = [&](std::uint32_t v) {
        return parent[v] == v ? v : parent[v] = root(parent[v]);
    };
    for (const test::LinkSpec& l : spec.links) parent[root(l.a)] = root(l.b);
    for (std::uint32_t v = 1; v < spec.vertices(); ++v)
        if (root(v) != root(0)) return false;
    return true;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> first_unreachable(const Oracle& o,
                                                                         std::uint32_t machines) {
    for (std::uint32_t a = 0; a < machines; ++a)
        for (std::uint32_t b = a + 1; b < machines; ++b)
            if (o.vertex_hops(a, b) == Oracle::inf) return std::pair{a, b};
    return std::nullopt;
}

// NetworkSearch from every machine to every vertex: hops, latency, both
// kinds of path, hops_from, and the incremental Dijkstra's order.
void check_searches(const Cluster& c, const Oracle& o) {
    const Network& net = c.network();
    const std::uint32_t n = net.num_vertices();
    NetworkSearch search(net), paths(net);
    std::vector<std::uint32_t> all;
    for (std::uint32_t a = 0; a < net.num_machines(); ++a) {
        search.hops_from(VertexId(a), all);
        for (std::uint32_t v = 0; v < n; ++v) {
            INFO("from vertex " << a << " to " << v);
            const double want_h = o.vertex_hops(a, v), want_ns = o.vertex_latency(a, v);
            REQUIRE((all[v] == NetworkSearch::unreachable_hops ? Oracle::inf : all[v]) == want_h);
            const auto h = search.hops(VertexId(a), VertexId(v));
            REQUIRE((h ? double(*h) : Oracle::inf) == want_h);
            const auto ps = search.latency_ps(VertexId(a), VertexId(v));
            REQUIRE((ps ? static_cast<double>(*ps) / 1000.0 : Oracle::inf) == want_ns);
            for (PathMetric metric : {PathMetric::Hops, PathMetric::Latency}) {
                paths.forget();
                const auto p = paths.path(VertexId(a), VertexId(v), metric);
                REQUIRE(p.has_value() == (want_h != Oracle::inf));
                if (!p) continue;
                REQUIRE(p->front() == VertexId(a));
                REQUIRE(p->back() == VertexId(v));
                std::int64_t cost_ps = 0;
                for (std::size_t i = 1; i < p->size(); ++i) {
                    const double l = o.link_latency((*p)[i - 1].value, (*p)[i].value);
                    REQUIRE(l != Oracle::inf);
                    cost_ps += std::llround(l * 1000);
                    if (i + 1 < p->size()) REQUIRE(net.forwards((*p)[i])); // never through
                }
                if (metric == PathMetric::Hops) REQUIRE(p->size() - 1 == want_h);
                if (metric == PathMetric::Latency)
                    REQUIRE(static_cast<double>(cost_ps) / 1000.0 == want_ns);
            }
        }
        // The incremental Dijkstra settles exactly the reachable vertices, in order.
        search.start(VertexId(a));
        std::vector<std::uint8_t> settled(n, 0);
        double last = 0;
        while (const auto s = search.next_settled()) {
            REQUIRE(s->second == o.vertex_latency(a, s->first.value));
            REQUIRE(s->second >= last);
            last = s->second;
            REQUIRE_FALSE(settled[s->first.value]);
            settled[s->first.value] = 1;
        }
        for (std::uint32_t v = 0; v < n; ++v)
            REQUIRE(bool(settled[v]) == (o.vertex_hops(a, v) != Oracle::inf));
    }
}

// One PU per machine: PE p is machine p.
void check_nearest(const Cluster& c, const Oracle& o, QueryEngine& q) {
    const std::uint32_t m = c.num_machines();
    for (std::uint32_t a = 0; a < m; ++a) {
        std::vector<NearPe> want;
        for (std::uint32_t b = 0; b < m; ++b)
            if (b != a && o.vertex_hops(a, b) != Oracle::inf)
                want.push_back({PeId(b), o.vertex_latency(a, b)});
        std::sort(want.begin(), want.end(), [](const NearPe& x, const NearPe& y) {
            return x.distance_ns != y.distance_ns ? x.distance_ns < y.distance_ns : x.pe < y.pe;
        });
        const std::uint32_t k = 1 + a % 5;
        REQUIRE(q.nearest(PeId(a), m) == want);
        if (want.size() > k) want.resize(k);
        REQUIRE(q.nearest(PeId(a), k) == want);
    }
}

void check_index(const Cluster& c, const Oracle& o, const DistanceIndex& index) {
    INFO(index.description());
    const std::uint32_t m = c.num_machines();
    for (std::uint32_t a = 0; a < m; ++a)
        for (std::uint32_t b = 0; b < m; ++b) {
            INFO("machines " << a << " and " << b);
            const std::uint32_t h = index.hops(MachineId(a), MachineId(b));
            const std::int64_t ps = index.latency_ps(MachineId(a), MachineId(b));
            if (o.vertex_hops(a, b) == Oracle::inf) {
                REQUIRE(h == DistanceIndex::unreachable_hops);
                REQUIRE(ps == DistanceIndex::unreachable_ps);
            } else {
                REQUIRE(h == o.vertex_hops(a, b));
                REQUIRE(static_cast<double>(ps) / 1000.0 == o.vertex_latency(a, b));
            }
        }
    std::vector<MachineId> every(m);
    for (std::uint32_t i = 0; i < m; ++i) every[i] = MachineId(i);
    REQUIRE_FALSE(check_distance_index(c, index, every).has_value());
}

struct Seen {
    std::size_t rounds = 0, blocked = 0, complex = 0, end_hosts = 0, unreachable = 0;
};

// Everything against the oracle on one specification.
void check_spec(const test::ClusterSpec& spec, Seen& seen) {
    INFO(spec.description());
    const Oracle o(spec);
    const auto m = static_cast<std::uint32_t>(spec.machines.size());
    const auto pair = first_unreachable(o, m);
    const bool connected = cables_connect(spec) && !pair;
    // The builder's rule: cables join everything and every machine reaches every other.
    if (connected) {
        REQUIRE_NOTHROW(test::build_cluster(spec, false));
    } else {
        REQUIRE_THROWS_AS(test::build_cluster(spec, false), InputError);
    }
    const Cluster c = test::build_cluster(spec, true);
    const Network& net = c.network();
    for (std::uint32_t v = 0; v < m; ++v)
        REQUIRE(net.forwards(VertexId(v)) == spec.machines[v].forwards);
    for (std::uint32_t v = m; v < net.num_vertices(); ++v) REQUIRE(net.forwards(VertexId(v)));

    const auto found = unreachable_machines(net);
    REQUIRE(found.has_value() == pair.has_value());
    if (pair) {
        REQUIRE(found->a.value == pair->first);
        REQUIRE(found->b.value == pair->second);
        seen.blocked += cables_connect(spec);
    }
    const ClusterSummary s = summarize(c);
    REQUIRE(s.machines_reach_each_other == !pair);
    REQUIRE(s.end_hosts == net.num_end_hosts());
    seen.end_hosts += s.end_hosts;

    // The hop histogram counts what the oracle counts.
    const HopDistribution d = machine_hop_distribution(c);
    std::vector<std::uint64_t> want;
    std::uint64_t unreachable = 0;
    for (std::uint32_t a = 0; a < m; ++a)
        for (std::uint32_t b = 0; b < m; ++b) {
            if (a == b) continue;
            const double h = o.vertex_hops(a, b);
            if (h == Oracle::inf) {
                ++unreachable;
                continue;
            }
            const auto i = static_cast<std::size_t>(h);
            if (i >= want.size()) want.resize(i + 1, 0);
            ++want[i];
        }
    REQUIRE(d.pairs_at_hops == want);
    REQUIRE(d.unreachable_pairs == unreachable);
    seen.unreachable += unreachable;
    if (!want.empty() && !s.diameter_hops) FAIL("no diameter");
    if (!want.empty()) REQUIRE(*s.diameter_hops == want.size() - 1);

    check_searches(c, o);
    QueryEngine q(c);
    check_nearest(c, o, q);

    const detail::FoldedCore f = detail::fold_network(net);
    seen.complex += f.complex;
    for (Kind k : {Kind::Auto, Kind::DenseTable, Kind::Labels, Kind::RowCache}) {
        DistancePolicy options;
        options.kind = k;
        const auto index = build_distance_index(c, options);
        if (k != Kind::Auto) REQUIRE(index->kind() == k);
        check_index(c, o, *index);
        QueryEngine with_index(c, index.get());
        for (std::uint32_t a = 0; a < m; ++a)
            for (std::uint32_t b = 0; b < m; ++b) {
                const auto h = with_index.hop_count(PeId(a), PeId(b));
                REQUIRE((h ? double(*h) : Oracle::inf) == (a == b ? 0 : o.vertex_hops(a, b)));
            }
    }
    // A row cache of two rows: rows are evicted and computed again.
    DistancePolicy small;
    small.kind = Kind::RowCache;
    small.memory_budget_bytes = detail::row_cache_min_bytes(f) + detail::row_cache_row_bytes(f);
    check_index(c, o, *build_distance_index(c, small));
    ++seen.rounds;
}

} // namespace

TEST_CASE("forwarding: random clusters with random end hosts, every search and index",
          "[forwarding]") {
    std::mt19937_64 rng(20261124);
    Seen seen;
    for (int round = 0; round < 60; ++round) {
        test::RandomOptions o;
        o.end_host_share = round % 3 == 0 ? 1.0 : 0.5;
        o.allow_disconnected = round % 4 == 3;
        o.extra_link_ratio = round % 2 ? 0.2 : 0.8;
        o.max_switches = round % 5 == 0 ? 0 : 8; // machines only: host-to-host cables
        INFO("round " << round);
        test::ClusterSpec spec = test::random_cluster(rng, o);
        for (test::MachineSpec& m : spec.machines) m = one_pu(m.forwards); // PE p is machine p
        check_spec(spec, seen);
    }
    CHECK(seen.end_hosts > 300);
    CHECK(seen.blocked > 5);   // cabled together, yet some machines cannot meet
    CHECK(seen.complex > 100); // multi-anchor hosts, host-to-host cables
    CHECK(seen.unreachable > 100);
}

TEST_CASE("forwarding: random fabrics (multi-rail hosts, hosts on hosts, back-to-back cables)",
          "[forwarding]") {
    std::mt19937_64 rng(13);
    Seen seen;
    for (int round = 0; round < 80; ++round) {
        INFO("round " << round);
        check_spec(random_fabric(rng), seen);
    }
    CHECK(seen.end_hosts > 500);
    CHECK(seen.blocked > 5);
    CHECK(seen.complex > 100);
}

TEST_CASE("forwarding: a host does not carry traffic, a router does", "[forwarding]") {
    // a and b on s0, c on s1; h is cabled to both switches (two rails), and
    // r, a router, too, but 10 ns slower. A path s0 -> s1 may use r, never h.
    const std::string text = "machine a pu:1 forwards=no\nmachine b pu:1 forwards=no\n"
                             "machine c pu:1 forwards=no\nmachine h pu:1 forwards=no\n"
                             "machine r pu:1\nmachine d pu:1 forwards=no\nmachine e pu:1\n"
                             "switch s0\nswitch s1\n"
                             "link a s0 1\nlink b s0 1\nlink c s1 1\nlink h s0 1\nlink h s1 1\n"
                             "link r s0 6\nlink r s1 6\nlink d h 2\nlink e d 3\n";
    std::istringstream in(text);
    LoadOptions lo;
    lo.build.allow_disconnected = true; // d, e and h cannot reach a, b, c
    const Cluster c = read_description(in, "rails.topo", lo);
    QueryEngine q(c);
    const auto path = [&](std::uint32_t a, std::uint32_t b) {
        const auto p = q.path(PeId(a), PeId(b));
        REQUIRE(p.has_value());
        std::string s;
        for (VertexId v : *p) s += std::string(c.vertex_name(v)) + " ";
        return s;
    };
    CHECK(path(0, 2) == "a s0 r s1 c "); // 14 ns through the router, not 4 through h
    CHECK(q.distance(PeId(0), PeId(2)) == 14.0);
    CHECK(path(3, 2) == "h s1 c "); // h starts a path on either rail
    CHECK(path(3, 0) == "h s0 a ");
    CHECK(path(5, 3) == "d h ");           // back to back
    CHECK_FALSE(q.path(PeId(5), PeId(0))); // d reaches h only: h does not forward
    CHECK_FALSE(q.path(PeId(6), PeId(3))); // e hangs off d, which does not forward
    CHECK(path(6, 5) == "e d ");
    const auto index = build_distance_index(c);
    CHECK(index->hops(MachineId(3), MachineId(2)) == 2);
    CHECK(index->latency_ps(MachineId(0), MachineId(2)) == 14000);
    CHECK(index->hops(MachineId(5), MachineId(0)) == DistanceIndex::unreachable_hops);
    CHECK_THAT(index->description(), Contains("(3 not on a single anchor)")); // h, d, e
}

TEST_CASE("forwarding: the builder refuses machines that cannot meet, names two", "[forwarding]") {
    // One cable component, but h1 reaches the others only through h2, a host.
    const std::string text = "machine h1 pu:1 forwards=no\nmachine h2 pu:1 forwards=no\n"
                             "machine h3 pu:1 forwards=no\nswitch s\n"
                             "link h1 h2 1\nlink h2 s 1\nlink h3 s 1\n";
    std::istringstream in(text);
    try {
        read_description(in, "blocked.topo");
        FAIL("accepted");
    } catch (const InputError& e) {
        CHECK_THAT(std::string(e.what()), Contains("'h1' cannot reach 'h3'"));
        CHECK_THAT(std::string(e.what()), Contains("does not forward traffic"));
        CHECK(e.remedy() == Remedy::allow_disconnected);
    }
    // The same with h2 forwarding is connected; two hosts back to back are too.
    std::istringstream routed(
        "machine h1 pu:1 forwards=no\nmachine h2 pu:1\nmachine h3 pu:1 forwards=no\nswitch s\n"
        "link h1 h2 1\nlink h2 s 1\nlink h3 s 1\n");
    CHECK(read_description(routed, "routed.topo").num_machines() == 3);
    std::istringstream pair("machine a pu:1 forwards=no\nmachine b pu:1 forwards=no\nlink a b 1\n");
    CHECK(read_description(pair, "pair.topo").network().num_end_hosts() == 2);
}

namespace {

// c again, with the machines for which `end` holds marked as end hosts.
Cluster with_end_hosts(const Cluster& c, const std::function<bool(std::uint32_t)>& end) {
    ClusterBuilder b(c.name());
    b.set_family(c.family());
    std::vector<TypeId> types;
    for (std::uint32_t t = 0; t < c.num_types(); ++t)
        types.push_back(b.add_type(c.type(TypeId(t))));
    for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
        const MachineId id =
            b.add_machine(c.machine_name(MachineId(m)), types[c.type_of(MachineId(m)).value]);
        if (end(m)) b.set_forwards(id, false);
    }
    for (std::uint32_t s = 0; s < c.num_switches(); ++s) b.add_switch(c.switch_name(SwitchId(s)));
    const auto endpoint = [&](VertexId v) {
        return c.network().is_machine(v)
                   ? ClusterBuilder::Endpoint{false, v.value}
                   : ClusterBuilder::Endpoint{true, v.value - c.num_machines()};
    };
    for (const Link& l : c.network().links())
        b.add_link(endpoint(l.a), endpoint(l.b), l.latency_ns, l.bandwidth_gbps, l.multiplicity);
    return std::move(b).build(BuildOptions{.allow_disconnected = true, .limits = {}});
}

std::vector<MachineId> all_machines(const Cluster& c) {
    std::vector<MachineId> m(c.num_machines());
    for (std::uint32_t i = 0; i < m.size(); ++i) m[i] = MachineId(i);
    return m;
}

} // namespace

TEST_CASE("forwarding: closed forms hold only where machines forward as the family's do",
          "[forwarding]") {
    const MachineType pu = synthetic_machine("pu:1", {});
    DistancePolicy closed;
    closed.kind = Kind::ClosedForm;

    // A torus's machines are its routers: one end host voids the formulas.
    const auto torus = make_torus({4, 5}, 0);
    const Cluster t = generate(*torus, pu);
    REQUIRE(build_distance_index(t)->kind() == Kind::ClosedForm);
    const Cluster blocked = with_end_hosts(t, [](std::uint32_t m) { return m == 6; });
    REQUIRE(blocked.family() == t.family());
    CHECK_THROWS_AS(build_distance_index(blocked, closed), UsageError);
    const auto general = build_distance_index(blocked);
    CHECK(general->kind() != Kind::ClosedForm);
    CHECK_FALSE(check_distance_index(blocked, *general, all_machines(blocked)));
    // Machine 6 is passed through no more: some pairs go round it.
    const auto formulas = build_distance_index(t);
    std::size_t longer = 0;
    for (std::uint32_t a = 0; a < t.num_machines(); ++a)
        for (std::uint32_t b = 0; b < t.num_machines(); ++b) {
            const std::uint32_t h = general->hops(MachineId(a), MachineId(b));
            CHECK(h >= formulas->hops(MachineId(a), MachineId(b)));
            longer += h > formulas->hops(MachineId(a), MachineId(b));
        }
    CHECK(longer > 0);
    const FamilyCheck check = check_family(*torus, blocked);
    CHECK_FALSE(check.ok());
    REQUIRE_FALSE(check.problems.empty());
    CHECK_THAT(check.problems.front(), Contains("does not forward traffic"));

    // A fat-tree's hosts are leaves: whether they forward changes no path,
    // so the closed form still holds, and agrees with the searches.
    const auto tree = make_fat_tree(4, 2);
    const Cluster f = generate(*tree, pu);
    const Cluster hosts = with_end_hosts(f, [](std::uint32_t) { return true; });
    REQUIRE(hosts.network().num_end_hosts() == hosts.num_machines());
    const auto index = build_distance_index(hosts, closed);
    CHECK(index->kind() == Kind::ClosedForm);
    CHECK_FALSE(check_distance_index(hosts, *index, all_machines(hosts)));
    CHECK(check_family(*tree, hosts).ok());
}
