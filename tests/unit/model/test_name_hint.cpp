// What an error about an unknown machine name suggests (model/name_hint.hpp),
// and the library's errors that carry it.
#include "common/dot_highlight.hpp"
#include "nettopo/model/detail/name_hint.hpp"
#include "nettopo/model/job_view.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/description_text.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <string>
#include <vector>

using namespace nettopo;

namespace {
const Cluster& nodes128() {
    static const Cluster c =
        test::from_description_text("machines node[001-128] pu:1\n", "nodes.topo");
    return c;
}
} // namespace

TEST_CASE("a machine name hint: the nearest names, or the names as ranges", "[model][names]") {
    const Cluster& c = nodes128();
    // A typo: the one nearest name (l for 1 is half an edit).
    CHECK(machine_name_hint(c, "node0l3") == "did you mean node013?");
    CHECK(machine_name_hint(c, "nod013") == "did you mean node013?");
    CHECK(machine_name_hint(c, "Node013") == "did you mean node013?");
    // A number of the run written with another padding.
    CHECK(machine_name_hint(c, "node13") == "did you mean node013?");
    CHECK(machine_name_hint(c, "node0013") == "did you mean node013?");
    // Past the run, or near nothing: the names as a hostlist.
    CHECK(machine_name_hint(c, "node200") == "known machines: node[001-128]");
    CHECK(machine_name_hint(c, "node000") == "known machines: node[001-128]");
    CHECK(machine_name_hint(c, "login") == "known machines: node[001-128]");
    // Equally near names: up to three, in natural order.
    CHECK(machine_name_hint(c, "nodeX01") == "did you mean node001 or node101?");
    CHECK(machine_name_hint(c, "nodeX1") == "did you mean node001, node010 or node011?");
    CHECK(no_machine_named(c, "node0l3") == "no machine named 'node0l3'; did you mean node013?");
    CHECK_THROWS_WITH(c.require_machine("node0l3"),
                      "no machine named 'node0l3'; did you mean node013?");
    CHECK_THROWS_AS(c.require_machine("node0l3"), UsageError);
}

TEST_CASE("a machine name hint: several runs, a few items or none", "[model][names]") {
    // Runs of several prefixes, a name alone: 3 items.
    const char* few = "machines n[1-8] pu:1\nmachines n[20-23] pu:1\nmachine login pu:1\n"
                      "machines gpu[01-04] pu:1\n";
    // 5 items, too many for one short hostlist: those of the name's prefix.
    const char* more = "machines n[01-08] pu:1\nmachines n[10-12] pu:1\nmachine a pu:1\n"
                       "machine b pu:1\nmachine c pu:1\nmachine d pu:1\n";
    // Two machines: any one-letter name is one edit from both, which is no hint.
    const char* two = "machine A pu:1\nmachine B pu:1\n";
    const struct {
        const char* cluster;
        const char* name;
        const char* hint;
    } cases[] = {
        {few, "n12", "known machines: n[1-8,20-23],login,gpu[01-04]"},
        {few, "n08", "did you mean n8?"},
        {few, "logn", "did you mean login?"},
        {few, "gpu1", "did you mean gpu01?"},
        {few, "a", "known machines: n[1-8,20-23],login,gpu[01-04]"},
        {more, "n09", "known machines: n[01-08,10-12] and 4 more"},
        {more, "n9", "known machines: n[01-08,10-12] and 4 more"},
        {more, "n3", "did you mean n03?"},
        {more, "e", ""},
        {two, "C", "known machines: A,B"},
        {two, "b", "did you mean B?"},
    };
    for (const auto& k : cases) {
        INFO(k.cluster << " / " << k.name);
        CHECK(machine_name_hint(test::from_description_text(k.cluster, "t.topo"), k.name) ==
              k.hint);
    }
    // Names that fold into no short hostlist: the nearest only, or nothing.
    std::string many;
    for (int i = 0; i < 20; ++i) many += fmt::format("machine host{}x pu:1\n", i);
    const Cluster scattered = test::from_description_text(many, "many.topo");
    CHECK(machine_name_hint(scattered, "host7y") == "did you mean host7x?");
    CHECK(machine_name_hint(scattered, "login").empty());
    CHECK(no_machine_named(scattered, "login") == "no machine named 'login'");
}

TEST_CASE("a machine or switch name: the nearest among both", "[model][names]") {
    const Cluster c = test::from_description_text("machines n[01-04] pu:1\n"
                                                  "switch leaf0\nswitch spine\n"
                                                  "link n01 leaf0 1\nlink n02 leaf0 1\n"
                                                  "link n03 leaf0 1\nlink n04 leaf0 1\n"
                                                  "link leaf0 spine 1\n",
                                                  "s.topo");
    CHECK_THROWS_WITH(c.require_vertex("spien"),
                      "no machine or switch named 'spien'; did you mean spine?");
    CHECK_THROWS_WITH(c.require_vertex("n0l"),
                      "no machine or switch named 'n0l'; did you mean n01?");
    CHECK_THROWS_WITH(c.require_vertex("login"),
                      "no machine or switch named 'login'; known machines: n[01-04]");
    // A machine is asked for: switches are not suggested.
    CHECK_THROWS_WITH(c.require_machine("spien"),
                      "no machine named 'spien'; known machines: n[01-04]");
}

TEST_CASE("several unknown names: the known names as ranges", "[model][names]") {
    const Cluster& c = nodes128();
    const std::vector<std::string> one{"node0l3"}, two{"node200", "node201"};
    CHECK(machine_names_hint(c, one) == "did you mean node013?");
    CHECK(machine_names_hint(c, two) == "known machines: node[001-128]");
    CHECK(with_hint("no machine named x", "") == "no machine named x");
    CHECK(with_hint("no machine named x", "known machines: y") ==
          "no machine named x; known machines: y");
}

TEST_CASE("the library's unknown-machine errors carry the hint", "[model][names]") {
    const Cluster& c = nodes128();
    CHECK_THROWS_WITH(read_dot_highlight(c, "path:0,node0l3"),
                      "'path:0,node0l3': no machine named 'node0l3'; did you mean node013?");
    CHECK_THROWS_WITH(read_dot_highlight(c, "node[127-130]"),
                      "'node[127-130]': no machine named node[129-130]; known machines: "
                      "node[001-128]");
    const std::vector<std::string> typo{"node001", "node0l3"};
    CHECK_THROWS_WITH(machines_named(c, typo, "--nodes"),
                      "--nodes: a host is not in the cluster: node0l3; did you mean node013?");
}
