// The bulk paths an archive is loaded through (issue 25): runs of names added
// at once, links given as one flat array, the name index sorted by keys, the
// adjacency filled without sorting. Each must give what the one-by-one paths
// give: the same names, ids, order, errors and model.
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/image.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/model/model_bytes.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/temp_dir.hpp"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace nettopo;

namespace {

MachineType small_type() {
    MachineTree::Builder b;
    const ObjectId m = b.add(ObjectType::Machine, ObjectId(), 0, 0);
    b.add(ObjectType::PU, m, 0, 0);
    b.add(ObjectType::PU, m, 1, 0);
    return MachineType("pu:2", std::move(b).finish(), NodeLevel{}, LevelLatencies::defaults());
}

// The message of what `f` throws, or "" when it throws nothing.
template <class F> std::string error_of(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

struct Run {
    std::string prefix;
    std::uint64_t first, count;
    int width;
};

// The same runs through add_machines and through add_machine name by name.
void check_runs_like_one_by_one(const std::vector<Run>& runs, const Limits& limits) {
    ClusterBuilder bulk, single;
    bulk.set_limits(limits);
    single.set_limits(limits);
    const TypeId tb = bulk.add_type(small_type()), ts = single.add_type(small_type());
    for (const Run& r : runs) {
        INFO(r.prefix << " " << r.first << " " << r.count << " " << r.width);
        const std::string by_bulk =
            error_of([&] { bulk.add_machines(r.prefix, r.first, r.count, r.width, tb); });
        const std::string by_name = error_of([&] {
            for (std::uint64_t i = 0; i < r.count; ++i)
                single.add_machine(fmt::format("{}{:0{}}", r.prefix, r.first + i, r.width), ts);
        });
        CHECK(by_bulk == by_name);
        REQUIRE(bulk.num_machines() == single.num_machines());
        CHECK(bulk.num_pes() == single.num_pes());
        if (!by_name.empty()) return;
    }
    bulk.add_switches("s", 0, 1, 0);
    single.add_switch("s0");
    for (std::uint32_t m = 0; m < bulk.num_machines(); ++m) {
        bulk.add_link({false, m}, {true, 0}, 1);
        single.add_link({false, m}, {true, 0}, 1);
    }
    const Cluster a = std::move(bulk).build(), b = std::move(single).build();
    REQUIRE(a.num_machines() == b.num_machines());
    for (std::uint32_t m = 0; m < a.num_machines(); ++m)
        REQUIRE(a.machine_name(MachineId(m)) == b.machine_name(MachineId(m)));
    CHECK(std::ranges::equal(a.machine_names().sorted_index(), b.machine_names().sorted_index()));
    CHECK(a.runs().size() == b.runs().size());
}

} // namespace

TEST_CASE("bulk build: runs of names are the names added one by one, errors included",
          "[archive][builder]") {
    check_runs_like_one_by_one({{"node", 1, 120, 3}, {"n", 7, 5, 0}, {"x", 98, 5, 0}}, Limits{});
    // The limit of vertices reached inside a run: refused at the same name.
    Limits few;
    few.max_vertices = 50;
    check_runs_like_one_by_one({{"a", 0, 30, 0}, {"b", 0, 30, 2}}, few);
    // A prefix that breaks the rule of names, and names that grow past 255 bytes.
    check_runs_like_one_by_one({{"ok", 0, 3, 0}, {"bad\x01", 0, 3, 0}}, Limits{});
    check_runs_like_one_by_one({{std::string(250, 'p'), 99990, 20, 0}}, Limits{});
    // Numbers that wrap past 2^64 - 1 are spelt as the reader spells them.
    check_runs_like_one_by_one({{"w", ~std::uint64_t{0} - 1, 3, 0}}, Limits{});
}

TEST_CASE("bulk build: the name index orders by name then id, as a comparison sort",
          "[archive][builder]") {
    std::mt19937_64 rng(25);
    for (int round = 0; round < 40; ++round) {
        ClusterBuilder b;
        const TypeId t = b.add_type(small_type());
        std::vector<std::string> names;
        const std::string common = round % 3 == 0 ? "" : std::string(round % 7, 'c');
        std::uniform_int_distribution<int> len(0, 14), ch(0, 3);
        const int n = 1 + round * 37;
        for (int i = 0; i < n; ++i) {
            std::string s = common;
            for (int k = len(rng); k > 0; --k)
                s += std::array<const char*, 4>{"a", "b", "\xc3\xa9", "z"}[ch(rng)];
            s += std::to_string(i % 5 == 0 ? i : i * 7919 % 1000);
            names.push_back(s);
        }
        // Duplicates would be refused: make the names unique by a suffix.
        for (int i = 0; i < n; ++i) names[i] += fmt::format("-{}", i % 2 ? i : n - i);
        for (const std::string& s : names) b.add_machine(s, t);
        const Cluster c =
            std::move(b).build(BuildOptions{.allow_disconnected = true, .limits = Limits{}});
        std::vector<std::uint32_t> want(names.size());
        std::iota(want.begin(), want.end(), 0u);
        std::sort(want.begin(), want.end(), [&](std::uint32_t x, std::uint32_t y) {
            return names[x] != names[y] ? names[x] < names[y] : x < y;
        });
        REQUIRE(std::ranges::equal(c.machine_names().sorted_index(), want));
    }
}

TEST_CASE("bulk build: links given flat build the network add_link builds", "[archive][builder]") {
    // A ring of 40 machines and chords, declared shuffled and either way round.
    std::mt19937_64 rng(6);
    struct Declared {
        std::uint32_t a, b;
        double latency;
    };
    std::vector<Declared> links;
    for (std::uint32_t m = 0; m < 40; ++m) links.push_back({m, (m + 1) % 40, 1.0 + m % 3});
    for (std::uint32_t m = 0; m < 40; m += 3) links.push_back({(m + 17) % 40, m, 2.5});
    for (const bool shuffled : {false, true}) {
        if (shuffled) std::shuffle(links.begin(), links.end(), rng);
        ClusterBuilder one, flat;
        for (ClusterBuilder* b : {&one, &flat}) {
            const TypeId t = b->add_type(small_type());
            b->add_machines("m", 0, 40, 0, t);
        }
        std::vector<Link> given;
        for (const Declared& l : links) {
            one.add_link({false, l.a}, {false, l.b}, l.latency);
            given.push_back({VertexId(l.a), VertexId(l.b), l.latency, 0, 1});
        }
        flat.add_links(given);
        const Cluster x = std::move(one).build(), y = std::move(flat).build();
        CHECK(test::archive_text(x) == test::archive_text(y));
        const Network &nx = x.network(), &ny = y.network();
        CHECK(std::ranges::equal(nx.links(), ny.links()));
        CHECK(std::ranges::equal(nx.csr_offsets(), ny.csr_offsets()));
        CHECK(std::ranges::equal(nx.csr_targets(), ny.csr_targets()));
        CHECK(std::ranges::equal(nx.csr_link_ids(), ny.csr_link_ids()));
        CHECK(std::ranges::equal(nx.csr_latencies_ps(), ny.csr_latencies_ps()));
        for (std::uint32_t v = 0; v < ny.num_vertices(); ++v)
            CHECK(std::ranges::is_sorted(ny.neighbors(VertexId(v))));
    }
    SECTION("the same checks as add_link, naming the link") {
        ClusterBuilder b;
        const TypeId t = b.add_type(small_type());
        b.add_machines("m", 0, 3, 0, t);
        CHECK(error_of([&] {
                  b.add_links(
                      {{VertexId(0), VertexId(1), 1, 0, 1}, {VertexId(2), VertexId(2), 1, 0, 1}});
              }) == "link 1: a link cannot join a vertex to itself");
        CHECK(error_of([&] {
                  b.add_links({{VertexId(0), VertexId(1), -1, 0, 1}});
              }) == "link 0: invalid latency -1 ns: must be between 0 and 1000000000 ns (1 s)");
        CHECK_THROWS_AS(b.add_machine("late", t), Error);
    }
    SECTION("a duplicate is reported at its later declaration, ends as declared") {
        ClusterBuilder b;
        const TypeId t = b.add_type(small_type());
        b.add_machines("m", 0, 3, 0, t);
        b.add_links({{VertexId(0), VertexId(1), 1, 0, 1},
                     {VertexId(1), VertexId(2), 1, 0, 1},
                     {VertexId(1), VertexId(0), 1, 0, 1}});
        try {
            (void)std::move(b).build();
            FAIL("no duplicate found");
        } catch (const DuplicateLinkError& e) {
            CHECK(e.first() == 0);
            CHECK(e.later() == 2);
            CHECK(e.a().name == "m1");
            CHECK(e.b().name == "m0");
        }
    }
}

TEST_CASE("bulk build: model_bytes counts the arrays an image holds", "[archive][builder]") {
    const Cluster c = generate_from_spec("torus --dims 6x5x4 --machine \"pack:2 core:2 pu:1\"");
    const Network& net = c.network();
    const std::uint64_t bytes = model_bytes(c);
    const std::uint64_t arrays = net.num_links() * sizeof(Link) + (net.num_vertices() + 1) * 4 +
                                 2 * net.num_links() * (4 + 8 + 4) +
                                 c.machine_names().pool().size() + (c.num_machines() + 1) * 8 +
                                 c.num_machines() * 4 + 8;
    CHECK(bytes >= arrays);
    CHECK(bytes < arrays + 16384);
    // An image is those arrays with a few headers: within a few kilobytes.
    const test::TempDir dir("nettopo-bulk-");
    const std::uint64_t image = save_image(c, nullptr, dir / "c.ntimg");
    CHECK(bytes + 65536 > image);
    CHECK(image + 65536 > bytes);
}
