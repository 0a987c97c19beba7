// The description writer: read -> write -> read gives the same cluster (names,
// types, runs, links, every number exact, and the same archive bytes) on the
// examples, the golden inputs, random clusters and clusters full of name runs;
// what the format cannot hold is refused with UsageError before any output.
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/description_text.hpp"
#include "testkit/random_cluster.hpp"
#include "testkit/ranged_description.hpp"
#include "testkit/real_data.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

Cluster parse(const std::string& text, const std::string& source = "written.topo") {
    return test::from_description_text(text, source);
}

std::string written(const Cluster& c) {
    return test::description_text(c);
}

using test::archive_text;

void require_same_cluster(const Cluster& x, const Cluster& y) {
    REQUIRE(x.name() == y.name());
    REQUIRE(x.num_machines() == y.num_machines());
    REQUIRE(x.num_switches() == y.num_switches());
    REQUIRE(x.num_pes() == y.num_pes());
    REQUIRE(x.num_nodes() == y.num_nodes());
    REQUIRE(x.num_types() == y.num_types());
    for (std::uint32_t t = 0; t < x.num_types(); ++t) {
        INFO("type " << t);
        CHECK(x.type(TypeId(t)).signature() == y.type(TypeId(t)).signature());
    }
    const auto rx = x.runs(), ry = y.runs();
    REQUIRE(rx.size() == ry.size());
    for (std::size_t i = 0; i < rx.size(); ++i) {
        INFO("run " << i);
        CHECK(rx[i].first_machine == ry[i].first_machine);
        CHECK(rx[i].first_pe == ry[i].first_pe);
        CHECK(rx[i].first_node == ry[i].first_node);
        CHECK(rx[i].type == ry[i].type);
    }
    for (std::uint32_t m = 0; m < x.num_machines(); ++m)
        if (x.machine_name(MachineId(m)) != y.machine_name(MachineId(m))) {
            INFO("machine " << m);
            CHECK(x.machine_name(MachineId(m)) == y.machine_name(MachineId(m)));
        }
    for (std::uint32_t s = 0; s < x.num_switches(); ++s)
        CHECK(x.switch_name(SwitchId(s)) == y.switch_name(SwitchId(s)));
    for (std::uint32_t m = 0; m < x.num_machines(); ++m)
        if (x.network().forwards(VertexId(m)) != y.network().forwards(VertexId(m))) {
            INFO("machine " << m);
            CHECK(x.network().forwards(VertexId(m)) == y.network().forwards(VertexId(m)));
        }
    const auto lx = x.network().links(), ly = y.network().links();
    REQUIRE(lx.size() == ly.size());
    for (std::size_t i = 0; i < lx.size(); ++i) {
        if (lx[i] == ly[i]) continue;
        INFO("link " << i);
        CHECK(lx[i].a == ly[i].a);
        CHECK(lx[i].b == ly[i].b);
        CHECK(lx[i].latency_ns == ly[i].latency_ns);
        CHECK(lx[i].bandwidth_gbps == ly[i].bandwidth_gbps);
        CHECK(lx[i].multiplicity == ly[i].multiplicity);
    }
    CHECK(archive_text(x) == archive_text(y));
}

// Writes x, reads it back, checks equality; returns the text written.
std::string round_trip(const Cluster& x) {
    const std::string text = written(x);
    INFO(text);
    const Cluster y = parse(text);
    require_same_cluster(x, y);
    CHECK(written(y) == text); // deterministic, and a fixed point
    return text;
}

std::vector<fs::path> topo_files(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".topo") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::size_t count_lines(const std::string& text, std::string_view start) {
    std::size_t n = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) n += line.starts_with(start);
    return n;
}

using test::ranged_description;

MachineType synthetic_type(const std::string& desc, const std::string& tree_desc,
                           LevelLatencies lat = LevelLatencies::defaults(), NodeLevel node = {}) {
    return MachineType(desc, tree_from_synthetic(tree_desc), node, lat);
}

// Builds a two-machine cluster from the given parts; throws what writing it throws.
Cluster two_machines(MachineType type, const std::string& name_a = "a",
                     const std::string& switch_name = "sw") {
    ClusterBuilder b("two");
    const TypeId t = b.add_type(std::move(type));
    b.add_machine(name_a, t);
    b.add_machine("b", t);
    b.add_switch(switch_name);
    b.add_link({false, 0}, {true, 0}, 1);
    b.add_link({false, 1}, {true, 0}, 1);
    return std::move(b).build();
}

