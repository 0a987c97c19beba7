// The benchmark harness: summaries, the three report forms and the plot are
// checked on known values; the runs themselves on the thesis' small presets
// with --verify (every timed answer checked against its slow twin), and the
// slow twin of the distance index is shown to catch a wrong index.
#include "nettopo-bench/bench_report.hpp"
#include "nettopo-bench/bench_runs.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "testkit/random_cluster.hpp"

#include <catch2/catch.hpp>
#include <pugixml.hpp>
#include <random>
#include <set>
#include <sstream>

using namespace nettopo;
using namespace nettopo::bench;

namespace {

Measurement measurement(std::string op, std::string input, std::uint64_t machines,
                        std::vector<double> ns, std::string note = "") {
    Measurement m;
    m.operation = std::move(op);
    m.input = std::move(input);
    m.machines = machines;
    m.items = 1;
    m.ns_per_item = std::move(ns);
    m.note = std::move(note);
    return m;
}

Header test_header() {
    return {
        "nettopo-bench test", {{"repetitions", std::uint64_t{3}}}, {{"cpu", std::string("test")}}};
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto i = text.find(what); i != std::string::npos; i = text.find(what, i + 1)) ++n;
    return n;
}

// Pairs of distinct machines at most 2 links apart, from the adjacency alone.
std::uint64_t two_hop_pairs_from(const Cluster& c, std::uint32_t source) {
    const Network& net = c.network();
    std::set<std::uint32_t> near;
    for (VertexId v : net.neighbors(VertexId(source))) {
        near.insert(v.value);
        for (VertexId w : net.neighbors(v)) near.insert(w.value);
    }
    near.erase(source);
    return static_cast<std::uint64_t>(std::count_if(
        near.begin(), near.end(), [&](std::uint32_t v) { return v < c.num_machines(); }));
}

// An index that is right everywhere but one pair.
class OffByOne final : public DistanceIndex {
public:
    OffByOne(std::unique_ptr<DistanceIndex> good, MachineId a, MachineId b)
        : good_(std::move(good)), a_(a), b_(b) {}
    std::string description() const override { return "off by one"; }
    DistanceIndexKind kind() const override { return good_->kind(); }
    std::size_t memory_bytes() const override { return 0; }
    std::uint32_t hops(MachineId a, MachineId b) const override { return good_->hops(a, b); }
    std::int64_t latency_ps(MachineId a, MachineId b) const override {
        return good_->latency_ps(a, b) + (a == a_ && b == b_ ? 1 : 0);
    }

private:
    std::unique_ptr<DistanceIndex> good_;
    MachineId a_, b_;
};

} // namespace

TEST_CASE("bench: summaries are the median and the extremes", "[bench-harness]") {
    CHECK(summarize({}).median == 0);
    const Summary odd = summarize({5, 1, 3});
    CHECK(odd.median == 3);
    CHECK(odd.min == 1);
    CHECK(odd.max == 5);
    CHECK(summarize({4, 1, 3, 2}).median == 2.5);
    CHECK(format_duration(12.34) == "12.3 ns");
    CHECK(format_duration(4560) == "4.56 µs");
    CHECK(format_duration(7.89e6) == "7.89 ms");
    CHECK(format_duration(1.5e9) == "1.5 s");
    CHECK(format_duration(999.7e3) == "1 ms"); // not "1e+03 µs"
    CHECK(format_duration(999.4) == "999 ns");
}

TEST_CASE("bench: table, CSV and JSON carry the header and every measurement", "[bench-harness]") {
    const std::vector<Measurement> ms = {
        measurement("load", "tree-G", 1023, {3000, 1000, 2000}, "a note, with \"quotes\""),
        measurement("hops II", "mesh3D", 512, {10, 20})};
    std::ostringstream table, csv, json;
    write_table(table, test_header(), ms);
    write_csv(csv, test_header(), ms);
    write_json(json, test_header(), ms);

    CHECK(table.str().starts_with("# nettopo-bench test\n# parameters: repetitions=3\n"));
    CHECK(table.str().find("2 µs") != std::string::npos); // median of the first row
    CHECK(count(table.str(), "\n") == 3 + 1 + 2);

    // Plain CSV: the heading first; the header's # lines only when asked.
    const std::string c = csv.str();
    CHECK(c.starts_with("input,operation,num_machines,items,repetitions,median_ns,"));
    CHECK(c.find('#') == std::string::npos);
    std::ostringstream commented;
    write_csv(commented, test_header(), ms, true);
    CHECK(commented.str() ==
          "# nettopo-bench test\n# parameters: repetitions=3\n# machine: cpu=test\n" + c);
    CHECK(c.find("tree-G,load,1023,1,3,2000,1000,3000,\"a note, with \"\"quotes\"\"\"\n") !=
          std::string::npos);
    CHECK(c.find("mesh3D,hops II,512,1,2,15,10,20,\n") != std::string::npos);

    const std::string j = json.str();
    CHECK(j.find("\"ns_per_item\":[3000,1000,2000]") != std::string::npos);
    CHECK(j.find("\"median_ns\":15") != std::string::npos);
    CHECK(j.find("\"parameters\":{\"repetitions\":3}") != std::string::npos); // a number
    CHECK(count(j, "\n") == 1);
}

