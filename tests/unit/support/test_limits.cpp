// The declared limits (support/limits.hpp, share/doc/limits.md): each at the
// limit and at limit + 1, and issue 15's amplification findings (D3, A2, S1,
// G1, G2) refused at once.
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"
#include "nettopo/support/limits.hpp"
#include "nettopo/tree/machine_tree.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

const std::string data = NETTOPO_TEST_DATA "/limits/";

Limits vertices_at_most(std::uint64_t n) {
    Limits limits;
    limits.max_vertices = n;
    return limits;
}

// What `f` throws, as an InputError; fails the test if nothing is thrown.
template <class F> InputError input_error(F f) {
    try {
        f();
    } catch (const InputError& e) {
        return e;
    }
    FAIL("no InputError");
    throw std::logic_error("unreachable");
}

template <class F> double seconds(F f) {
    const auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Cluster description(const std::string& text, const Limits& limits) {
    std::istringstream in(text);
    LoadOptions options;
    options.build.limits = limits;
    options.build.allow_disconnected = true;
    return read_description(in, "t.topo", options);
}

Fabric slurm(const std::string& text, const Limits& limits) {
    std::istringstream in(text);
    return read_slurm_topology(in, "t.conf", limits);
}

} // namespace

TEST_CASE("require_within_limit: at the limit, and one past it", "[limits]") {
    CHECK_NOTHROW(require_within_limit(7, 7, "things", Remedy::raise_vertex_limit));
    const InputError e =
        input_error([] { require_within_limit(8, 7, "things", Remedy::raise_link_limit); });
    CHECK(std::string(e.what()) == "things: 8, more than the limit of 7");
    CHECK(e.remedy() == Remedy::raise_link_limit);
    CHECK(saturating_add(~0ull, 1) == ~0ull);
    CHECK(saturating_mul(~0ull, 2) == ~0ull);
    CHECK(saturating_mul(0, ~0ull) == 0);
}

TEST_CASE("the defaults: 2^22 machines and switches, the 10^6 x 32-PE torus fits", "[limits]") {
    const Limits limits;
    CHECK(limits.max_vertices == 4194304);
    CHECK(max_pes == 4294967294u);
    const auto torus = family_from_spec("torus --dims 100x100x100");
    CHECK(torus->num_machines() + torus->num_switches() <= limits.max_vertices);
    CHECK(torus->num_links() <= limits.max_links);
    CHECK(estimated_generation_bytes(*torus) <= limits.max_generated_bytes);
    CHECK(torus->num_machines() * 32 <= max_pes);
}

TEST_CASE("ClusterBuilder holds machines + switches and links to its limits", "[limits]") {
    ClusterBuilder b("t");
    Limits limits = vertices_at_most(3);
    limits.max_links = 2;
    b.set_limits(limits);
    const TypeId t = b.add_type(synthetic_machine("pu:1", {}));
    b.add_machine("a", t);
    b.add_machine("b", t);
    b.add_switch("s"); // 3: at the limit
    CHECK_NOTHROW(b.require_room_for_vertices(0));
    const InputError e = input_error([&] { b.add_switch("s2"); });
    CHECK_THAT(e.what(), Contains("machines and switches: 4, more than the limit of 3"));
    CHECK(e.remedy() == Remedy::raise_vertex_limit);
    CHECK_THROWS_AS(b.add_machine("c", t), InputError);
    b.add_link({false, 0}, {true, 0}, 1);
    b.add_link({false, 1}, {true, 0}, 1); // 2: at the limit
    const InputError l = input_error([&] { b.add_link({false, 0}, {false, 1}, 1); });
    CHECK_THAT(l.what(), Contains("links: 3, more than the limit of 2"));
    CHECK(l.remedy() == Remedy::raise_link_limit);
    CHECK(std::move(b).build().num_machines() == 2);
}

TEST_CASE("description: a machine range is held to the limit before it is expanded [D3]",
          "[limits]") {
    CHECK(description("machines n[0-3] pu:1\n", vertices_at_most(4)).num_machines() == 4);
    const InputError e =
        input_error([] { description("switch s\nmachines n[0-3] pu:1\n", vertices_at_most(4)); });
    CHECK(std::string(e.what()) == "t.topo:2: machines and switches: 5, more than the limit of 4");
    CHECK(e.remedy() == Remedy::raise_vertex_limit);
    // Finding D3: 30 bytes naming 4,294,967,294 machines ran 141 s to 7.2 GB.
    LoadOptions options;
    const double s = seconds([&] {
        const InputError d3 =
            input_error([&] { load_cluster(data + "d3-huge-machine-range.topo", options); });
        CHECK_THAT(d3.what(),
                   Contains("d3-huge-machine-range.topo:1: machines and switches: 4294967294"));
    });
    CHECK(s < 1);
}

