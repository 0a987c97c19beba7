// bench_lca on small budgets: one Measurement per algorithm, every variant
// (hwloc's own call included) agreeing with Ascend, on the thesis' trees and
// on a real XML export. The hidden [.bench] case prints the thesis' table:
//   nettopo_tests "[.bench]"   (NETTOPO_LCA_ROUNDS overrides its 1000 rounds)
#include "nettopo-bench/bench.hpp"
#include "nettopo-bench/lca_bench.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/lca.hpp"
#include "testkit/real_data.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {
const std::vector<std::vector<std::uint32_t>> thesis_trees = {{2, 1, 1, 8, 1, 1, 1, 2},
                                                              {8, 1, 1, 6, 1, 1, 1},
                                                              {4, 4, 1, 3, 2, 1, 1, 1},
                                                              {2, 2, 1, 5, 1, 1, 1, 1, 8},
                                                              {1, 4, 1, 1, 9, 2, 1, 1, 4}};

LcaBenchOptions tiny() {
    LcaBenchOptions o;
    o.warmup = 1;
    o.rounds = 2;
    o.outer = 2;
    return o;
}

void require_all_timed(const std::vector<bench::Measurement>& ms, std::uint64_t pairs) {
    REQUIRE(ms.size() == lca_bench_algorithms.size());
    for (std::size_t i = 0; i < ms.size(); ++i) {
        INFO(ms[i].operation << ": " << ms[i].note);
        CHECK(ms[i].operation == "lca " + lca_bench_algorithms[i]);
        CHECK(ms[i].items == pairs);
        CHECK(ms[i].ns_per_item.size() == 2);
        CHECK_THAT(ms[i].note, !Contains("MISMATCH") && !Contains("skipped"));
    }
}
} // namespace

TEST_CASE("bench_lca times every algorithm on the thesis' trees", "[lca]") {
    for (const auto& g : thesis_trees) {
        const MachineTree tree = tree_from_degrees(g);
        const std::uint64_t n = tree.num_pus();
        require_all_timed(bench_lca(tree, "degrees", tiny()), n * (n - 1) / 2);
    }
}

TEST_CASE("bench_lca loads a real export into hwloc itself", "[lca]") {
    for (const std::string& file : test::real_xmls()) {
        const MachineTree tree = load_hwloc_xml(file).tree;
        if (tree.num_pus() > 64) continue; // keep the test short
        INFO(file);
        LcaBenchOptions o = tiny();
        o.hwloc_xml = file;
        const std::uint64_t n = tree.num_pus();
        require_all_timed(bench_lca(tree, file, o), n * (n - 1) / 2);
    }
}

TEST_CASE("bench_lca gives hwloc an uneven tree too, and refuses bad options", "[lca]") {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    b.add(ObjectType::PU, root);
    const ObjectId g = b.add(ObjectType::Group, root);
    b.add(ObjectType::PU, g);
    b.add(ObjectType::PU, g);
    const MachineTree tree = std::move(b).finish();
    const auto ms = bench_lca(tree, "uneven", tiny());
    require_all_timed(ms, 3);
    CHECK_THAT(ms[4].note, Contains("depth 3"));
    LcaBenchOptions bad = tiny();
    bad.algorithms = {"combin", "bogus"};
    CHECK_THROWS_AS(bench_lca(tree, "x", bad), UsageError);
    bad = tiny();
    bad.rounds = 0;
    CHECK_THROWS_AS(bench_lca(tree, "x", bad), UsageError);
}

TEST_CASE("the thesis' table: ns per query on its five trees", "[.bench]") {
    LcaBenchOptions o;
    o.rounds = 1000;
    o.warmup = 100;
    if (const char* r = std::getenv("NETTOPO_LCA_ROUNDS")) {
        o.rounds = static_cast<std::uint32_t>(std::atoi(r));
        o.warmup = std::max<std::uint32_t>(1, o.rounds / 10);
    }
    for (const auto& g : thesis_trees) {
        const std::string input = fmt::format("degrees {}", fmt::join(g, " "));
        const auto ms = bench_lca(tree_from_degrees(g), input, o);
        std::cout << input << '\n';
        double combin = 0, ascend = 0, hwloc = 0;
        for (const bench::Measurement& m : ms) {
            const bench::Summary s = bench::summarize(m.ns_per_item);
            std::cout << fmt::format("  {:14} median {:7.2f} min {:7.2f} max {:7.2f} ns  {}\n",
                                     m.operation, s.median, s.min, s.max, m.note);
            if (m.operation == "lca combin") combin = s.median;
            if (m.operation == "lca ascend") ascend = s.median;
            if (m.operation == "lca hwloc") hwloc = s.median;
        }
        std::cout << fmt::format("  ascend/combin {:.2f}  hwloc/combin {:.2f}\n", ascend / combin,
                                 hwloc / combin);
    }
}
