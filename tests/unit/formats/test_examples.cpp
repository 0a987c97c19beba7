// The example topologies shipped in share/examples load and mean what their
// comments say.
#include "nettopo/formats/load.hpp"
#include "nettopo/query/query_engine.hpp"

#include <catch2/catch.hpp>

using namespace nettopo;

namespace {
Cluster example(const char* name) {
    return load_cluster(std::string(NETTOPO_SOURCE_DIR "/share/examples/") + name);
}
} // namespace

TEST_CASE("share/examples load and answer as documented", "[examples]") {
    const Cluster fig9b = example("fig9b.topo");
    CHECK(fig9b.num_pes() == 12);
    CHECK(fig9b.num_nodes() == 8);

    const Cluster ring = example("ring4.topo");
    QueryEngine rq(ring);
    CHECK(rq.distance(PeId(0), PeId(2)) == 15.0);

    const Cluster tree = example("small-fattree.topo");
    QueryEngine tq(tree);
    CHECK(tree.num_pes() == 512);
    CHECK(tree.num_switches() == 6);
    CHECK(tree.num_nodes() == 32);
    CHECK(tq.hop_count(PeId(0), PeId(511)) == 4u); // host, leaf, spine, leaf, host
    CHECK(tq.distance(PeId(0), PeId(511)) == 150.0 + 300 + 300 + 150);
    CHECK(tq.hop_count(PeId(0), PeId(32)) == 2u); // two hosts of one leaf
    // Uplinks are doubled, host links single.
    const VertexId leaf0 = *tree.find_vertex("leaf0"), spine0 = *tree.find_vertex("spine0");
    for (const Link& l : tree.network().links()) {
        const bool uplink = (l.a == leaf0 && l.b == spine0) || (l.a == spine0 && l.b == leaf0);
        if (uplink) CHECK(l.multiplicity == 2);
        if (tree.network().is_machine(l.a)) CHECK(l.multiplicity == 1);
    }
}
