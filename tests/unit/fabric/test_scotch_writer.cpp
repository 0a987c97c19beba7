// write_scotch_target: a cluster as Scotch's "deco 0" target architecture.
// The file is read back here as Scotch's archDecoArchLoad reads it; every
// distance must be QueryEngine's latency rounded to whole ns (at least 1),
// and the domain numbers a binary decomposition Scotch can hold (no terminal
// inside another, the largest below 4N). Scotch's own atst and gmap read the
// files in tools.export_oracle.
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
    std::uint64_t terminals = 0, max_domain = 0;
    std::vector<std::uint64_t> labels, weights, domains;
    std::vector<std::vector<std::int64_t>> rows; // rows[i - 1]: distances of PE i to 0..i-1
};

Target read_target(const std::string& text) {
    std::istringstream in(text);
    Target t;
    std::string word;
    int flavour = -1;
    in >> word >> flavour >> t.terminals >> t.max_domain;
    REQUIRE(word == "deco");
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
    in >> word;
    CHECK(in.eof()); // nothing after the distances
    return t;
}

std::string write(const Cluster& c) {
    std::ostringstream out;
    write_scotch_target(c, out);
    return out.str();
}

void check_target(const Cluster& c) {
    const Target t = read_target(write(c));
    const std::uint32_t n = c.num_pes();
    REQUIRE(t.terminals == n);
    QueryEngine engine(c);
    for (std::uint32_t i = 0; i < n; ++i) {
        CHECK(t.labels[i] == i);
        CHECK(t.weights[i] == 1);
    }
    for (std::uint32_t i = 1; i < n; ++i)
        for (std::uint32_t j = 0; j < i; ++j) {
            const double ns = engine.distance(PeId(i), PeId(j)).value();
            const auto expected = std::max<std::int64_t>(1, std::llround(ns));
            if (t.rows[i - 1][j] != expected) {
                INFO("PEs " << i << " " << j << ": " << ns << " ns");
                CHECK(t.rows[i - 1][j] == expected);
            }
        }
    const std::set<std::uint64_t> domains(t.domains.begin(), t.domains.end());
    CHECK(domains.size() == n);
    CHECK(*domains.rbegin() == t.max_domain);
    CHECK(t.max_domain < 4ull * n);
    for (const std::uint64_t d : t.domains)
        for (std::uint64_t a = d / 2; a >= 1; a /= 2) CHECK(domains.count(a) == 0);
}

MachineType machine(const char* synthetic) {
    return MachineType(synthetic, tree_from_synthetic(synthetic), NodeLevel{},
                       LevelLatencies::defaults());
}

} // namespace

TEST_CASE("write_scotch_target: distances are the engine's, domains a decomposition",
          "[scotch_writer]") {
    SECTION("fat-tree of two-package machines") {
        check_target(generate(*make_fat_tree(2, 3), machine("pack:2 core:2 pu:2")));
    }
    SECTION("torus, not a power of two") {
        check_target(generate(*make_torus({3, 5}), machine("core:3 pu:1")));
    }
    SECTION("one PE") {
        check_target(generate(*make_torus({1}), machine("pu:1")));
    }
}

TEST_CASE("write_scotch_target: halves follow the hierarchy", "[scotch_writer]") {
    // 4 machines of 4 PEs on 2 leaf switches: the first cut separates the
    // leaves, the next the machines, then the packages.
    const Cluster c = generate(*make_fat_tree(2, 2), machine("pack:2 core:2 pu:1"));
    const Target t = read_target(write(c));
    REQUIRE(t.terminals == 16);
    for (std::uint32_t p = 0; p < 16; ++p) CHECK(t.domains[p] == 16 + p); // a complete tree
    // Subtree of domain 2 (PEs 0-7) holds machines 0 and 1: the leaf switch of n0, n1.
    CHECK(c.machine_of(PeId(7)).value == 1);
    QueryEngine engine(c);
    CHECK(engine.hop_count(PeId(0), PeId(7)).value() < engine.hop_count(PeId(0), PeId(8)).value());
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
    // More PEs than a target is written for.
    const Cluster big = generate(*make_torus({2}), machine("pack:3 core:1024 pu:1"));
    CHECK_THROWS_WITH(write_scotch_target(big, out), Contains("at most 4096 PEs"));
    CHECK(out.str().empty());
}
