// The closed-form distance index (query/closed_form_index.hpp) against its
// slow, obvious twin, NetworkSearch: for every family, small instances on all
// machine pairs and mid-size ones from sampled sources, under random class
// latencies that are not uniform (host below and above switch, local and
// global apart, zeros, fractions of a picosecond), hops must equal BFS and
// latencies Dijkstra's integer picoseconds exactly. Also the family record:
// family_from_spec reads back every spec(), archives keep the record, and a
// hand-edited archive gets no closed form.
#include "nettopo/families/family.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/support/error.hpp"
#include "query/index/closed_form_index.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

using u32 = std::uint32_t;
using FamilyPtr = std::unique_ptr<Family>;

const MachineType& one_pu() {
    static const MachineType type("pu:1", tree_from_synthetic("pu:1"), NodeLevel{},
                                  LevelLatencies::defaults());
    return type;
}

Cluster build(const Family& f, const LinkClasses& links) {
    GenerateOptions o;
    o.links = links;
    return generate(f, one_pu(), o);
}

// The general index stand-in: a plain search per query.
class SearchIndex final : public DistanceIndex {
public:
    explicit SearchIndex(const Cluster& c) : search_(c.network()) {}
    std::string description() const override { return "search"; }
    DistanceIndexKind kind() const override { return DistanceIndexKind::RowCache; }
    std::size_t memory_bytes() const override { return 0; }
    std::uint32_t hops(MachineId a, MachineId b) const override {
        std::lock_guard lock(mutex_);
        return search_.hops(VertexId(a.value), VertexId(b.value)).value_or(unreachable_hops);
    }
    std::int64_t latency_ps(MachineId a, MachineId b) const override {
        std::lock_guard lock(mutex_);
        return search_.latency_ps(VertexId(a.value), VertexId(b.value)).value_or(unreachable_ps);
    }

private:
    mutable std::mutex mutex_;
    mutable NetworkSearch search_;
};

struct Built {
    Cluster cluster;
    std::unique_ptr<DistanceIndex> index;
    int general_calls = 0; // shared with the lambda through the heap object
};

std::unique_ptr<Built> build_index(const Family& f, const LinkClasses& links) {
    auto b = std::make_unique<Built>(Built{build(f, links), nullptr, 0});
    Built* raw = b.get();
    b->index = make_closed_form_index(b->cluster, [raw] {
        ++raw->general_calls;
        return std::make_unique<SearchIndex>(raw->cluster);
    });
    return b;
}

// Latencies in ns with picosecond fractions and below (0.0004 ns rounds to 0 ps).
double random_ns(std::mt19937_64& rng) {
    switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
    case 0:
        return 0;
    case 1:
        return 0.0004;
    default:
        return std::uniform_int_distribution<int>(1, 500000)(rng) / 1000.0;
    }
}

// The scenarios every instance runs under.
std::vector<LinkClasses> scenarios(std::mt19937_64& rng) {
    std::vector<LinkClasses> out;
    auto set = [](double host, double sw, double local, double global) {
        LinkClasses c;
        c[LinkClass::HostSwitch] = {host, 100};
        c[LinkClass::SwitchSwitch] = {sw, 100};
        c[LinkClass::Local] = {local, 100};
        c[LinkClass::Global] = {global, 100};
        return c;
    };
    out.push_back(set(1, 10, 3, 17));   // host < switch, local < global
    out.push_back(set(50, 2, 40, 1.5)); // host > switch, local > global
    out.push_back(set(0, 7, 0, 9));     // free host and local links
    out.push_back(set(3, 0, 5, 0));     // free switch and global links
    out.push_back(set(2.5, 2.5, 4, 4)); // uniform routers: the dragonfly's formula holds
    out.push_back(set(random_ns(rng), random_ns(rng), random_ns(rng), random_ns(rng)));
    return out;
}

std::string pair_text(const Cluster& c, u32 a, u32 b) {
    return fmt::format("{} -> {}", c.machine_name(MachineId(a)), c.machine_name(MachineId(b)));
}

