// The text description: what it accepts, and the message and location of
// every kind of error it rejects.
#include "nettopo/formats/description.hpp"
#include "nettopo/support/error.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {
Cluster parse(const std::string& text, bool allow_disconnected = false) {
    std::istringstream in(text);
    LoadOptions o;
    o.build.allow_disconnected = allow_disconnected;
    return read_description(in, "t.topo", o);
}

// The error's full message, or "" when the text parses.
std::string error_of(const std::string& text) {
    try {
        parse(text);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}
} // namespace

TEST_CASE("descriptions: comments, blank lines, names, ranges and options", "[description]") {
    const Cluster c =
        parse("# a comment\n\n"
              "name my cluster   # trailing comment\n"
              "switch sw\n"
              "machines n[08-11] pack:1 core:2 pu:2 node=pu lat.core=3.5\n"
              "machines x[9-10] pack:1 core:2 pu:1\n"
              "link n08 sw 1.5 bandwidth=100 count=4\n"
              "link sw n09 1\nlink n10 sw 1\nlink n11 sw 1\nlink x9 sw 2\nlink x10 sw 0\n");
    CHECK(c.name() == "my cluster");
    REQUIRE(c.num_machines() == 6);
    CHECK(c.machine_name(MachineId(0)) == "n08");
    CHECK(c.machine_name(MachineId(3)) == "n11");
    CHECK(c.machine_name(MachineId(4)) == "x9");
    CHECK(c.machine_name(MachineId(5)) == "x10");
    CHECK(c.num_types() == 2);
    const MachineType& t = c.machine_type(MachineId(0));
    CHECK(t.node_type() == ObjectType::PU);
    CHECK(t.num_nodes() == 4);
    CHECK(t.latencies()[ObjectType::Core] == 3.5);
    CHECK(t.latency_between(0, 1) == 3.5);
    const Link& l = c.network().links()[0];
    CHECK(l.latency_ns == 1.5);
    CHECK(l.bandwidth_gbps == 100);
    CHECK(l.multiplicity == 4);
    CHECK(c.network().links()[5].latency_ns == 0.0);
}

TEST_CASE("hwloc attributes in parentheses stay in the synthetic description", "[description]") {
    const Cluster c = parse("machine a pack:1 l3:1(size=32MB) core:2 pu:1 node=l3\n");
    const MachineTree& tree = c.machine_type(MachineId(0)).tree();
    CHECK(c.machine_type(MachineId(0)).description() == "pack:1 l3:1(size=32MB) core:2 pu:1");
    CHECK(c.machine_type(MachineId(0)).node_type() == ObjectType::L3);
    bool found = false;
    for (const TreeObject& o : tree.objects())
        if (o.type == ObjectType::L3)
            found = o.size_bytes == 32000000; // hwloc reads MB as 10^6 bytes
    CHECK(found);
}

TEST_CASE("the default name is the file's stem", "[description]") {
    std::istringstream in("machine a core:1 pu:1\n");
    CHECK(read_description(in, "dir/lab.topo").name() == "lab");
}

TEST_CASE("a lat. override above its parent's level is lowered below it", "[description]") {
    const Cluster c = parse("machine a pack:1 l3:1 l2:2 core:2 pu:1 lat.l2=500\n");
    const MachineType& t = c.machine_type(MachineId(0));
    // PUs 0 and 1 meet at an L2, asked to cost 500 below an L3 of 40: the
    // L2 takes the midpoint of the L3 (40) and the cores below it (5); PUs 0
    // and 2 meet at the L3, which keeps its 40 (share/doc/model.md).
    CHECK(t.latency_between(0, 1) == 22.5);
    CHECK(t.latency_between(0, 2) == 40.0);
    CHECK(t.latency_between(0, 0) == 0.0);
}

