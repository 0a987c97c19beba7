// A job's view of a cluster (model/job_view.hpp) and the queries about an
// allocation (query/allocation.hpp), on random clusters and random
// allocations, against answers worked out from the random specification
// (testkit Oracle: PE numbering, Floyd–Warshall hop counts that respect
// forwarding) by brute force.
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/job_view.hpp"
#include "nettopo/query/allocation.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/description_text.hpp"
#include "testkit/random_cluster.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <random>
#include <set>

using namespace nettopo;
using Catch::Matchers::Contains;
using test::Oracle;

namespace {

// A random allocation: some machines of the cluster, in a random order.
std::vector<std::uint32_t> random_allocation(std::mt19937_64& rng, std::uint32_t machines) {
    std::vector<std::uint32_t> all(machines);
    std::iota(all.begin(), all.end(), 0u);
    std::shuffle(all.begin(), all.end(), rng);
    all.resize(1 + rng() % machines);
    return all;
}

std::vector<MachineId> ids(const std::vector<std::uint32_t>& v) {
    std::vector<MachineId> out;
    for (std::uint32_t m : v) out.emplace_back(m);
    return out;
}

// Rewires a random cluster as a switched fabric where most machines hang
// below one switch each (the common case the summary's shortcut serves):
// a random forest of switches (mostly one tree), each machine cabled to one
// random switch, one machine in five to a second vertex.
void as_leaf_fabric(std::mt19937_64& rng, test::ClusterSpec& spec) {
    const auto nm = static_cast<std::uint32_t>(spec.machines.size());
    spec.switches = std::max<std::uint32_t>(spec.switches, 2);
    spec.links.clear();
    const auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
    const auto latency = [&] { return 1.0 + pick(400) / 4.0; };
    spec.connected = true;
    for (std::uint32_t sw = 1; sw < spec.switches; ++sw) {
        if (pick(6) == 0) { // a switch tree of its own: some hosts do not reach others
            spec.connected = false;
            continue;
        }
        spec.links.push_back({nm + sw, nm + pick(sw), latency(), 0, 1});
    }
    for (std::uint32_t m = 0; m < nm; ++m) {
        spec.links.push_back({m, nm + pick(spec.switches), latency(), 0, 1});
        if (pick(5) == 0) {
            const std::uint32_t other = pick(nm + spec.switches);
            const bool taken = std::any_of(spec.links.begin(), spec.links.end(), [&](auto& l) {
                return (l.a == m && l.b == other) || (l.a == other && l.b == m);
            });
            if (other != m && !taken) spec.links.push_back({m, other, latency(), 0, 1});
        }
    }
}

} // namespace

TEST_CASE("a job view numbers the allocation's PEs and nodes in its order", "[allocation]") {
    std::mt19937_64 rng(1402);
    for (int round = 0; round < 60; ++round) {
        const test::ClusterSpec spec = test::random_cluster(rng);
        const Cluster c = test::build_cluster(spec);
        const Oracle o(spec);
        const auto alloc = random_allocation(rng, c.num_machines());
        const JobView v(c, ids(alloc));
        INFO("round " << round);
        // Brute force: the allocation's machines in order, each one's PEs in
        // order, and their nodes as they first appear.
        std::vector<std::uint32_t> pes, nodes;
        for (std::uint32_t m : alloc)
            for (std::uint32_t k = 0; k < o.pes_of(m); ++k) {
                const std::uint32_t pe = o.first_pe(m) + k;
                pes.push_back(pe);
                if (std::find(nodes.begin(), nodes.end(), o.node_of(pe)) == nodes.end())
                    nodes.push_back(o.node_of(pe));
            }
        REQUIRE(v.num_machines() == alloc.size());
        REQUIRE(v.num_pes() == pes.size());
        REQUIRE(v.num_nodes() == nodes.size());
        for (std::uint32_t i = 0; i < pes.size(); ++i) {
            REQUIRE(v.cluster_pe(i).value == pes[i]);
            REQUIRE(v.view_pe(PeId(pes[i])) == i);
        }
        for (std::uint32_t i = 0; i < nodes.size(); ++i) {
            REQUIRE(v.cluster_node(i).value == nodes[i]);
            REQUIRE(v.view_node(NodeId(nodes[i])) == i);
        }
        for (std::uint32_t pe = 0; pe < o.num_pes(); ++pe) {
            const bool inside = std::find(pes.begin(), pes.end(), pe) != pes.end();
            REQUIRE(v.view_pe(PeId(pe)).has_value() == inside);
            REQUIRE(v.contains(MachineId(o.machine_of(pe))) == inside);
        }
        for (std::uint32_t i = 0; i < alloc.size(); ++i) {
            REQUIRE(v.machine(i).value == alloc[i]);
            REQUIRE(v.position(MachineId(alloc[i])) == i);
            REQUIRE(v.view_pes(i).count == o.pes_of(alloc[i]));
        }
    }
}

