// diff_clusters: each kind of difference alone on small described clusters
// (reported once, with what a person needs to act on it), and random edits
// of random clusters against a slow twin that compares the two
// specifications name by name in ordered maps.
#include "nettopo/formats/description.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/model/cluster_diff.hpp"
#include "testkit/random_cluster.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

using namespace nettopo;

namespace {

Cluster described(const std::string& text) {
    std::istringstream in(text);
    LoadOptions o;
    o.build.allow_disconnected = true;
    return read_description(in, "t.topo", o);
}

// A small two-level tree: n1, n2 below leaf0, n3 below leaf1; a 2-cable trunk.
const std::string base = "machines n[1-3] pack:2 l3:1 core:4 pu:2\n"
                         "switch spine\nswitch leaf0\nswitch leaf1\n"
                         "link leaf0 spine 100 bandwidth=100 count=2\n"
                         "link leaf1 spine 100 bandwidth=100 count=2\n"
                         "link n1 leaf0 200 bandwidth=100\n"
                         "link n2 leaf0 200 bandwidth=100\n"
                         "link n3 leaf1 200 bandwidth=100\n";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

// The one difference of `today` from `base`.
ClusterDifference only_difference(const std::string& today) {
    const ClusterDiff d = diff_clusters(described(base), described(today));
    REQUIRE(d.differences.size() == 1);
    CHECK(d.count(d.differences[0].kind) == 1);
    return d.differences[0];
}

} // namespace

TEST_CASE("cluster diff: identical clusters, in any order and under any name", "[cluster-diff]") {
    const Cluster expected = described(base);
    CHECK(diff_clusters(expected, expected).identical());
    // Declared in another order: other vertex ids, the same cluster.
    const Cluster reordered = described("name other\nmachine n3 pack:2 l3:1 core:4 pu:2\n"
                                        "machines n[1-2] pack:2 l3:1 core:4 pu:2\n"
                                        "switch leaf1\nswitch spine\nswitch leaf0\n"
                                        "link n3 leaf1 200 bandwidth=100\n"
                                        "link spine leaf1 100 bandwidth=100 count=2\n"
                                        "link n2 leaf0 200 bandwidth=100\n"
                                        "link n1 leaf0 200 bandwidth=100\n"
                                        "link spine leaf0 100 bandwidth=100 count=2\n");
    const ClusterDiff d = diff_clusters(expected, reordered);
    CHECK(d.identical());
    CHECK(d.count_by_kind == std::array<std::size_t, difference_kind_count>{});
}

