// The hand-made topologies of the thesis (Figures 8 and 9), with answers
// worked out by hand.
#include "nettopo/formats/description.hpp"
#include "nettopo/query/query_engine.hpp"

#include <catch2/catch.hpp>
#include <sstream>

using namespace nettopo;

namespace {
Cluster parse(const std::string& text) {
    std::istringstream in(text);
    return read_description(in, "fixture.topo");
}
std::vector<std::uint32_t> values(const std::vector<PeId>& v) {
    std::vector<std::uint32_t> out;
    for (PeId p : v) out.push_back(p.value);
    return out;
}
} // namespace

TEST_CASE("Figure 9a: a 4-machine ring with one costly link takes the detour", "[fixture]") {
    const Cluster c = parse("machine m0 pack:1 core:2 pu:1\n"
                            "machine m1 pack:1 core:2 pu:1\n"
                            "machine m2 pack:1 core:2 pu:1\n"
                            "machine m3 pack:1 core:2 pu:1\n"
                            "link m0 m1 16\nlink m1 m2 5\nlink m2 m3 5\nlink m3 m0 5\n");
    QueryEngine q(c);
    REQUIRE(c.num_pes() == 8);
    REQUIRE(c.num_net_links() == 4);
    // PE 0 is on m0, PE 2 on m1: direct link costs 16, the detour m0-m3-m2-m1 15.
    CHECK(q.distance(PeId(0), PeId(2)) == 15.0);
    CHECK(q.hop_count(PeId(0), PeId(2)) == 1u);
    const auto path = q.path(PeId(0), PeId(2));
    REQUIRE(path.has_value());
    std::vector<std::string> names;
    for (VertexId v : *path) names.emplace_back(c.vertex_name(v));
    CHECK(names == std::vector<std::string>{"m0", "m3", "m2", "m1"});
    const auto by_hops = q.path(PeId(0), PeId(2), PathMetric::Hops);
    REQUIRE(by_hops.has_value());
    CHECK(by_hops->size() == 2);
    CHECK(q.distance(PeId(0), PeId(4)) == 10.0); // m0 - m3 - m2
    CHECK(q.hop_count(PeId(0), PeId(4)) == 2u);
    CHECK(q.distance(PeId(2), PeId(6)) == 10.0); // m1 - m2 - m3
    CHECK(q.distance(PeId(3), PeId(3)) == 0.0);
    CHECK(q.distance(PeId(0), PeId(1)) == 80.0); // two cores of one package: Package level
}

TEST_CASE("Figures 8 and 9b: two heterogeneous machines keep their own shapes", "[fixture]") {
    // A: 4 cores sharing no cache (each PE its own node). B: 8 cores in 4 L2 pairs.
    const Cluster c = parse("name fig9b\n"
                            "machine A pack:1 core:4 pu:1\n"
                            "machine B pack:1 l2:4 core:2 pu:1\n"
                            "link A B 8\n");
    QueryEngine q(c);
    REQUIRE(c.num_pes() == 12);
    REQUIRE(c.num_machines() == 2);
    REQUIRE(c.num_nodes() == 8);
    REQUIRE(c.num_net_links() == 1);
    CHECK(c.name() == "fig9b");
    // Charm++ showed two 6-PE machines; the real shapes are 4 and 8.
    CHECK(c.pes_of_machine(MachineId(0)).count == 4);
    CHECK(c.pes_of_machine(MachineId(1)).count == 8);
    CHECK(c.machine_type(MachineId(0)).node_type() == ObjectType::Core);
    CHECK(c.machine_type(MachineId(1)).node_type() == ObjectType::L2);
    const std::uint32_t nodes[12] = {0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7};
    for (std::uint32_t p = 0; p < 12; ++p) CHECK(c.node_of(PeId(p)).value == nodes[p]);
    CHECK(c.pes_of_node(NodeId(5)).first == 6);
    CHECK(c.pes_of_node(NodeId(5)).count == 2);
    CHECK(values(c.on_same_node(PeId(6))) == std::vector<std::uint32_t>{7});
    CHECK(c.on_same_node(PeId(2)).empty());
    CHECK(values(c.on_same_machine(PeId(1))) == std::vector<std::uint32_t>{0, 2, 3});
    CHECK(c.proximity(PeId(4), PeId(4)) == Proximity::SamePe);
    CHECK(c.proximity(PeId(4), PeId(5)) == Proximity::SameNode);
    CHECK(c.proximity(PeId(4), PeId(6)) == Proximity::SameMachine);
    CHECK(c.proximity(PeId(0), PeId(1)) == Proximity::SameMachine);
    CHECK(c.proximity(PeId(3), PeId(4)) == Proximity::OtherMachine);
    // Between machines: the link; inside: the level where the PEs meet.
    CHECK(q.distance(PeId(0), PeId(11)) == 8.0);
    CHECK(q.distance(PeId(3), PeId(4)) == 8.0);
    CHECK(q.hop_count(PeId(0), PeId(11)) == 1u);
    CHECK(q.hop_count(PeId(4), PeId(11)) == 0u);
    CHECK(q.distance(PeId(4), PeId(5)) == 20.0); // shared L2
    CHECK(q.distance(PeId(4), PeId(6)) == 80.0); // same package only
    const auto anc = c.common_ancestor(PeId(8), PeId(9));
    REQUIRE(anc.has_value());
    CHECK(anc->type == ObjectType::L2);
    CHECK(anc->logical_index == 2);
    CHECK_FALSE(c.common_ancestor(PeId(0), PeId(4)).has_value());
    CHECK(values(std::vector<PeId>{}).empty());
}