// Compares the index with BFS and Dijkstra from `sources` to every machine;
// one CHECK per instance, listing the first disagreements.
void compare(const Built& b, const std::vector<u32>& sources) {
    const Cluster& c = b.cluster;
    NetworkSearch search(c.network());
    std::vector<u32> bfs;
    std::vector<std::string> wrong;
    std::uint64_t pairs = 0;
    for (u32 s : sources) {
        search.hops_from(VertexId(s), bfs);
        for (u32 t = 0; t < c.num_machines(); ++t) {
            const u32 hops = b.index->hops(MachineId(s), MachineId(t));
            if (hops != bfs[t] && wrong.size() < 5)
                wrong.push_back(
                    fmt::format("hops {}: index {}, BFS {}", pair_text(c, s, t), hops, bfs[t]));
        }
        for (u32 t = 0; t < c.num_machines(); ++t) {
            const std::int64_t ps = b.index->latency_ps(MachineId(s), MachineId(t));
            const std::int64_t want = *search.latency_ps(VertexId(s), VertexId(t));
            if (ps != want && wrong.size() < 5)
                wrong.push_back(fmt::format("latency {}: index {} ps, Dijkstra {} ps",
                                            pair_text(c, s, t), ps, want));
            ++pairs;
        }
    }
    INFO(c.family() << ": " << pairs << " pairs");
    for (const auto& w : wrong) UNSCOPED_INFO(w);
    CHECK(wrong.empty());
}

std::vector<u32> all_machines(const Cluster& c) {
    std::vector<u32> v(c.num_machines());
    for (u32 i = 0; i < v.size(); ++i) v[i] = i;
    return v;
}

std::vector<u32> sampled_machines(const Cluster& c, u32 count, std::mt19937_64& rng) {
    std::vector<u32> v;
    std::uniform_int_distribution<u32> pick(0, c.num_machines() - 1);
    v.push_back(0);
    v.push_back(c.num_machines() - 1);
    while (v.size() < count) v.push_back(pick(rng));
    return v;
}

// Whether the latencies give the family no formula, so that the general
// index must answer: a dragonfly with local and global links (a > 1, g > 1)
// of different latencies.
bool needs_general(const Family& f, const LinkClasses& links) {
    u32 p = 0, a = 0, h = 0, g = 0;
    if (std::sscanf(f.spec().c_str(), "dragonfly --p %u --a %u --h %u --g %u", &p, &a, &h, &g) != 4)
        return false;
    return a > 1 && g > 1 &&
           to_picoseconds(links[LinkClass::Local].latency_ns) !=
               to_picoseconds(links[LinkClass::Global].latency_ns);
}

void check_family(const Family& f, std::mt19937_64& rng, u32 sample_sources) {
    for (const LinkClasses& links : scenarios(rng)) {
        const auto b = build_index(f, links);
        INFO(f.spec() << " with host " << links[LinkClass::HostSwitch].latency_ns << ", switch "
                      << links[LinkClass::SwitchSwitch].latency_ns << ", local "
                      << links[LinkClass::Local].latency_ns << ", global "
                      << links[LinkClass::Global].latency_ns << " ns");
        REQUIRE(b->index != nullptr);
        CHECK(b->index->kind() == DistanceIndexKind::ClosedForm);
        CHECK_THAT(b->index->description(), Contains("closed form (" + f.spec() + ")"));
        const bool general = needs_general(f, links);
        if (!general) CHECK(b->index->memory_bytes() < 4096);
        const bool sample = sample_sources != 0 && sample_sources < b->cluster.num_machines();
        compare(*b, sample ? sampled_machines(b->cluster, sample_sources, rng)
                           : all_machines(b->cluster));
        CHECK(b->general_calls == (general ? 1 : 0));
    }
}