TEST_CASE("cluster diff: each kind of difference alone", "[cluster-diff]") {
    SECTION("a machine missing: its link is not reported again") {
        const ClusterDifference d =
            only_difference(replaced(replaced(base, "machines n[1-3]", "machines n[1-2]"),
                                     "link n3 leaf1 200 bandwidth=100\n", ""));
        CHECK(d.kind == DifferenceKind::machine_missing);
        CHECK(d.name == "n3");
        CHECK(d.peer.empty());
        CHECK(d.neighbors == std::vector<std::string>{"leaf1"});
    }
    SECTION("a machine added") {
        const ClusterDifference d =
            only_difference(base + "machine n4 pack:1 core:2 pu:1\nlink n4 leaf1 200\n");
        CHECK(d.kind == DifferenceKind::machine_added);
        CHECK(d.name == "n4");
        CHECK(d.neighbors == std::vector<std::string>{"leaf1"});
    }
    SECTION("a switch missing, with its neighbours in natural order") {
        const ClusterDiff d = diff_clusters(
            described(base + "switch leaf2\nmachine n10 core:1 pu:1\nlink leaf2 spine 100\n"
                             "link n10 leaf2 200\nlink n2 leaf2 200\n"),
            described(base + "machine n10 core:1 pu:1\nlink n10 leaf0 200\n"));
        // leaf2 missing (its three links with it); n10's new link is added.
        REQUIRE(d.differences.size() == 2);
        CHECK(d.differences[0].kind == DifferenceKind::switch_missing);
        CHECK(d.differences[0].name == "leaf2");
        CHECK(d.differences[0].neighbors == std::vector<std::string>{"n2", "n10", "spine"});
        CHECK(d.differences[1].kind == DifferenceKind::link_added);
        CHECK(d.differences[1].name == "n10");
        CHECK(d.differences[1].peer == "leaf0");
    }
    SECTION("a switch added") {
        const ClusterDifference d = only_difference(base + "switch leaf2\nlink leaf2 spine 100\n");
        CHECK(d.kind == DifferenceKind::switch_added);
        CHECK(d.name == "leaf2");
        CHECK(d.neighbors == std::vector<std::string>{"spine"});
    }
    SECTION("a link missing: named machine end first") {
        const ClusterDifference d =
            only_difference(replaced(base, "link n2 leaf0 200 bandwidth=100\n", ""));
        CHECK(d.kind == DifferenceKind::link_missing);
        CHECK(d.name == "n2");
        CHECK(d.peer == "leaf0");
        CHECK(d.expected == 1);
        CHECK(d.actual == 0);
    }
    SECTION("a link added between switches: ends in natural order") {
        const ClusterDifference d = only_difference(base + "link leaf1 leaf0 100 count=3\n");
        CHECK(d.kind == DifferenceKind::link_added);
        CHECK(d.name == "leaf0");
        CHECK(d.peer == "leaf1");
        CHECK(d.expected == 0);
        CHECK(d.actual == 3);
    }
    SECTION("a trunk lost a cable") {
        const ClusterDifference d = only_difference(replaced(
            base, "leaf1 spine 100 bandwidth=100 count=2", "leaf1 spine 100 bandwidth=100"));
        CHECK(d.kind == DifferenceKind::cables_changed);
        CHECK(d.name == "leaf1");
        CHECK(d.peer == "spine");
        CHECK(d.expected == 2);
        CHECK(d.actual == 1);
    }
    SECTION("a link trained at a lower speed") {
        const ClusterDifference d = only_difference(
            replaced(base, "n3 leaf1 200 bandwidth=100", "n3 leaf1 200 bandwidth=25"));
        CHECK(d.kind == DifferenceKind::bandwidth_changed);
        CHECK(d.name == "n3");
        CHECK(d.peer == "leaf1");
        CHECK(d.expected == 100);
        CHECK(d.actual == 25);
    }
    SECTION("a bandwidth no longer known") {
        const ClusterDifference d =
            only_difference(replaced(base, "n3 leaf1 200 bandwidth=100", "n3 leaf1 200"));
        CHECK(d.kind == DifferenceKind::bandwidth_changed);
        CHECK(d.actual == 0);
    }
    SECTION("another latency, down to the picosecond") {
        const ClusterDifference d =
            only_difference(replaced(base, "n3 leaf1 200 bandwidth", "n3 leaf1 200.001 bandwidth"));
        CHECK(d.kind == DifferenceKind::latency_changed);
        CHECK(d.expected == 200);
        CHECK(d.actual == 200.001);
    }
    SECTION("a machine of another family") {
        const ClusterDifference d = only_difference(replaced(
            base, "machines n[1-3] pack:2 l3:1 core:4 pu:2\n",
            "machines n[1-2] pack:2 l3:1 core:4 pu:2\nmachine n3 pack:1 l3:1 core:6 pu:1\n"));
        CHECK(d.kind == DifferenceKind::machine_changed);
        CHECK(d.name == "n3");
        CHECK(d.machine.expected.packages == 2);
        CHECK(d.machine.actual.packages == 1);
        CHECK(d.machine.expected.cores == 8);
        CHECK(d.machine.actual.cores == 6);
        CHECK(d.machine.expected.pus == 16);
        CHECK(d.machine.actual.pus == 6);
        CHECK(d.machine.expected.nodes == 2);
        CHECK(d.machine.actual.nodes == 1);
        CHECK(d.machine.layout);
        CHECK_FALSE(d.machine.latencies);
    }
}