TEST_CASE("Figure 9b re-read with every PE its own machine", "[fixture]") {
    // Blue links (cost 1) inside old cache groups and along old machine A,
    // green (2) between old B's cache groups, red (8) between old A and B.
    std::string text;
    for (int p = 0; p < 12; ++p) text += "machine p" + std::to_string(p) + " core:1 pu:1\n";
    text += "link p0 p1 1\nlink p1 p2 1\nlink p2 p3 1\n"
            "link p4 p5 1\nlink p6 p7 1\nlink p8 p9 1\nlink p10 p11 1\n"
            "link p5 p6 2\nlink p7 p8 2\nlink p9 p10 2\n"
            "link p3 p4 8\n";
    const Cluster c = parse(text);
    QueryEngine q(c);
    REQUIRE(c.num_pes() == 12);
    REQUIRE(c.num_machines() == 12);
    REQUIRE(c.num_nodes() == 12);
    REQUIRE(c.num_net_links() == 11);
    CHECK(q.distance(PeId(0), PeId(11)) == 21.0); // 3 + 8 + 1+2+1+2+1+2+1
    CHECK(q.hop_count(PeId(0), PeId(11)) == 11u);
    CHECK(q.distance(PeId(4), PeId(7)) == 4.0);
    CHECK(q.distance(PeId(3), PeId(4)) == 8.0);
    for (std::uint32_t p = 0; p < 12; ++p) {
        CHECK(c.machine_of(PeId(p)).value == p);
        CHECK(c.node_of(PeId(p)).value == p);
        CHECK(c.on_same_machine(PeId(p)).empty());
    }
    CHECK(c.proximity(PeId(4), PeId(5)) == Proximity::OtherMachine);
    const auto near = q.nearest(PeId(5), 3);
    REQUIRE(near.size() == 3);
    CHECK(near[0] == NearPe{PeId(4), 1.0});
    CHECK(near[1] == NearPe{PeId(6), 2.0});
    CHECK(near[2] == NearPe{PeId(7), 3.0});
}

TEST_CASE("zero-latency links are links, and ties in nearest go to the smaller PE", "[fixture]") {
    const Cluster c = parse("switch s\n"
                            "machine a core:1 pu:1\nmachine b core:1 pu:1\nmachine c core:1 pu:1\n"
                            "link a s 0\nlink b s 0\nlink c s 3\n");
    QueryEngine q(c);
    CHECK(q.distance(PeId(0), PeId(1)) == 0.0);
    CHECK(q.hop_count(PeId(0), PeId(1)) == 2u);
    CHECK(q.distance(PeId(0), PeId(2)) == 3.0);
    const auto near = q.nearest(PeId(2), 2);
    REQUIRE(near.size() == 2);
    CHECK(near[0] == NearPe{PeId(0), 3.0});
    CHECK(near[1] == NearPe{PeId(1), 3.0});
}

TEST_CASE("identical machines share one machine type", "[fixture]") {
    const Cluster c = parse("switch top\n"
                            "machines node[0001-1000] pack:2 l3:1 core:8 pu:2\n"
                            "machine login pack:1 core:4 pu:1\n"
                            "machine login2 pack:1 core:4 pu:1\n"
                            "link login top 100\nlink login2 top 100\n" +
                            [] {
                                std::string s;
                                for (int i = 1; i <= 1000; ++i) {
                                    char name[16];
                                    std::snprintf(name, sizeof name, "node%04d", i);
                                    s += std::string("link ") + name + " top 100\n";
                                }
                                return s;
                            }());
    CHECK(c.num_types() == 2);
    CHECK(c.num_machines() == 1002);
    CHECK(c.num_pes() == 1000 * 32 + 8);
    CHECK(c.runs().size() == 2);
    CHECK(c.machine_name(MachineId(0)) == "node0001");
    CHECK(c.machine_name(MachineId(999)) == "node1000");
    CHECK(c.find_machine("node0500") == MachineId(499));
    CHECK(c.machine_of(PeId(32 * 1000 + 5)) == MachineId(1001));
    CHECK(c.node_of(PeId(32 * 1000 + 5)).value == 2 * 1000 + 4 + 1);
}