std::vector<FamilyPtr> small_families() {
    std::vector<FamilyPtr> v;
    v.push_back(make_fat_tree(2, 1));
    v.push_back(make_fat_tree(2, 3));
    v.push_back(make_fat_tree(3, 2));
    v.push_back(make_fat_tree(4, 2));
    v.push_back(make_xgft({2, 3}, {1, 2}));
    v.push_back(make_xgft({2, 2, 2}, {2, 2, 1})); // dual-homed hosts
    v.push_back(make_xgft({3, 2}, {2, 3}));
    v.push_back(make_xgft({1, 3}, {2, 2}));
    v.push_back(make_xgft({3}, {3}));
    v.push_back(make_binary_tree(1));
    v.push_back(make_binary_tree(4));
    v.push_back(make_binary_tree(3, 1));
    v.push_back(make_binary_tree(4, 2));
    v.push_back(make_mesh({5}));
    v.push_back(make_mesh({3, 4}));
    v.push_back(make_mesh({2, 3, 2}, 2));
    v.push_back(make_mesh({1, 4}, 1));
    v.push_back(make_torus({5}));
    v.push_back(make_torus({2, 3}));
    v.push_back(make_torus({4, 3}));
    v.push_back(make_torus({3, 3, 2}, 2));
    v.push_back(make_torus({1, 6}, 1));
    v.push_back(make_hypercube(1));
    v.push_back(make_hypercube(4));
    v.push_back(make_hypercube(3, 2));
    v.push_back(make_dragonfly(1, 0, 0));    // a = 2, h = 1, g = 3
    v.push_back(make_dragonfly(2, 0, 0));    // a = 4, h = 2, g = 9
    v.push_back(make_dragonfly(1, 3, 1, 3)); // g < a*h+1
    v.push_back(make_dragonfly(1, 4, 3, 5)); // several links between two groups
    v.push_back(make_dragonfly(2, 4, 2, 5));
    v.push_back(make_dragonfly(1, 3, 2, 4));
    v.push_back(make_dragonfly(1, 1, 1, 2)); // one router per group: no local link
    v.push_back(make_dragonfly(2, 3, 2, 1)); // one group: no global link
    v.push_back(make_butterfly(2, 1));
    v.push_back(make_butterfly(2, 3));
    v.push_back(make_butterfly(3, 3));
    v.push_back(make_butterfly(2, 5));
    v.push_back(make_slimfly(3));
    v.push_back(make_slimfly(4, 1));
    v.push_back(make_slimfly(5, 1));
    v.push_back(make_complete(1));
    v.push_back(make_complete(5));
    v.push_back(make_complete(4, 3));
    v.push_back(make_ring(1));
    v.push_back(make_ring(2));
    v.push_back(make_ring(7));
    v.push_back(make_ring(6, 2));
    v.push_back(make_ring(2, 1));
    return v;
}

std::vector<FamilyPtr> mid_families() {
    std::vector<FamilyPtr> v;
    v.push_back(make_torus({16, 16, 8}));
    v.push_back(make_torus({6, 5, 4}, 3));
    v.push_back(make_mesh({12, 10, 3}));
    v.push_back(make_fat_tree(8, 3));
    v.push_back(make_xgft({4, 4, 3}, {2, 3, 2}));
    v.push_back(make_xgft({6, 4, 4}, {1, 6, 2}));
    v.push_back(make_hypercube(10));
    v.push_back(make_binary_tree(10, 2));
    v.push_back(make_dragonfly(4, 0, 0));     // a = 8, h = 4, g = 33
    v.push_back(make_dragonfly(3, 6, 3, 10)); // g < a*h+1
    v.push_back(make_dragonfly(2, 5, 4, 7));
    v.push_back(make_dragonfly(2, 8, 2, 4)); // many links between two groups
    v.push_back(make_butterfly(4, 4));
    v.push_back(make_butterfly(2, 8)); // where cuts inside the digits matter
    v.push_back(make_butterfly(2, 9));
    v.push_back(make_slimfly(5));
    v.push_back(make_slimfly(7));
    v.push_back(make_slimfly(8, 2));
    v.push_back(make_complete(40, 2));
    v.push_back(make_ring(300, 3));
    return v;
}

} // namespace