TEST_CASE("archive: the declared counts are held to the limits before a name is read [A2]",
          "[limits]") {
    const test::TempDir dir("nettopo-limits-test-");
    auto archive = [&](unsigned switches, unsigned links) {
        std::ostringstream text;
        text << "<nettopo version=\"2\" name=\"x\"><types count=\"1\"><type id=\"0\" "
                "description=\"pu:1\" node-request=\"auto\" node-level=\"PU\"><latencies "
                "Machine=\"120\" Package=\"80\" Die=\"60\" "
                "Group=\"90\" L5=\"60\" L4=\"55\" L3=\"40\" L2=\"20\" L1=\"10\" L3i=\"40\" "
                "L2i=\"20\" L1i=\"10\" Core=\"5\" PU=\"0\"/><object "
                "type=\"Machine\" os=\"0\"><object type=\"PU\" os=\"0\"/></object></type>"
                "</types><machines count=\"1\"><machine name=\"a\" type=\"0\"/></machines>"
             << "<switches count=\"" << switches << "\"><switches prefix=\"s\" first=\"0\" count=\""
             << switches << "\" width=\"0\"/></switches><links count=\"" << links << "\">\n";
        for (unsigned i = 0; i < links; ++i) text << "0 " << i + 1 << " 4 0 1\n";
        text << "</links></nettopo>\n";
        const std::string path = (dir.path / "a.xml").string();
        std::ofstream(path) << text.str();
        return path;
    };
    LoadOptions options;
    options.build.limits = vertices_at_most(3);
    options.build.limits.max_links = 2;
    CHECK(load_cluster(archive(2, 2), options).num_switches() == 2); // at both limits
    const InputError v = input_error([&] { load_cluster(archive(3, 2), options); });
    CHECK_THAT(v.what(), Contains("a.xml:1: machines and switches: 4, more than the limit of 3"));
    CHECK(v.remedy() == Remedy::raise_vertex_limit);
    const InputError l = input_error([&] { load_cluster(archive(2, 3), options); });
    CHECK_THAT(l.what(), Contains("links: 3, more than the limit of 2"));
    CHECK(l.remedy() == Remedy::raise_link_limit);
    // read_archive on a stream takes the same options (a program reading
    // archives it did not write, the fuzz targets), and by default the defaults.
    auto read = [](const std::string& path, const LoadOptions& o) {
        std::ifstream in(path);
        return read_archive(in, "stream.xml", o);
    };
    CHECK(read(archive(2, 2), options).num_switches() == 2);
    CHECK_THAT(input_error([&] { read(archive(3, 2), options); }).what(),
               Contains("stream.xml:1: machines and switches: 4, more than the limit of 3"));
    CHECK_THAT(input_error([&] { read(archive(2, 3), options); }).what(),
               Contains("stream.xml:1: links: 3, more than the limit of 2"));
    std::ifstream in(archive(3, 2));
    CHECK(read_archive(in, "stream.xml").num_switches() == 3);
    // Finding A2: a run of 4,294,967,294 switches ran 21.6 s to 3.5 GB.
    const double s = seconds([&] {
        const InputError a2 =
            input_error([&] { load_cluster(data + "a2-huge-switch-run.xml", LoadOptions{}); });
        CHECK_THAT(a2.what(), Contains("a2-huge-switch-run.xml:10: machines and switches: "
                                       "4294967295, more than the limit of 4194304"));
    });
    CHECK(s < 1);
}

TEST_CASE("count_hostlist counts what expand_hostlist expands, without expanding", "[limits]") {
    for (const char* e : {"tux[0-3,12,18-20]", "a,b,rack[1-2]n[1-2]", "node[01-04] x", "", "a"})
        CHECK(count_hostlist(e) == expand_hostlist(e).size());
    CHECK(count_hostlist("n[0-16777215]") == 16777216);
    CHECK(count_hostlist("n[0-999999999999999999]m[0-999999999999999999]") == ~0ull);
    CHECK_THROWS_AS(count_hostlist("n[1-0]"), InputError);
}

TEST_CASE("Slurm topology: the names of one file's hostlists are held to the limit [S1]",
          "[limits]") {
    // Per file, not per expression: two lines of 2 and 2 names reach 4.
    const std::string at = "SwitchName=s0 Nodes=n[0-1]\nSwitchName=s1 Nodes=m[0-1]\n"
                           "SwitchName=top Switches=s[0-1]\n";
    CHECK(slurm(at, vertices_at_most(6)).nodes.size() == 7);
    const InputError e = input_error([&] { slurm(at, vertices_at_most(5)); });
    CHECK(std::string(e.what()) ==
          "t.conf:3: names in this file's hostlists: 6, more than the limit of 5");
    CHECK(e.remedy() == Remedy::raise_vertex_limit);
    const std::string yaml = "- topology: t\n  cluster_default: true\n  tree:\n    switches:\n"
                             "      - switch: s0\n        nodes: n[0-4]\n";
    CHECK(slurm(yaml, vertices_at_most(5)).nodes.size() == 6);
    CHECK_THROWS_AS(slurm(yaml, vertices_at_most(4)), InputError);
    // Finding S1: 34 bytes naming 2^24 hosts ran 74 s to 6 GB.
    const double s = seconds([&] {
        std::ifstream in(data + "s1-hostlist-16M-names.conf");
        const InputError s1 = input_error([&] { read_slurm_topology(in, "s1.conf"); });
        CHECK(std::string(s1.what()) == "s1.conf:1: names in this file's hostlists: 16777216, "
                                        "more than the limit of 4194304");
    });
    CHECK(s < 1);
}