TEST_CASE("description errors name the file, the line and what is wrong", "[description]") {
    struct Case {
        const char* text;
        const char* location;
        const char* says;
    };
    const Case cases[] = {
        {"machine a core:1 pu:1\nfrobnicate x\n", "t.topo:2: ", "unknown statement 'frobnicate'"},
        {"machine a\n", "t.topo:1: ", "expected 'machine <name> <hwloc synthetic description>'"},
        {"machine a node=core\n", "t.topo:1: ", "expected an hwloc synthetic description"},
        {"machine a pack:2 core:x pu:1\n", "t.topo:1: ", "bad count 'x'"},
        {"machine a pack:2 bogus:2 pu:1\n", "t.topo:1: ", "unknown object type 'bogus'"},
        {"machine a pack:2 core:2\n", "t.topo:1: ", "must end with pu"},
        {"machine a core:1 pu:1 node=banana\n", "t.topo:1: ", "unknown node level 'banana'"},
        {"machine a core:1 pu:1 lat.core=-1\n", "t.topo:1: ", "bad latency '-1'"},
        {"machine a core:1 pu:1 colour=red\n", "t.topo:1: ", "unknown machine option 'colour'"},
        {"machines n[4-2] core:1 pu:1\n", "t.topo:1: ", "4 > 2"},
        {"machines n[a-2] core:1 pu:1\n", "t.topo:1: ", "bounds must be non-negative integers"},
        {"machines n4 core:1 pu:1\n", "t.topo:1: ", "expected <prefix>[<a>-<b>]"},
        {"machine a core:1 pu:1\nswitch a\n",
         "t.topo:2: ", "duplicate name 'a': already declared as a machine on line 1"},
        {"switch s\nmachines s[1-2] core:1 pu:1\nmachine s1 core:1 pu:1\n",
         "t.topo:3: ", "duplicate name 's1'"},
        {"switch s t\n", "t.topo:1: ", "expected 'switch <name>'"},
        {"machine a core:1 pu:1\nlink a b 3\n", "t.topo:2: ", "unknown endpoint 'b'"},
        {"machine a core:1 pu:1\nmachine b core:1 pu:1\nlink a b -3\n",
         "t.topo:3: ", "negative latency"},
        {"machine a core:1 pu:1\nmachine b core:1 pu:1\nlink a b fast\n",
         "t.topo:3: ", "bad latency 'fast'"},
        {"machine a core:1 pu:1\nmachine b core:1 pu:1\nlink a b\n",
         "t.topo:3: ", "expected 'link <endpoint> <endpoint> <latency-ns>"},
        {"machine a core:1 pu:1\nmachine b core:1 pu:1\nlink a b 1 bandwidth=0\n",
         "t.topo:3: ", "bad bandwidth '0'"},
        {"machine a core:1 pu:1\nmachine b core:1 pu:1\nlink a b 1 count=0\n",
         "t.topo:3: ", "bad count '0'"},
        {"machine a core:1 pu:1\nmachine b core:1 pu:1\nlink a b 1 speed=4\n",
         "t.topo:3: ", "unexpected 'speed=4'"},
        {"machine a core:1 pu:1\nmachine b core:1 pu:1\nlink a b 1\nlink b a 2\n",
         "t.topo:4: ", "duplicate link between 'b' and 'a' (first on line 3"},
        {"machine a core:1 pu:1\nlink a a 1\n", "t.topo:2: ", "cannot join a vertex to itself"},
        {"machine a core:1 pu:1\nmachine b core:1 pu:1\n",
         "t.topo: ", "the network is not connected (2 components): 'a' cannot reach 'b'"},
        {"# nothing\n", "t.topo: ", "no machine is declared"},
        {"name\n", "t.topo:1: ", "expected a name"},
        {"machine a pu:4(indexes=0,0,0,0)\n",
         "t.topo:1: ", "hwloc built 1 PUs from the synthetic description"},
        {"machine a core:1 pu:8192\n", "t.topo:1: ", "at most 1024 objects under one parent"},
        {"machine a pack:16 core:1024 pu:2\n", "t.topo:1: ", "more than 16384 PUs per machine"},
        {"machine a core:1 pu:1\nmachine b core:1 pu:1\nlink a b 2e9\n",
         "t.topo:3: ", "must be between 0 and 1000000000 ns"},
        {"machines n[0-999999] pack:2 core:1024 pu:4\n",
         "t.topo:1: ", "past the limit of 32-bit PE ids"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        const std::string msg = error_of(c.text);
        CHECK_THAT(msg, StartsWith(c.location));
        CHECK_THAT(msg, Contains(c.says));
    }
}

TEST_CASE("description: names follow the rule of names, refused at their line", "[description]") {
    // Findings D1 (NUL bytes) and D2 (control characters): names that made
    // archives nettopo refused, or that were not XML 1.0.
    const std::string at_limit(255, 'm'), past_limit(256, 'm');
    const Cluster c =
        parse("name " + std::string(255, 'c') + "\nmachine " + at_limit + " pu:1\nswitch " +
              std::string(255, 's') + "\nlink " + at_limit + " " + std::string(255, 's') + " 1\n");
    CHECK(c.name() == std::string(255, 'c'));
    CHECK(c.machine_name(MachineId(0)) == at_limit);
    CHECK(parse("machine caf\xc3\xa9 pu:1\n").machine_name(MachineId(0)) == "caf\xc3\xa9");
    struct Case {
        std::string text, says;
    };
    const std::vector<Case> cases = {
        {"machine A pu:1\nmachine " + past_limit + " pu:1\n", "t.topo:2: machine name 'mmmm"},
        {"machine A pu:1\nmachine " + std::string("\0\0C", 3) + " pu:1\n",
         "t.topo:2: machine name '\\x00\\x00C' holds the control character U+0000 at byte 1"},
        {"machine A pu:1\nmachine B\x01\x1b[31m pu:1\n",
         "t.topo:2: machine name 'B\\x01\\x1b[31m' holds the control character U+0001 at byte 2"},
        {"machine A pu:1\nswitch s\x7f\n",
         "t.topo:2: switch name 's\\x7f' holds the control character U+007F at byte 2"},
        {"machine A pu:1\nswitch " + std::string(256, 's') + "\n", "t.topo:2: switch name 'sss"},
        {"machines n\xc2\x9b[1-2] pu:1\n",
         "t.topo:1: machine name 'n\\xc2\\x9b1' holds the control character U+009B at byte 2"},
        {"machines " + std::string(254, 'n') + "[9-10] pu:1\n", "t.topo:1: machine name 'nnn"},
        {"machine a\xe9 pu:1\n", "t.topo:1: machine name 'a\\xe9' is not valid UTF-8 at byte 2"},
        {"name a\x1b b\nmachine a pu:1\n",
         "t.topo:1: cluster name 'a\\x1b b' holds the control character U+001B at byte 2"},
        {"name " + std::string(128, 'c') + " " + std::string(127, 'c') + "\nmachine a pu:1\n",
         "t.topo:1: cluster name 'ccc"},
    };
    for (const Case& k : cases) {
        INFO(k.text);
        CHECK_THAT(error_of(k.text), StartsWith(k.says));
    }
    // A run's last name is the longest: 254 + "9" fits, 254 + "10" does not.
    CHECK(parse("machines " + std::string(254, 'n') + "[8-9] pu:1\n", true).num_machines() == 2);
}

TEST_CASE("a disconnected network is accepted when allowed", "[description]") {
    const Cluster c = parse("machine a core:1 pu:1\nmachine b core:1 pu:1\n", true);
    CHECK(c.num_machines() == 2);
    CHECK(c.num_net_links() == 0);
}

TEST_CASE("a disconnected network's error names the option that accepts it", "[description]") {
    // As data, kept when the reader puts its file in front; the text names no tool's flag.
    try {
        parse("machine a core:1 pu:1\nmachine b core:1 pu:1\n");
        FAIL("a disconnected network was accepted");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) ==
              "t.topo: the network is not connected (2 components): 'a' cannot reach 'b'");
        CHECK(e.remedy() == Remedy::allow_disconnected);
    }
}