TEST_CASE("bench: the scaling plot draws a line per operation inside its frame",
          "[bench-harness]") {
    const std::vector<Measurement> ms = {
        measurement("load", "tree-M", 127, {1e5}), measurement("load", "tree-G", 1023, {8e5}),
        measurement("load", "mesh2D", 256, {2e5}), measurement("proximity", "tree-G", 1023, {2}),
        measurement("ignored", "none", 0, {5})};
    std::ostringstream svg;
    write_scaling_svg(svg, test_header(), ms);
    pugi::xml_document doc;
    REQUIRE(doc.load_string(svg.str().c_str()));
    const pugi::xml_node root = doc.child("svg");
    REQUIRE(root);
    std::size_t lines = 0, points = 0;
    for (pugi::xml_node n : root.children()) {
        if (std::string_view(n.name()) == "polyline") ++lines;
        if (std::string_view(n.name()) == "circle") {
            ++points;
            const double x = n.attribute("cx").as_double(), y = n.attribute("cy").as_double();
            CHECK(x >= 80);
            CHECK(x <= 1000 - 380);
            CHECK(y >= 50);
            CHECK(y <= 560 - 60);
        }
    }
    CHECK(lines == 1);  // load has three inputs; proximity one point
    CHECK(points == 4); // the measurement without machines is not drawn
    // Points of one line go left to right in machines.
    std::vector<double> xs;
    for (pugi::xml_node n : root.children("circle")) xs.push_back(n.attribute("cx").as_double());
    CHECK(xs[0] < xs[1]);
    CHECK(xs[1] < xs[2]);
}

TEST_CASE("bench: runs on the thesis presets pass --verify", "[bench-harness]") {
    RunOptions o;
    o.repetitions = 2;
    o.queries = 2000;
    o.sources = 8;
    o.verify = true;
    for (const char* preset : {"tree-M", "mesh2D"}) {
        const Input in = preset_input(preset);
        INFO(preset);
        CHECK(run_init(in, o).size() == 1);
        CHECK(run_save(in, o).size() == 1);
        CHECK(run_load(in, o).size() == 1);
        CHECK(run_fill(in, o).size() == 1);
        CHECK(run_proximity(in, o).size() == 1);
        const auto d = run_distance(in, o);
        REQUIRE(d.size() == 7); // index build, II per set and per call (x2), random pairs (x2)
        CHECK(d[1].operation == "distance II (index)");
        CHECK(d[1].items == 8);
        // The sets hold every machine within 2 hops of each sampled source.
        std::uint64_t expected = 0;
        for (std::uint32_t s = 0; s < in.cluster->num_machines(); ++s)
            expected += two_hop_pairs_from(*in.cluster, s);
        CHECK(d[2].items > 0);
        CHECK(d[2].items <= expected);
        CHECK(d[0].operation == "index build");
        CHECK(d[0].ns_per_item.size() == 1); // built once, then queried
        for (std::size_t i = 1; i < d.size(); ++i) {
            CHECK(d[i].ns_per_item.size() == 2);
            for (double ns : d[i].ns_per_item) CHECK(ns > 0);
        }
        CHECK(run_hops(in, o).size() == 7);
        if (peer_available()) CHECK(run_peer(in, o).size() == 7);
    }
    // A loaded archive has no family to re-generate.
    Input loaded = preset_input("tree-M");
    loaded.family = nullptr;
    CHECK(run_init(loaded, o).empty());
}

TEST_CASE("bench: the index check catches a single wrong latency", "[bench-harness]") {
    std::mt19937_64 rng(11);
    for (int round = 0; round < 20; ++round) {
        const test::ClusterSpec spec = test::random_cluster(rng);
        const Cluster c = test::build_cluster(spec);
        std::vector<MachineId> all;
        for (std::uint32_t m = 0; m < c.num_machines(); ++m) all.emplace_back(m);
        CHECK_FALSE(check_distance_index(c, *build_distance_index(c), all));
        const MachineId a(0), b(c.num_machines() - 1);
        const OffByOne bad(build_distance_index(c), a, b);
        const auto found = check_distance_index(c, bad, all);
        REQUIRE(found);
        CHECK(found->from == a);
        CHECK(found->to == b);
        CHECK_FALSE(found->hops);
        CHECK(found->index_value == found->search_value + 1);
    }
}
