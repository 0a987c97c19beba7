// write_scotch_target: a cluster as Scotch's "tleaf" or "deco 0" target
// architecture. The file is read back here as Scotch reads it (a tleaf's
// distance: the costs of the levels from the one where two leaves meet
// down); every distance must be QueryEngine's latency rounded to whole ns
// (at least 1), and a deco's domain numbers a binary decomposition Scotch
// can hold (no terminal inside another, the largest below 4N). Scotch's own
// atst and gmap read the files in tools.export_oracle.
#include "nettopo/fabric/scotch_writer.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Contains;

namespace {

struct Target {
    std::string form; // "tleaf" or "deco"
    std::uint64_t terminals = 0, max_domain = 0;
    std::vector<std::uint64_t> labels, weights, domains; // deco
    std::vector<std::vector<std::int64_t>> rows;         // deco: PE i to 0..i-1
    std::vector<std::uint64_t> sizes;                    // tleaf
    std::vector<std::int64_t> costs;                     // tleaf

    std::int64_t distance(std::uint64_t i, std::uint64_t j) const {
        if (form == "deco") return rows[i - 1][j];
        std::uint64_t below = terminals;
        for (std::size_t level = 0; level < sizes.size(); ++level) {
            below /= sizes[level];
            if (i / below != j / below) {
                std::int64_t sum = 0;
                for (std::size_t k = level; k < costs.size(); ++k) sum += costs[k];
                return sum;
            }
        }
        return 0;
    }
};

Target read_target(const std::string& text) {
    std::istringstream in(text);
    Target t;
    in >> t.form;
    if (t.form == "tleaf") {
        std::size_t levels = 0;
        in >> levels;
        t.terminals = 1;
        for (std::size_t i = 0; i < levels; ++i) {
            std::uint64_t size = 0;
            std::int64_t cost = 0;
            in >> size >> cost;
            CHECK(cost >= 1);
            t.sizes.push_back(size);
            t.costs.push_back(cost);
            t.terminals *= size;
        }
        REQUIRE(in);
        std::string more;
        in >> more;
        CHECK(in.eof());
        return t;
    }
    REQUIRE(t.form == "deco");
    int flavour = -1;
    in >> flavour >> t.terminals >> t.max_domain;
    REQUIRE(flavour == 0);
    for (std::uint64_t i = 0; i < t.terminals; ++i) {
        std::uint64_t label = 0, weight = 0, domain = 0;
        in >> label >> weight >> domain;
        t.labels.push_back(label);
        t.weights.push_back(weight);
        t.domains.push_back(domain);
    }
    for (std::uint64_t i = 1; i < t.terminals; ++i) {
        std::vector<std::int64_t> row(i);
        for (auto& d : row) in >> d;
        t.rows.push_back(std::move(row));
    }
    REQUIRE(in);
    std::string more;
    in >> more;
    CHECK(in.eof()); // nothing after the distances
    return t;
}

std::string write(const Cluster& c) {
    std::ostringstream out;
    write_scotch_target(c, out);
    return out.str();
}

// The target's distances are the engine's; a deco's domains a decomposition.
Target check_target(const Cluster& c) {
    Target t = read_target(write(c));
    const std::uint32_t n = c.num_pes();
    REQUIRE(t.terminals == n);
    QueryEngine engine(c);
    for (std::uint32_t i = 1; i < n; ++i)
        for (std::uint32_t j = 0; j < i; ++j) {
            const double ns = engine.distance(PeId(i), PeId(j)).value();
            const auto expected = std::max<std::int64_t>(1, std::llround(ns));
            if (t.distance(i, j) != expected) {
                INFO(t.form << ", PEs " << i << " " << j << ": " << ns << " ns");
                CHECK(t.distance(i, j) == expected);
            }
        }
    if (t.form == "tleaf") return t;
    for (std::uint32_t i = 0; i < n; ++i) {
        CHECK(t.labels[i] == i);
        CHECK(t.weights[i] == 1);
    }
    const std::set<std::uint64_t> domains(t.domains.begin(), t.domains.end());
    CHECK(domains.size() == n);
    CHECK(*domains.rbegin() == t.max_domain);
    CHECK(t.max_domain < 4ull * n);
    for (const std::uint64_t d : t.domains)
        for (std::uint64_t a = d / 2; a >= 1; a /= 2) CHECK(domains.count(a) == 0);
    return t;
}

// Whether domain d lies below domain a.
bool below(std::uint64_t d, std::uint64_t a) {
    for (; d >= a; d /= 2)
        if (d == a) return true;
    return false;
}

MachineType machine(const char* synthetic) {
    return MachineType(synthetic, tree_from_synthetic(synthetic), NodeLevel{},
                       LevelLatencies::defaults());
}

} // namespace