struct CountingProgress final : Progress {
    std::uint64_t updates = 0, last_done = 0, total = 0;
    std::string stage;
    void update(std::string_view s, std::uint64_t done, std::uint64_t t) override {
        ++updates;
        stage = s;
        last_done = done;
        total = t;
    }
    void finish() override {}
};

void require_refused(const Cluster& c, const std::string& needle) {
    std::ostringstream out;
    try {
        write_description(c, out);
        FAIL("written:\n" << out.str());
    } catch (const UsageError& e) {
        CHECK_THAT(e.what(), Contains(needle));
    }
    CHECK(out.str().empty()); // refused before the first byte
}

} // namespace

TEST_CASE("description writer: the examples and golden inputs round-trip", "[description-writer]") {
    std::vector<fs::path> files = topo_files(NETTOPO_SOURCE_DIR "/share/examples");
    for (const fs::path& p : topo_files(NETTOPO_SOURCE_DIR "/tests/golden/inputs"))
        files.push_back(p);
    REQUIRE(files.size() >= 9);
    for (const fs::path& p : files) {
        INFO(p.string());
        std::ifstream in(p);
        REQUIRE(in);
        LoadOptions o;
        o.build.allow_disconnected = true;
        const Cluster x = read_description(in, p.string(), o);
        round_trip(x);
    }
}

TEST_CASE("description writer: the examples' runs are written as ranges", "[description-writer]") {
    std::ifstream in(NETTOPO_SOURCE_DIR "/share/examples/small-fattree.topo");
    const std::string text = written(read_description(in, "small-fattree.topo"));
    CHECK_THAT(text, Contains("name small-fattree\n"));
    CHECK_THAT(text, Contains("\nmachines node[01-16] pack:2 l3:1 core:8 pu:2\n"));
    CHECK_THAT(text, Contains("\nswitch spine0\n"));
    CHECK_THAT(text, Contains("\nlink node01 leaf0 150 bandwidth=200\n"));
    CHECK_THAT(text, Contains("\nlink spine0 leaf0 300 bandwidth=200 count=2\n"));
    CHECK(count_lines(text, "machine") == 1);

    std::istringstream options("name options\n"
                               "machine big pack:2 l3:1 core:4 pu:2 node=package lat.l3=35 "
                               "lat.machine=150\n"
                               "machine fat pack:1 l3:2 core:4 pu:1 lat.l3=100 lat.core=5\n"
                               "link big fat 1000 bandwidth=0.5\n");
    const std::string o = written(read_description(options, "o.topo"));
    // Only the latencies that differ from the defaults, in level order.
    CHECK(o == "name options\n"
               "machine big pack:2 l3:1 core:4 pu:2 node=pack lat.machine=150 lat.l3=35\n"
               "machine fat pack:1 l3:2 core:4 pu:1 lat.l3=100\n"
               "link big fat 1000 bandwidth=0.5\n");
}

TEST_CASE("description writer: 60 random clusters round-trip", "[description-writer]") {
    std::mt19937_64 rng(0xdec0de);
    for (int i = 0; i < 60; ++i) {
        INFO("cluster #" << i);
        test::RandomOptions o;
        o.allow_disconnected = i % 3 == 2;
        o.end_host_share = i % 4 == 1 ? 0.5 : 0; // machines marked forwards=no
        const test::ClusterSpec spec = test::random_cluster(rng, o);
        INFO(spec.description());
        round_trip(parse(spec.description(), "random.topo"));
    }
}

TEST_CASE("description writer: name runs, type changes and exact numbers", "[description-writer]") {
    std::mt19937_64 rng(0x7e57);
    for (int i = 0; i < 30; ++i) {
        INFO("cluster #" << i);
        const std::string source = ranged_description(rng);
        INFO(source);
        const Cluster x = parse(source);
        const std::string text = round_trip(x);
        // Names that do not continue a run stay on lines of their own.
        for (const char* n :
             {"a", "n07", "n8", "x10", "x010", "w5", "w7", "w6", "b[1", "b[2", "c]1", "c]2"})
            CHECK_THAT(text, Contains(fmt::format("\nmachine {} ", n)));
        CHECK_THAT(text, !Contains("1e") && !Contains("e-")); // no exponents
        // node001..node120: one range per type run.
        std::size_t node_runs = 1;
        for (std::uint32_t m = 1; m < 120; ++m)
            node_runs += x.type_of(MachineId(m)) != x.type_of(MachineId(m - 1));
        std::size_t node_lines = 0;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            node_lines += line.starts_with("machines node[") || line.starts_with("machine node");
        CHECK(node_lines == node_runs);
        if (node_runs == 1) CHECK_THAT(text, Contains("\nmachines node[001-120] "));
    }
}

