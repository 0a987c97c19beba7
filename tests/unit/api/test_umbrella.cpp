// The umbrella header alone is enough for the calls its comment shows, and
// they answer as the layers' own headers do.
#include "nettopo/nettopo.hpp"

#include <catch2/catch.hpp>

using namespace nettopo;

TEST_CASE("umbrella: nettopo.hpp alone loads, indexes and queries", "[api]") {
    const Cluster c = load_cluster(NETTOPO_SOURCE_DIR "/share/examples/small-fattree.topo");
    REQUIRE(c.num_machines() == 16);
    CHECK(c.proximity(PeId(0), PeId(0)) == Proximity::SamePe);
    CHECK(c.proximity(PeId(0), PeId(40)) == Proximity::OtherMachine);
    const auto index = build_distance_index(c);
    QueryEngine indexed(c, index.get());
    QueryEngine searched(c, nullptr);
    for (std::uint32_t b = 0; b < c.num_pes(); b += 7) {
        CHECK(indexed.hop_count(PeId(0), PeId(b)) == searched.hop_count(PeId(0), PeId(b)));
        CHECK(indexed.distance(PeId(0), PeId(b)) == searched.distance(PeId(0), PeId(b)));
    }
    CHECK(indexed.nearest(PeId(0), 8) == searched.nearest(PeId(0), 8));
}