TEST_CASE("cluster diff: a trunk moved is one link missing and one added", "[cluster-diff]") {
    const ClusterDiff d = diff_clusters(
        described(base), described(replaced(base, "link leaf1 spine 100 bandwidth=100 count=2\n",
                                            "link leaf1 leaf0 100 bandwidth=100 count=2\n")));
    REQUIRE(d.differences.size() == 2);
    CHECK(d.differences[0].kind == DifferenceKind::link_missing);
    CHECK(d.differences[0].name == "leaf1");
    CHECK(d.differences[0].peer == "spine");
    CHECK(d.differences[0].expected == 2);
    CHECK(d.differences[1].kind == DifferenceKind::link_added);
    CHECK(d.differences[1].name == "leaf0");
    CHECK(d.differences[1].peer == "leaf1");
    CHECK(d.differences[1].actual == 2);
}

TEST_CASE("cluster diff: a whole run of machines changes, one difference each", "[cluster-diff]") {
    const ClusterDiff d = diff_clusters(
        described(base), described(replaced(base, "core:4 pu:2\n", "core:4 pu:2 node=core\n")));
    REQUIRE(d.differences.size() == 3);
    CHECK(d.count(DifferenceKind::machine_changed) == 3);
    for (const ClusterDifference& x : d.differences) {
        CHECK(x.machine.expected.node_type == ObjectType::L3);
        CHECK(x.machine.actual.node_type == ObjectType::Core);
        CHECK(x.machine.expected.nodes == 2);
        CHECK(x.machine.actual.nodes == 8);
        CHECK_FALSE(x.machine.layout);
    }
    CHECK(d.differences[0].name == "n1");
    CHECK(d.differences[2].name == "n3");
    const ClusterDiff l = diff_clusters(
        described(base), described(replaced(base, "core:4 pu:2\n", "core:4 pu:2 lat.l3=41\n")));
    REQUIRE(l.differences.size() == 3);
    CHECK(l.differences[0].machine.latencies);
    CHECK(l.differences[0].machine.expected == l.differences[0].machine.actual);
}