TEST_CASE("closed-form hops and latencies equal BFS and Dijkstra on every pair of small "
          "instances",
          "[closed-form]") {
    std::mt19937_64 rng(5);
    for (const FamilyPtr& f : small_families()) check_family(*f, rng, 0);
}

TEST_CASE("closed-form hops and latencies equal BFS and Dijkstra from sampled machines of "
          "mid-size instances",
          "[closed-form]") {
    std::mt19937_64 rng(7);
    for (const FamilyPtr& f : mid_families()) check_family(*f, rng, 16);
}

TEST_CASE("the dragonfly's shortest hops go through a third group where minimal routing "
          "does not",
          "[closed-form]") {
    // a = 4, h = 2, g = 9 (the balanced p = 2): minimal routing says 3 router
    // hops for some pairs that BFS joins in 2 through a third group.
    const FamilyPtr f = make_dragonfly(2, 0, 0);
    const auto b = build_index(*f, LinkClasses::uniform(1, 100));
    REQUIRE(b->index);
    u32 shorter = 0;
    for (u32 s = 0; s < b->cluster.num_machines(); ++s)
        for (u32 t = 0; t < b->cluster.num_machines(); ++t)
            shorter += b->index->hops(MachineId(s), MachineId(t)) < f->machine_hops(s, t);
    CHECK(shorter > 0);
}

TEST_CASE("family_from_spec reads back every family's spec", "[closed-form]") {
    std::vector<FamilyPtr> all = small_families();
    for (FamilyPtr& f : mid_families()) all.push_back(std::move(f));
    all.push_back(make_slimfly(9));
    all.push_back(make_slimfly(11, 3));
    all.push_back(make_dragonfly(3, 0, 1, 0));
    all.push_back(make_preset("tree-G"));
    all.push_back(make_preset("mesh3D"));
    for (const FamilyPtr& f : all) {
        INFO(f->spec());
        const FamilyPtr back = family_from_spec(f->spec());
        CHECK(back->spec() == f->spec());
        CHECK(back->num_machines() == f->num_machines());
        CHECK(back->num_switches() == f->num_switches());
        CHECK(back->num_links() == f->num_links());
        CHECK(back->diameter() == f->diameter());
    }
    // Defaults, other orders and spellings give the canonical text.
    CHECK(family_from_spec("dragonfly --p 2")->spec() == "dragonfly --p 2 --a 4 --h 2 --g 9");
    CHECK(family_from_spec("dragonfly --a 6 --p 3 --g 10 --h 3")->spec() ==
          make_dragonfly(3, 6, 3, 10)->spec());
    CHECK(family_from_spec("slimfly --q 5")->spec() == make_slimfly(5)->spec());
    CHECK(family_from_spec("  torus   --concentration=2 --dims 4x4 ")->spec() ==
          "torus --dims 4x4 --concentration 2");
    CHECK(family_from_spec("mesh --dims 4x4 --concentration 0")->spec() == "mesh --dims 4x4");
    CHECK(family_from_spec("fat-tree --xgft 2;4,4;1,4")->spec() == "fat-tree --xgft \"2;4,4;1,4\"");
    CHECK(family_from_spec("fat-tree --n 3 --k 4")->spec() == "fat-tree --k 4 --n 3");
    // Quoted as a shell would: single quotes too, as in cluster specs.
    CHECK(family_from_spec("fat-tree --xgft '2;4,4;1,4'")->spec() ==
          "fat-tree --xgft \"2;4,4;1,4\"");

    for (const char* bad :
         {"", "   ", "blob --x 1", "torus", "torus --dims", "torus --dims 4x0", "torus 4x4",
          "torus --dims 4x4 --dims 2", "torus --dims 4x4 --k 3", "ring --machines -3",
          "ring --machines 4 --concentration x", "fat-tree --k 4 --n 2 --xgft \"1;2;1\"",
          "fat-tree --xgft \"2;4,4;1,4", "fat-tree --xgft '2;4,4;1,4", "fat-tree --k 4",
          "slimfly --q 6", "dragonfly --p 1 --a 2 --h 1 --g 4", "hypercube --dim 40"}) {
        INFO("'" << bad << "'");
        CHECK_THROWS_AS(family_from_spec(bad), UsageError);
    }
}