TEST_CASE("generate: sizes and the memory estimate refused before anything is built [G1]",
          "[limits]") {
    const MachineType pu = synthetic_machine("pu:1", {});
    const auto ring = family_from_spec("ring --machines 16");
    GenerateOptions options;
    options.limits.max_vertices = 16;
    options.limits.max_links = 16;
    options.limits.max_generated_bytes = estimated_generation_bytes(*ring);
    CHECK(generate(*ring, pu, options).num_machines() == 16); // at every limit
    for (int which = 0; which < 3; ++which) {
        GenerateOptions past = options;
        (which == 0   ? past.limits.max_vertices
         : which == 1 ? past.limits.max_links
                      : past.limits.max_generated_bytes) -= 1;
        try {
            generate(*ring, pu, past);
            FAIL("not refused");
        } catch (const UsageError& e) {
            CHECK(e.remedy() == (which == 0   ? Remedy::raise_vertex_limit
                                 : which == 1 ? Remedy::raise_link_limit
                                              : Remedy::force_generation));
        }
    }
    // Finding G1: each fitted the ids, then ran out of memory after seconds.
    GenerateOptions raised;
    raised.limits = Limits::ids_only();
    raised.limits.max_generated_bytes = default_max_generated_bytes;
    for (const char* spec :
         {"butterfly --k 2 --n 26", "fat-tree --k 2 --n 22", "mesh --dims 100000000",
          "torus --dims 400x400x400", "hypercube --dim 24", "complete --machines 30000"}) {
        INFO(spec);
        const auto family = family_from_spec(spec);
        CHECK_THROWS_AS(generate(*family, pu, GenerateOptions{}), UsageError);
        try {
            generate(*family, pu, raised);
            FAIL("not refused");
        } catch (const UsageError& e) {
            CHECK(e.remedy() == Remedy::force_generation);
            CHECK_THAT(e.what(), Contains("bytes of memory estimated"));
        }
    }
}

TEST_CASE("latency sums: exact up to INT64_MAX ps, refused past it [G2]", "[limits]") {
    constexpr std::int64_t max = max_latency_sum_ps;
    CHECK(latency_sum_ps(1, max, 0) == max);
    CHECK(!latency_sum_ps(1, max, 1));
    CHECK(latency_sum_ps(2, max / 2, 1) == max); // max is odd
    CHECK(!latency_sum_ps(2, max / 2 + 1, 0));
    CHECK(latency_sum_ps(0, max, max) == max);
    CHECK(latency_sum_ps(~0ull, 0, 5) == 5);
    // Finding G2: the closed form of a 9.3 M-hop path of 1 s links overflowed
    // int64 (undefined behaviour). 1 s = 10^12 ps: 9,223,372 hops fit.
    ClassLatenciesPs second{};
    second.fill(1'000'000'000'000);
    const auto fits = family_from_spec("mesh --dims 9223373");
    REQUIRE(fits->diameter() == 9223372);
    CHECK(fits->has_latency_formula(second));
    CHECK(fits->machine_latency_ps(0, 9223372, second) ==
          9223372 * std::int64_t{1'000'000'000'000});
    const auto past = family_from_spec("mesh --dims 9223374");
    CHECK(!past->has_latency_formula(second));
    CHECK(past->machine_latency_ps(0, 9223373, second) == -1);
    const auto g2 = family_from_spec("mesh --dims 9300000");
    CHECK(g2->machine_latency_ps(0, 9299999, second) == -1);
}

TEST_CASE("nesting: a machine tree max_nesting_depth deep is accepted, one deeper refused",
          "[limits]") {
    // Depth counts the ancestors: the root is at 0, so depth 64 is 65 levels.
    auto tree_of_depth = [](std::uint32_t depth) {
        MachineTree::Builder b;
        ObjectId parent = b.add(ObjectType::Machine, ObjectId());
        for (std::uint32_t d = 1; d < depth; ++d) parent = b.add(ObjectType::Group, parent);
        b.add(ObjectType::PU, parent, 0);
    };
    CHECK_NOTHROW(tree_of_depth(max_nesting_depth));
    const InputError e = input_error([&] { tree_of_depth(max_nesting_depth + 1); });
    CHECK_THAT(e.what(), Contains("machine tree deeper than 64 levels"));
}