TEST_CASE("description writer: ranges keep the reader's zero padding", "[description-writer]") {
    const Cluster x = parse("machines y[9-11] core:1 pu:1\n"
                            "machines z[099-101] core:1 pu:1\n"
                            "machines q[00-01] core:1 pu:1\n"
                            "machines v[0-1] core:1 pu:1\n"
                            "machines [11-13] core:1 pu:1\n"
                            "machines h10[123456789012345670-123456789012345671] core:1 pu:1\n"
                            "machine r-1 core:1 pu:1\n"
                            "machine r-2 core:1 pu:1\n"
                            "switch s\n"
                            "link y9 s 1\n");
    const std::string text = round_trip(x);
    CHECK(text == "name written\n"
                  "machines y[9-11] core:1 pu:1\n"
                  "machines z[099-101] core:1 pu:1\n"
                  "machines q[00-01] core:1 pu:1\n"
                  "machines v[0-1] core:1 pu:1\n"
                  "machines [11-13] core:1 pu:1\n"
                  "machines h10[123456789012345670-123456789012345671] core:1 pu:1\n"
                  "machines r-[1-2] core:1 pu:1\n"
                  "switch s\n"
                  "link y9 s 1\n");
}

TEST_CASE("description writer: numbers are plain decimals that read back exactly",
          "[description-writer]") {
    const Cluster x = parse("machine a core:1 pu:1 lat.machine=0.1 lat.core=1e-3\n"
                            "machine b core:1 pu:1\n"
                            "machine c core:1 pu:1\n"
                            "machine d core:1 pu:1\n"
                            "link a b 2.5e-07 bandwidth=1e20\n"
                            "link b c 123456.789 bandwidth=0.1 count=4294967294\n"
                            "link c d 0\n"
                            "link a d 1000000000 bandwidth=3e-9\n");
    const std::string text = round_trip(x);
    CHECK_THAT(text, Contains("lat.machine=0.1 lat.core=0.001\n"));
    CHECK_THAT(text, Contains("\nlink a b 0.00000025 bandwidth=100000000000000000000\n"));
    CHECK_THAT(text, Contains("\nlink a d 1000000000 bandwidth=0.000000003\n"));
    CHECK_THAT(text, Contains("\nlink b c 123456.789 bandwidth=0.1 count=4294967294\n"));
    CHECK_THAT(text, Contains("\nlink c d 0\n"));
}

TEST_CASE("description writer: a cluster from an archive writes as its description",
          "[description-writer]") {
    std::mt19937_64 rng(99);
    const Cluster x = parse(ranged_description(rng));
    std::istringstream archive(archive_text(x));
    const Cluster y = read_archive(archive, "x.xml");
    CHECK(written(y) == written(x));
}

TEST_CASE("description writer: types are numbered in order of first use", "[description-writer]") {
    ClusterBuilder b("order");
    const TypeId unused = b.add_type(synthetic_type("pack:4 core:1 pu:1", "pack:4 core:1 pu:1"));
    const TypeId second = b.add_type(synthetic_type("core:2 pu:1", "core:2 pu:1"));
    const TypeId first = b.add_type(synthetic_type("core:1 pu:1", "core:1 pu:1"));
    REQUIRE(unused.value == 0);
    b.add_machine("m1", first);
    b.add_machine("m2", second);
    b.add_machine("m3", first);
    b.add_link({false, 0}, {false, 1}, 1);
    b.add_link({false, 1}, {false, 2}, 1);
    const Cluster x = std::move(b).build();
    const std::string text = written(x);
    CHECK(text == "name order\n"
                  "machine m1 core:1 pu:1\n"
                  "machine m2 core:2 pu:1\n"
                  "machine m3 core:1 pu:1\n"
                  "link m1 m2 1\n"
                  "link m2 m3 1\n");
    const Cluster y = parse(text);
    REQUIRE(y.num_types() == 2);
    for (std::uint32_t m = 0; m < 3; ++m)
        CHECK(x.machine_type(MachineId(m)).signature() == y.machine_type(MachineId(m)).signature());
    CHECK(written(y) == text);
}