TEST_CASE("a cluster records the family it was generated from", "[closed-form]") {
    const FamilyPtr f = make_torus({4, 4}, 2);
    const Cluster c = build(*f, LinkClasses::defaults());
    CHECK(c.family() == f->spec());
    GenerateOptions named;
    named.name = "other";
    CHECK(generate(*f, one_pu(), named).family() == f->spec());

    ClusterBuilder b("hand-made");
    const TypeId t = b.add_type(one_pu());
    b.add_machine("a", t);
    const Cluster plain = std::move(b).build();
    CHECK(plain.family().empty());
    CHECK(make_closed_form_index(plain, [] { return nullptr; }) == nullptr);
}

namespace {

using test::archive_text;

// An edited archive read back.
Cluster from_text(const std::string& text, const std::string& source = "edited.xml") {
    return test::from_archive_text(text, source);
}

// The archive of `c` with its links replaced by `links`, every line whole.
std::string with_links(const Cluster& c, const std::vector<Link>& links) {
    std::string text = archive_text(c);
    const std::size_t open = text.find("<links count=");
    const std::size_t body = text.find('>', open) + 1, close = text.find("</links>");
    std::string lines = "\n";
    for (const Link& l : links)
        lines += fmt::format("{} {} {} {} {}\n", l.a.value, l.b.value, l.latency_ns,
                             l.bandwidth_gbps, l.multiplicity);
    text.replace(body, close - body, lines);
    text.replace(open, body - open, fmt::format("<links count=\"{}\">", links.size()));
    return text;
}

std::unique_ptr<DistanceIndex> closed_form(const Cluster& c) {
    return make_closed_form_index(c, [&c] { return std::make_unique<SearchIndex>(c); });
}

} // namespace