TEST_CASE("a job view refuses a machine twice", "[allocation]") {
    std::mt19937_64 rng(3);
    const test::ClusterSpec spec = test::random_cluster(rng);
    const Cluster c = test::build_cluster(spec);
    CHECK_THROWS_AS(JobView(c, {MachineId(1), MachineId(0), MachineId(1)}), InputError);
}

TEST_CASE("allocation hosts by name: repeats once, short names, unknown names told",
          "[allocation]") {
    const Cluster c = test::from_description_text("machines n[01-04] pu:2\n"
                                                  "machine big.example.org pu:1\n"
                                                  "switch s\n"
                                                  "link n01 s 1\nlink n02 s 1\nlink n03 s 1\n"
                                                  "link n04 s 1\nlink big.example.org s 1\n",
                                                  "t.topo");
    const std::vector<std::string> names{"n03", "n01.cluster.example", "n03", "n01"};
    const auto m = machines_named(c, names, "hosts.txt");
    REQUIRE(m.size() == 2);
    CHECK(c.machine_name(m[0]) == "n03");
    CHECK(c.machine_name(m[1]) == "n01");
    const std::vector<std::string> bad{"n02", "x7", "x8", "n09"};
    CHECK_THROWS_WITH(machines_named(c, bad, "--nodes"),
                      Contains("--nodes") && Contains("x[7-8],n09"));
    // From a file: the first host missing, with its line, and how many more.
    const std::vector<std::size_t> lines{1, 3, 4, 9};
    CHECK_THROWS_WITH(machines_named(c, bad, "hosts.txt", lines),
                      "hosts.txt:3: host 'x7' is not in the cluster (nor are 2 more, from line "
                      "4: x8,n09); known machines: n[01-04],big.example.org");
    const std::vector<std::string> typo{"n02", "n0l"};
    const std::vector<std::size_t> typo_lines{2, 5};
    CHECK_THROWS_WITH(machines_named(c, typo, "hosts.txt", typo_lines),
                      "hosts.txt:5: host 'n0l' is not in the cluster; did you mean n01?");
}

TEST_CASE("allocation hosts from a hostlist: in its order, errors named by where it was given",
          "[allocation]") {
    const Cluster c = test::from_description_text("machines n[01-04] pu:2\n"
                                                  "switch s\n"
                                                  "link n01 s 1\nlink n02 s 1\nlink n03 s 1\n"
                                                  "link n04 s 1\n",
                                                  "t.topo");
    const auto m = machines_of_hostlist(c, "n[03,01],n03.cluster.example", "--nodes");
    REQUIRE(m.size() == 2);
    CHECK(c.machine_name(m[0]) == "n03");
    CHECK(c.machine_name(m[1]) == "n01");
    CHECK_THROWS_WITH(machines_of_hostlist(c, "n[03", "hostlist"),
                      "hostlist: bad hostlist 'n[03': '[' without ']'");
    CHECK_THROWS_WITH(machines_of_hostlist(c, "n[02-06]", "--nodes"),
                      Contains("--nodes: hosts are not in the cluster: n[05-06]"));
}