TEST_CASE("description writer: progress is reported on the links", "[description-writer]") {
    std::string text = "machines n[1-150000] core:1 pu:1\nswitch s\n";
    for (int i = 1; i <= 150000; ++i) text += fmt::format("link n{} s {}\n", i, i / 1000.0);
    const Cluster x = parse(text);
    CountingProgress progress;
    std::ostringstream out;
    write_description(x, out, &progress);
    CHECK(progress.updates >= 3);
    CHECK(progress.stage == "writing the links");
    CHECK(progress.total == 150000);
    CHECK(progress.last_done <= 150000);
    CHECK(count_lines(out.str(), "link ") == 150000);
    CHECK(count_lines(out.str(), "machines n[1-150000] ") == 1);
    require_same_cluster(x, parse(out.str()));
}

TEST_CASE("description writer: machines from hwloc XML are refused", "[description-writer]") {
    const std::vector<std::string> xmls = test::real_xmls();
    REQUIRE_FALSE(xmls.empty());
    const Cluster x = load_cluster(xmls.front());
    require_refused(x, "synthetic");
    require_refused(x, "write an archive instead");
    require_refused(x, fs::path(xmls.front()).filename().string());
    // Also once archived: the type still comes from the XML file.
    std::istringstream archive(archive_text(x));
    require_refused(read_archive(archive, "x.xml"), "synthetic");
}

TEST_CASE("description writer: what the format cannot hold is refused", "[description-writer]") {
    // A synthetic description of another tree, or written with other spacing.
    require_refused(two_machines(synthetic_type("pack:2 core:2 pu:1", "pack:1 core:2 pu:1")),
                    "not an hwloc synthetic description");
    require_refused(two_machines(synthetic_type("pack:1  core:2 pu:1", "pack:1 core:2 pu:1")),
                    "synthetic");
    require_refused(two_machines(synthetic_type(" core:1 pu:1", "core:1 pu:1")), "synthetic");
    require_refused(two_machines(synthetic_type("core:1 pu:1 # x", "core:1 pu:1")), "synthetic");
    // A latency the reader has no option for, or would refuse.
    LevelLatencies memory = LevelLatencies::defaults();
    memory[ObjectType::NUMANode] = 5;
    require_refused(two_machines(synthetic_type("core:1 pu:1", "core:1 pu:1", memory)), "NUMANode");
    LevelLatencies negative = LevelLatencies::defaults();
    negative[ObjectType::Core] = -1;
    require_refused(two_machines(synthetic_type("core:1 pu:1", "core:1 pu:1", negative)),
                    "latency -1");
    // Names that are not single tokens.
    const MachineType ok = synthetic_type("core:1 pu:1", "core:1 pu:1");
    require_refused(two_machines(ok, "a b"), "machine name 'a b'");
    require_refused(two_machines(ok, "a#1"), "machine name 'a#1'");
    require_refused(two_machines(ok, "a", "s w"), "switch name 's w'");
    // Tabs and newlines are control characters, which no cluster holds
    // (support/detail/name_rules.hpp): refused when the cluster is built.
    CHECK_THROWS_WITH(two_machines(ok, "a\tb"), Contains("holds the control character U+0009"));
    CHECK_THROWS_WITH(two_machines(ok, "a", "s\n"), Contains("holds the control character"));
    // Cluster names that would not read back the same.
    for (const char* name : {"two  spaces", " lead", "trail ", "a # b"}) {
        Cluster c = two_machines(ok);
        c.set_name(name);
        require_refused(c, "cluster name");
    }
    for (const char* name : {"tab\there", "line\nbreak"}) {
        Cluster c = two_machines(ok);
        CHECK_THROWS_WITH(c.set_name(name), Contains("holds the control character"));
    }
    // Still fine: one-word and several-word names, odd characters in tokens.
    Cluster c = two_machines(ok, "a&b[1]", "s=w");
    c.set_name("my cluster (v2) & co");
    const std::string text = round_trip(c);
    CHECK_THAT(text, Contains("name my cluster (v2) & co\n"));
    CHECK_THAT(text, Contains("\nmachine a&b[1] core:1 pu:1\n"));
}

TEST_CASE("description writer: a cluster without a name writes no name line",
          "[description-writer]") {
    std::istringstream in("machine a core:1 pu:1\n");
    const Cluster x = read_description(in, "<stdin>");
    REQUIRE(x.name().empty());
    const std::string text = written(x);
    CHECK(text == "machine a core:1 pu:1\n");
    std::istringstream back(text);
    require_same_cluster(x, read_description(back, "<stdin>"));
}