TEST_CASE("an archive keeps the family; a closed form is built only while the network is "
          "still the family's",
          "[closed-form]") {
    const FamilyPtr f = make_torus({4, 4}, 2);
    LinkClasses links;
    links[LinkClass::HostSwitch] = {7, 100};
    links[LinkClass::SwitchSwitch] = {3, 200};
    const Cluster c = build(*f, links);
    const std::vector<Link> original(c.network().links().begin(), c.network().links().end());

    SECTION("saved and loaded") {
        test::TempDir dir("nettopo-closed-");
        save_archive(c, dir / "torus.xml");
        const Cluster back = load_cluster(dir / "torus.xml");
        CHECK(back.family() == f->spec());
        CHECK_THAT(archive_text(c), Contains("family=\"torus --dims 4x4 --concentration 2\""));
        const auto index = closed_form(back);
        REQUIRE(index);
        CHECK(index->latency_ps(MachineId(0), MachineId(31)) ==
              *NetworkSearch(back.network()).latency_ps(VertexId(0), VertexId(31)));
        // Routers 0 and 15, (0,0) and (3,3): two router hops round the torus.
        CHECK(index->latency_ps(MachineId(0), MachineId(31)) == 2 * 7000 + 2 * 3000);
    }
    SECTION("every link of a class given another latency: still the family") {
        std::vector<Link> l = original;
        for (Link& x : l)
            if (x.latency_ns == 7) x.latency_ns = 0.5;
        const Cluster edited = from_text(with_links(c, l));
        const auto index = closed_form(edited);
        REQUIRE(index);
        CHECK(index->latency_ps(MachineId(0), MachineId(31)) == 2 * 500 + 2 * 3000);
    }
    SECTION("one link's latency changed") {
        std::vector<Link> l = original;
        l[20].latency_ns += 1;
        CHECK(closed_form(from_text(with_links(c, l))) == nullptr);
    }
    SECTION("a latency changed below a picosecond is the same network for the searches") {
        std::vector<Link> l = original;
        l[20].latency_ns += 1e-6;
        CHECK(closed_form(from_text(with_links(c, l))) != nullptr);
    }
    SECTION("bandwidths and multiplicities do not matter to distances") {
        std::vector<Link> l = original;
        l[3].bandwidth_gbps = 12.5;
        l[4].multiplicity = 2;
        CHECK(closed_form(from_text(with_links(c, l))) != nullptr);
    }
    SECTION("a link removed") {
        std::vector<Link> l = original;
        l.erase(l.begin() + 40);
        CHECK(closed_form(from_text(with_links(c, l))) == nullptr);
    }
    SECTION("a link added") {
        std::vector<Link> l = original;
        l.push_back({VertexId(0), VertexId(1), 7, 100, 1});
        CHECK(closed_form(from_text(with_links(c, l))) == nullptr);
    }
    SECTION("a link moved: the same count") {
        std::vector<Link> l = original;
        l.back().b = VertexId(l.back().b.value == 32 ? 33 : 32);
        const bool duplicate = std::count_if(l.begin(), l.end(), [&](const Link& x) {
                                   return x.a == l.back().a && x.b == l.back().b;
                               }) > 1;
        REQUIRE_FALSE(duplicate);
        CHECK(closed_form(from_text(with_links(c, l))) == nullptr);
    }
    SECTION("the family text changed to another valid family of the same counts") {
        // A 4x4 torus is a 4-cube, numbered otherwise.
        const FamilyPtr torus = make_torus({4, 4});
        const Cluster t = build(*torus, links);
        std::string text = archive_text(t);
        const std::string from = "family=\"torus --dims 4x4\"", to = "family=\"hypercube --dim 4\"";
        REQUIRE(text.find(from) != std::string::npos);
        text.replace(text.find(from), from.size(), to);
        const Cluster edited = from_text(text);
        CHECK(edited.family() == "hypercube --dim 4");
        CHECK(closed_form(edited) == nullptr);
        CHECK(closed_form(t) != nullptr);
    }
    SECTION("a malformed or unknown family is an error naming the file and the line") {
        for (const char* bad : {"torus --dims 4xx4", "cube --n 3", "torus --dims 4x4 --p 2", "",
                                "dragonfly --p 1 --a 2 --h 1 --g 5"}) {
            INFO(bad);
            std::string text = archive_text(c);
            const std::string from = "family=\"" + f->spec() + "\"";
            text.replace(text.find(from), from.size(), fmt::format("family=\"{}\"", bad));
            try {
                from_text(text, "bad.xml");
                FAIL("accepted");
            } catch (const InputError& e) {
                CHECK(e.file() == "bad.xml");
                CHECK(e.line() == 2);
                CHECK_THAT(e.what(), Contains("family="));
            }
        }
    }
    SECTION("archives without a family, and version 1, still load") {
        std::string text = archive_text(c);
        const std::string from = " family=\"" + f->spec() + "\"";
        text.erase(text.find(from), from.size());
        const Cluster plain = from_text(text);
        CHECK(plain.family().empty());
        CHECK(closed_form(plain) == nullptr);
        std::string v1 = with_links(c, original);
        v1.replace(v1.find("version=\"2\""), 11, "version=\"1\"");
        CHECK(closed_form(from_text(v1)) != nullptr);
    }
}

TEST_CASE("the general index is built once, with the closed form, only where no formula "
          "gives latencies",
          "[closed-form]") {
    const FamilyPtr f = make_dragonfly(1, 3, 1, 3);
    LinkClasses links = LinkClasses::defaults(); // local 100, global 300
    const auto b = build_index(*f, links);
    REQUIRE(b->index);
    CHECK(b->general_calls == 1); // at build time: the index must not outlive the cluster
    CHECK(b->index->hops(MachineId(0), MachineId(5)) > 0);
    CHECK_THAT(b->index->description(), Contains("latencies from a"));
    b->index->latency_ps(MachineId(0), MachineId(5));
    b->index->latency_ps(MachineId(1), MachineId(7));
    CHECK(b->general_calls == 1);
    links[LinkClass::Global] = links[LinkClass::Local]; // one latency: the formula is exact
    CHECK(build_index(*f, links)->general_calls == 0);
}