TEST_CASE("allocation summary: switches on shortest paths and largest hop count", "[allocation]") {
    std::mt19937_64 rng(1403);
    test::RandomOptions opts;
    opts.end_host_share = 0.3;
    int shared_leaves = 0; // allocations with two hosts cabled only to one switch
    for (int round = 0; round < 200; ++round) {
        opts.allow_disconnected = round % 4 == 3;
        test::ClusterSpec spec = test::random_cluster(rng, opts);
        if (round % 2) as_leaf_fabric(rng, spec);
        const Cluster c = test::build_cluster(spec, true); // end hosts may cut it
        const Oracle o(spec);
        const auto alloc = random_allocation(rng, c.num_machines());
        const AllocationSummary s = summarize_allocation(JobView(c, ids(alloc)));
        INFO("round " << round << "\n" << spec.description());
        const std::uint32_t nm = c.num_machines();
        const auto hops = [&](std::uint32_t u, std::uint32_t v) { return o.vertex_hops(u, v); };
        std::set<std::uint32_t> leaf, on_path;
        double largest = 0;
        std::uint64_t unreachable = 0;
        std::set<std::set<std::uint32_t>> units; // each host's switches
        std::uint32_t fewest = alloc.empty() ? 0 : ~0u, most = 0;
        for (std::uint32_t a : alloc) {
            std::set<std::uint32_t> mine;
            for (std::uint32_t sw = nm; sw < nm + spec.switches; ++sw)
                if (o.link_latency(a, sw) != Oracle::inf) {
                    leaf.insert(sw);
                    mine.insert(sw);
                }
            fewest = std::min(fewest, static_cast<std::uint32_t>(mine.size()));
            most = std::max(most, static_cast<std::uint32_t>(mine.size()));
            units.insert(std::move(mine));
        }
        for (std::size_t i = 0; i < alloc.size(); ++i)
            for (std::size_t j = i + 1; j < alloc.size(); ++j) {
                const std::uint32_t a = alloc[i], b = alloc[j];
                if (hops(a, b) == Oracle::inf) {
                    ++unreachable;
                    continue;
                }
                largest = std::max(largest, hops(a, b));
                for (std::uint32_t sw = nm; sw < nm + spec.switches; ++sw)
                    if (hops(a, sw) + hops(sw, b) == hops(a, b)) on_path.insert(sw);
            }
        on_path.insert(leaf.begin(), leaf.end());
        std::vector<std::uint32_t> below(spec.switches, 0);
        for (std::uint32_t a : alloc) {
            const auto to = c.network().neighbors(c.vertex(MachineId(a)));
            if (to.size() == 1 && !c.network().is_machine(to[0]))
                shared_leaves += ++below[to[0].value - nm] == 2;
        }
        CHECK(s.hosts == alloc.size());
        CHECK(s.leaf_switches == leaf.size());
        CHECK(s.units == units.size());
        CHECK(s.min_host_leaves == fewest);
        CHECK(s.max_host_leaves == most);
        CHECK(s.switches == on_path.size());
        CHECK(s.unreachable_pairs == unreachable);
        if (unreachable == 0) {
            REQUIRE(s.max_hops.has_value());
            CHECK(*s.max_hops == static_cast<std::uint32_t>(largest));
        } else {
            CHECK(!s.max_hops.has_value());
        }
    }
    CHECK(shared_leaves >= 20); // the search from a leaf for all its hosts is exercised
}

TEST_CASE("allocation summary: units of a rail-optimized fabric", "[allocation][rails]") {
    // 3 units of 4 hosts with 2 rails: n0-n3, n4-n7, n8-n11.
    const Cluster c = generate_from_spec("rail-optimized --units 3 --hosts-per-unit 4 --rails 2");
    const auto summary = [&](std::vector<std::uint32_t> hosts) {
        return summarize_allocation(JobView(c, ids(hosts)));
    };
    const AllocationSummary one = summary({0, 1, 2, 3});
    CHECK(one.units == 1);
    CHECK(one.leaf_switches == 2); // one per rail
    CHECK(one.min_host_leaves == 2);
    CHECK(one.max_host_leaves == 2);
    CHECK(one.max_hops == 2u);
    const AllocationSummary two = summary({3, 4});
    CHECK(two.units == 2);
    CHECK(two.leaf_switches == 4);
    CHECK(two.max_hops == 4u);
    CHECK(summary({0, 5, 10}).units == 3);
    // Single-homed hosts: every host its own leaf set, one leaf each.
    const AllocationSummary ft =
        summarize_allocation(JobView(generate_from_spec("fat-tree --k 4 --n 2"), ids({0, 1, 4})));
    CHECK(ft.units == 2);
    CHECK(ft.max_host_leaves == 1);
}

TEST_CASE("nearest within an allocation: only its PEs, ties by view id", "[allocation]") {
    std::mt19937_64 rng(1404);
    for (int round = 0; round < 40; ++round) {
        const test::ClusterSpec spec = test::random_cluster(rng);
        const Cluster c = test::build_cluster(spec);
        const auto alloc = random_allocation(rng, c.num_machines());
        const JobView v(c, ids(alloc));
        QueryEngine q(c), brute(c, nullptr);
        INFO("round " << round);
        for (int i = 0; i < 5; ++i) {
            const PeId p = v.cluster_pe(static_cast<std::uint32_t>(rng() % v.num_pes()));
            const auto k = static_cast<std::uint32_t>(1 + rng() % (v.num_pes() + 2));
            // Every allocation PE but p with its distance, sorted by (distance, view id).
            std::vector<std::pair<double, std::uint32_t>> all;
            for (std::uint32_t j = 0; j < v.num_pes(); ++j)
                if (v.cluster_pe(j) != p)
                    if (const auto d = brute.distance(p, v.cluster_pe(j))) all.emplace_back(*d, j);
            std::sort(all.begin(), all.end());
            all.resize(std::min<std::size_t>(all.size(), k));
            const auto found = nearest_in_view(q, v, p, k);
            REQUIRE(found.size() == all.size());
            for (std::size_t j = 0; j < all.size(); ++j) {
                CHECK(found[j].pe == v.cluster_pe(all[j].second));
                CHECK(found[j].distance_ns == all[j].first);
            }
        }
    }
}