TEST_CASE("write_scotch_target: a uniform hierarchy is a tleaf", "[scotch_writer]") {
    // 8 machines, 2 per leaf switch, of 2 packages x 2 cores x 2 PUs.
    const Target t = check_target(generate(*make_fat_tree(2, 3), machine("pack:2 core:2 pu:2")));
    CHECK(t.form == "tleaf");
    CHECK(t.sizes == std::vector<std::uint64_t>{2, 2, 2, 2, 2, 2});
    // An XGFT whose machines hang off two switches each, odd latencies.
    const Target x =
        check_target(generate(*make_xgft({4, 3}, {1, 2}), machine("pack:2 core:3 pu:1")));
    CHECK(x.form == "tleaf");
}

TEST_CASE("write_scotch_target: anything else is a deco 0", "[scotch_writer]") {
    SECTION("torus, not a power of two") {
        CHECK(check_target(generate(*make_torus({3, 5}), machine("core:3 pu:1"))).form == "deco");
    }
    SECTION("one PE") {
        CHECK(check_target(generate(*make_torus({1}), machine("pu:1"))).form == "deco");
    }
    SECTION("one cable slower than its like") {
        // Two leaves of two machines under a spine; n3's cable is slower.
        ClusterBuilder b("odd cable");
        const MachineType m = machine("core:2 pu:1");
        const TypeId t = b.add_type(m);
        for (const char* name : {"n0", "n1", "n2", "n3"}) b.add_machine(name, t);
        const SwitchId spine = b.add_switch("spine"), l0 = b.add_switch("l0"),
                       l1 = b.add_switch("l1");
        b.add_link({true, spine.value}, {true, l0.value}, 100);
        b.add_link({true, spine.value}, {true, l1.value}, 100);
        b.add_link({true, l0.value}, {false, 0}, 200);
        b.add_link({true, l0.value}, {false, 1}, 200);
        b.add_link({true, l1.value}, {false, 2}, 200);
        b.add_link({true, l1.value}, {false, 3}, 201);
        CHECK(check_target(std::move(b).build()).form == "deco");
    }
    SECTION("a machine slower inside than its network (the thesis' Figure 9b)") {
        ClusterBuilder b("fast link");
        const MachineType m = machine("pack:2 core:2 pu:1");
        const TypeId t = b.add_type(m);
        b.add_machine("a", t);
        b.add_machine("b", t);
        b.add_link({false, 0}, {false, 1}, 8);
        CHECK(check_target(std::move(b).build()).form == "deco");
    }
}

TEST_CASE("write_scotch_target: a deco's halves follow the hierarchy", "[scotch_writer]") {
    // Leaf l0 holds n0 and n1, leaf l1 holds n2 alone (no uniform hierarchy):
    // 12 PEs, cut first between the leaves (PE 8), then between n0 and n1
    // (PE 4), then between n2's packages (PE 10).
    ClusterBuilder b("uneven");
    const MachineType m = machine("pack:2 core:2 pu:1");
    const TypeId t = b.add_type(m);
    for (const char* name : {"n0", "n1", "n2"}) b.add_machine(name, t);
    const SwitchId spine = b.add_switch("spine"), l0 = b.add_switch("l0"), l1 = b.add_switch("l1");
    b.add_link({true, spine.value}, {true, l0.value}, 100);
    b.add_link({true, spine.value}, {true, l1.value}, 100);
    b.add_link({true, l0.value}, {false, 0}, 200);
    b.add_link({true, l0.value}, {false, 1}, 200);
    b.add_link({true, l1.value}, {false, 2}, 200);
    const Target d = check_target(std::move(b).build());
    REQUIRE(d.form == "deco");
    for (std::uint32_t p = 0; p < 12; ++p) {
        INFO("PE " << p << ", domain " << d.domains[p]);
        CHECK(below(d.domains[p], p < 8 ? 2 : 3));
        if (p < 8)
            CHECK(below(d.domains[p], p < 4 ? 4 : 5));
        else
            CHECK(below(d.domains[p], p < 10 ? 6 : 7));
    }
}

TEST_CASE("write_scotch_target refuses what Scotch cannot be given", "[scotch_writer]") {
    // Two machines linked, a third alone.
    ClusterBuilder b("islands");
    const MachineType m = machine("core:2 pu:1");
    const TypeId t = b.add_type(m);
    b.add_machine("a", t);
    b.add_machine("b", t);
    b.add_machine("c", t);
    b.add_link({false, 0}, {false, 1}, 10);
    BuildOptions options;
    options.allow_disconnected = true;
    const Cluster islands = std::move(b).build(options);
    std::ostringstream out;
    CHECK_THROWS_WITH(write_scotch_target(islands, out),
                      Contains("PEs 0 and 4 (machines 'a' and 'c') are not connected"));
    CHECK(out.str().empty());
    // More PEs than a deco target is written for, and no uniform hierarchy
    // (a ring of 4: machine 0 is 1, 2 and 1 hops from the others).
    const Cluster big = generate(*make_torus({4}), machine("pack:2 core:1024 pu:1"));
    CHECK_THROWS_WITH(write_scotch_target(big, out), Contains("at most 4096 PEs"));
    CHECK(out.str().empty());
}