TEST_CASE("cluster diff: memory and NUMA nodes are counted from the tree", "[cluster-diff]") {
    // hwloc's synthetic memory attribute: 4 GB (decimal) on each of the two NUMA nodes.
    const Cluster c = described("machine a pack:2 numa:1(memory=4GB) core:2 pu:1\n");
    const MachineCounts counts = machine_counts(c.machine_type(MachineId(0)));
    CHECK(counts.packages == 2);
    CHECK(counts.numa_nodes == 2);
    CHECK(counts.cores == 4);
    CHECK(counts.pus == 4);
    CHECK(counts.memory_bytes == 8'000'000'000u);
    // A DIMM lost on one NUMA node: memory is among the counts that changed.
    const ClusterDiff d = diff_clusters(
        c, described("machine a pack:2 numa:1(memory=4GB) core:2 pu:1\n"
                     "machine b core:1 pu:1\nlink a b 1\n")); // unrelated: one machine added
    CHECK(d.count(DifferenceKind::machine_added) == 1);
    const ClusterDiff m =
        diff_clusters(c, described("machine a pack:2 numa:1(memory=3GB) core:2 pu:1\n"));
    REQUIRE(m.differences.size() == 1);
    CHECK(m.differences[0].machine.expected.memory_bytes == 8'000'000'000u);
    CHECK(m.differences[0].machine.actual.memory_bytes == 6'000'000'000u);
    CHECK(m.differences[0].machine.numa_memory);
    CHECK_FALSE(m.differences[0].machine.layout);
}

namespace {

// One machine "a": 2 cores of one PU, in CPU kinds of these efficiencies
// (a kind each; none when empty).
Cluster with_kinds(const std::vector<std::int32_t>& efficiencies) {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    for (std::uint32_t c = 0; c < 2; ++c)
        b.add(ObjectType::PU, b.add(ObjectType::Core, root, c), c);
    for (std::uint32_t k = 0; k < efficiencies.size(); ++k)
        b.add_cpu_kind(CpuKind{efficiencies[k], {}}, std::vector<std::uint32_t>{k});
    ClusterBuilder cb("kinds");
    cb.add_machine("a", cb.add_type(MachineType("t", std::move(b).finish(), NodeLevel{},
                                                LevelLatencies::defaults())));
    return std::move(cb).build();
}

} // namespace

TEST_CASE("cluster diff: other CPU kinds are a machine change", "[cluster-diff][cpu_kinds]") {
    CHECK(diff_clusters(with_kinds({0, 1}), with_kinds({0, 1})).identical());
    // A single kind is not kept (min_cpu_kinds): a host whose hwloc gives
    // one is the host without kinds, whatever that kind says.
    CHECK(diff_clusters(with_kinds({0}), with_kinds({})).identical());
    CHECK(diff_clusters(with_kinds({-1}), with_kinds({0})).identical());
    for (const auto& other : {std::vector<std::int32_t>{}, std::vector<std::int32_t>{1, 0}}) {
        const ClusterDiff d = diff_clusters(with_kinds({0, 1}), with_kinds(other));
        REQUIRE(d.differences.size() == 1);
        CHECK(d.differences[0].kind == DifferenceKind::machine_changed);
        CHECK(d.differences[0].machine.cpu_kinds);
        CHECK_FALSE(d.differences[0].machine.layout);
        CHECK(d.differences[0].machine.expected == d.differences[0].machine.actual);
    }
}

namespace {

// The slow twin: both specifications as ordered maps keyed by names.
struct Named {
    std::vector<std::string> machine_names, switch_names;
    test::ClusterSpec spec;

    std::string vertex_name(std::uint32_t v) const {
        return v < machine_names.size() ? machine_names[v] : switch_names[v - machine_names.size()];
    }
    std::string description() const {
        std::string s;
        for (std::size_t m = 0; m < spec.machines.size(); ++m)
            s += fmt::format("machine {} {}{}\n", machine_names[m], spec.machines[m].description,
                             spec.machines[m].options);
        for (const std::string& n : switch_names) s += fmt::format("switch {}\n", n);
        for (const test::LinkSpec& l : spec.links) {
            s += fmt::format("link {} {} {}", vertex_name(l.a), vertex_name(l.b), l.latency_ns);
            if (l.bandwidth_gbps > 0) s += fmt::format(" bandwidth={}", l.bandwidth_gbps);
            if (l.count > 1) s += fmt::format(" count={}", l.count);
            s += '\n';
        }
        return s;
    }
};

using Key = std::tuple<DifferenceKind, std::string, std::string, double, double>;
using Ends = std::pair<std::string, std::string>;

Ends ends(std::string a, std::string b) {
    return a < b ? Ends{a, b} : Ends{b, a};
}

std::set<Key> twin(const Named& e, const Named& a) {
    std::map<std::string, std::string> machines_e, machines_a; // name -> description
    std::map<std::string, std::set<std::string>> adjacency_e, adjacency_a;
    std::map<Ends, test::LinkSpec> links_e, links_a;
    auto fill = [](const Named& n, auto& machines, auto& adjacency, auto& links) {
        for (std::size_t m = 0; m < n.spec.machines.size(); ++m)
            machines[n.machine_names[m]] =
                n.spec.machines[m].description + "|" + n.spec.machines[m].options;
        for (const std::string& s : n.switch_names) adjacency[s];
        for (const std::string& m : n.machine_names) adjacency[m];
        for (const test::LinkSpec& l : n.spec.links) {
            adjacency[n.vertex_name(l.a)].insert(n.vertex_name(l.b));
            adjacency[n.vertex_name(l.b)].insert(n.vertex_name(l.a));
            links[ends(n.vertex_name(l.a), n.vertex_name(l.b))] = l;
        }
    };
    fill(e, machines_e, adjacency_e, links_e);
    fill(a, machines_a, adjacency_a, links_a);
    std::set<Key> out;
    auto present = [](const auto& adjacency, const std::string& name) {
        return adjacency.count(name) > 0;
    };
    for (const auto& [name, adj] : adjacency_e)
        if (!present(adjacency_a, name))
            out.insert({machines_e.count(name) ? DifferenceKind::machine_missing
                                               : DifferenceKind::switch_missing,
                        name, "", 0, 0});
    for (const auto& [name, adj] : adjacency_a)
        if (!present(adjacency_e, name))
            out.insert({machines_a.count(name) ? DifferenceKind::machine_added
                                               : DifferenceKind::switch_added,
                        name, "", 0, 0});
    for (const auto& [name, description] : machines_e)
        if (machines_a.count(name) && machines_a[name] != description)
            out.insert({DifferenceKind::machine_changed, name, "", 0, 0});
    for (const auto& [key, l] : links_e) {
        if (!present(adjacency_a, key.first) || !present(adjacency_a, key.second)) continue;
        const auto it = links_a.find(key);
        if (it == links_a.end()) {
            out.insert({DifferenceKind::link_missing, key.first, key.second, l.count, 0});
            continue;
        }
        const test::LinkSpec& m = it->second;
        if (l.count != m.count)
            out.insert({DifferenceKind::cables_changed, key.first, key.second, l.count, m.count});
        if (l.bandwidth_gbps != m.bandwidth_gbps)
            out.insert({DifferenceKind::bandwidth_changed, key.first, key.second, l.bandwidth_gbps,
                        m.bandwidth_gbps});
        if (l.latency_ns != m.latency_ns)
            out.insert({DifferenceKind::latency_changed, key.first, key.second, l.latency_ns,
                        m.latency_ns});
    }
    for (const auto& [key, l] : links_a)
        if (present(adjacency_e, key.first) && present(adjacency_e, key.second) &&
            !links_e.count(key))
            out.insert({DifferenceKind::link_added, key.first, key.second, 0, l.count});
    return out;
}

std::set<Key> keys(const ClusterDiff& d) {
    std::set<Key> out;
    for (const ClusterDifference& x : d.differences) {
        const Ends e = x.peer.empty() ? Ends{x.name, ""} : ends(x.name, x.peer);
        out.insert({x.kind, e.first, e.second, x.expected, x.actual});
    }
    return out;
}

// Drops vertex v (a machine or switch index into the spec's vertices) and its links.
void drop_vertex(Named& n, std::uint32_t v) {
    const auto machines = static_cast<std::uint32_t>(n.machine_names.size());
    std::vector<test::LinkSpec> kept;
    for (test::LinkSpec l : n.spec.links) {
        if (l.a == v || l.b == v) continue;
        l.a -= l.a > v;
        l.b -= l.b > v;
        kept.push_back(l);
    }
    n.spec.links = kept;
    if (v < machines) {
        n.spec.machines.erase(n.spec.machines.begin() + v);
        n.machine_names.erase(n.machine_names.begin() + v);
    } else {
        n.switch_names.erase(n.switch_names.begin() + (v - machines));
        --n.spec.switches;
    }
}

} // namespace

TEST_CASE("cluster diff: random edits of random clusters agree with the slow twin",
          "[cluster-diff]") {
    std::mt19937_64 rng(20261124);
    auto uniform = [&](std::uint32_t lo, std::uint32_t hi) {
        return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
    };
    std::size_t seen_differences = 0;
    for (int trial = 0; trial < 300; ++trial) {
        Named e;
        e.spec = test::random_cluster(rng);
        for (std::size_t m = 0; m < e.spec.machines.size(); ++m)
            e.machine_names.push_back(fmt::format("m{}", m));
        for (std::uint32_t s = 0; s < e.spec.switches; ++s)
            e.switch_names.push_back(fmt::format("s{}", s));
        Named a = e;
        std::set<std::string> retyped; // a machine changes type once (twice could undo it)
        const std::uint32_t edits = uniform(0, 4);
        for (std::uint32_t k = 0; k < edits; ++k) {
            const std::uint32_t n = a.spec.vertices();
            const auto links = static_cast<std::uint32_t>(a.spec.links.size());
            switch (uniform(0, 9)) {
            case 0: // drop a vertex, machine or switch
                if (a.spec.machines.size() > 1) drop_vertex(a, uniform(0, n - 1));
                break;
            case 1: { // a machine more, after the machines: switches move up one
                const auto m = static_cast<std::uint32_t>(a.spec.machines.size());
                for (auto& l : a.spec.links) {
                    l.a += l.a >= m;
                    l.b += l.b >= m;
                }
                a.spec.machines.push_back(a.spec.machines[0]);
                a.machine_names.push_back(fmt::format("x{}", k));
                std::uint32_t peer = uniform(0, n - 1); // among the n others
                peer += peer >= m;
                a.spec.links.push_back({m, peer, 5, 0, 1});
                break;
            }
            case 2: // a switch more
                a.switch_names.push_back(fmt::format("t{}", k));
                ++a.spec.switches;
                a.spec.links.push_back({n, uniform(0, n - 1), 5, 0, 1});
                break;
            case 3: // a link less
                if (links) a.spec.links.erase(a.spec.links.begin() + uniform(0, links - 1));
                break;
            case 4: { // a link more
                const std::uint32_t x = uniform(0, n - 1), y = uniform(0, n - 1);
                bool exists = x == y;
                for (const auto& l : a.spec.links)
                    exists |= (l.a == x && l.b == y) || (l.a == y && l.b == x);
                if (!exists) a.spec.links.push_back({x, y, 7.5, 50, 2});
                break;
            }
            case 5: // cables
                if (links) a.spec.links[uniform(0, links - 1)].count += 1;
                break;
            case 6: // bandwidth
                if (links) {
                    auto& l = a.spec.links[uniform(0, links - 1)];
                    l.bandwidth_gbps = l.bandwidth_gbps == 100 ? 25 : 100;
                }
                break;
            case 7: // latency
                if (links) a.spec.links[uniform(0, links - 1)].latency_ns += 0.5;
                break;
            default: { // another machine type: another shape, default options
                const std::uint32_t i =
                    uniform(0, static_cast<std::uint32_t>(a.spec.machines.size() - 1));
                if (!retyped.insert(a.machine_names[i]).second) break;
                auto& m = a.spec.machines[i];
                const std::string other = m.description == "pack:1 core:4 pu:1"
                                              ? "pack:2 l3:1 core:2 pu:2"
                                              : "pack:1 core:4 pu:1";
                m = test::MachineSpec{other, {}, std::nullopt, LevelLatencies::defaults(), ""};
                break;
            }
            }
        }
        const ClusterDiff d = diff_clusters(described(e.description()), described(a.description()));
        const std::set<Key> expected = twin(e, a);
        INFO("trial " << trial << "\nexpected:\n"
                      << e.description() << "actual:\n"
                      << a.description());
        CHECK(keys(d) == expected);
        CHECK(d.differences.size() == expected.size());
        std::size_t total = 0;
        for (std::size_t c : d.count_by_kind) total += c;
        CHECK(total == d.differences.size());
        // Sorted by kind.
        for (std::size_t i = 1; i < d.differences.size(); ++i)
            CHECK(d.differences[i - 1].kind <= d.differences[i].kind);
        seen_differences += expected.size();
    }
    CHECK(seen_differences > 300); // the edits did make differences
}
