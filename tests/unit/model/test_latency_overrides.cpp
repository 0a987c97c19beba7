// A user's latencies over a machine type's table (LevelLatencyOverrides):
// the levels set replace the table's and nothing else; memory types and bad
// numbers are refused; a type rebuilt with them orders its latencies by its
// tree again (share/doc/model.md, "Intra-machine latencies").
#include "nettopo/model/machine_type.hpp"
#include "nettopo/support/error.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace nettopo;
using Catch::Contains;

namespace {

// Sapphire Rapids in SNC2 (test_meet_latencies.cpp's): Machine > 2 Packages
// > L3 > 2 Groups > 2 cores (L2 > L1 > Core > 2 PUs) each.
MachineTree snc() {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    for (int p = 0; p < 2; ++p) {
        const ObjectId l3 = b.add(ObjectType::L3, b.add(ObjectType::Package, root));
        for (int g = 0; g < 2; ++g) {
            const ObjectId group = b.add(ObjectType::Group, l3);
            for (int c = 0; c < 2; ++c) {
                const ObjectId core =
                    b.add(ObjectType::Core, b.add(ObjectType::L1, b.add(ObjectType::L2, group)));
                b.add(ObjectType::PU, core);
                b.add(ObjectType::PU, core);
            }
        }
    }
    return std::move(b).finish();
}

} // namespace

TEST_CASE("latency overrides: the levels set replace the table's, the others stay",
          "[latency][overrides]") {
    LevelLatencyOverrides o;
    CHECK(o.empty());
    CHECK(o.applied_to(LevelLatencies::defaults()) == LevelLatencies::defaults());
    o.set(ObjectType::L3, 30);
    o.set(ObjectType::Core, 0);
    o.set(ObjectType::L3, 33); // the last one given wins
    CHECK_FALSE(o.empty());
    const LevelLatencies t = o.applied_to(LevelLatencies::defaults());
    LevelLatencies expected = LevelLatencies::defaults();
    expected[ObjectType::L3] = 33;
    expected[ObjectType::Core] = 0;
    CHECK(t == expected);
    // Over any table, not only the defaults (a description's, an archive's).
    LevelLatencies own = LevelLatencies::defaults();
    own[ObjectType::L3] = 7;
    own[ObjectType::L2] = 3;
    CHECK(o.applied_to(own)[ObjectType::L3] == 33);
    CHECK(o.applied_to(own)[ObjectType::L2] == 3);
}

TEST_CASE("latency overrides: memory types and bad numbers are refused", "[latency][overrides]") {
    LevelLatencyOverrides o;
    CHECK_THROWS_WITH(o.set(ObjectType::NUMANode, 10), Contains("NUMANode is a memory object"));
    CHECK_THROWS_AS(o.set(ObjectType::MemCache, 10), UsageError);
    CHECK_THROWS_AS(o.set(ObjectType::L3, -1), UsageError);
    CHECK_THROWS_AS(o.set(ObjectType::L3, std::numeric_limits<double>::quiet_NaN()), UsageError);
    CHECK_THROWS_AS(o.set(ObjectType::L3, std::numeric_limits<double>::infinity()), UsageError);
    CHECK(o.empty()); // nothing set by a refused call
    o.set(ObjectType::PU, -0.0);
    CHECK_FALSE(std::signbit(*o.ns[static_cast<std::size_t>(ObjectType::PU)]));
}

TEST_CASE("latency overrides: the type orders them by its tree again", "[latency][overrides]") {
    const MachineType plain("snc", snc(), NodeLevel{}, LevelLatencies::defaults());
    // PUs 0-3: group 0; 4-7: group 1 of package 0; 8-15: package 1.
    CHECK(plain.latency_between(0, 2) == 30); // the Group's 90, lowered between L3 40 and L2 20
    CHECK(plain.latency_between(0, 4) == 40);

    LevelLatencyOverrides o;
    o.set(ObjectType::Group, 25); // now below the L3's 40: kept as given
    o.set(ObjectType::Machine, 200);
    const MachineType t = with_latency_overrides(plain, o);
    CHECK(t.description() == plain.description());
    CHECK(t.tree() == plain.tree());
    CHECK(t.node_type() == plain.node_type());
    CHECK(t.latency_between(0, 2) == 25);
    CHECK(t.latency_between(0, 4) == 40);
    CHECK(t.latency_between(0, 8) == 200);
    CHECK(t.latencies()[ObjectType::Group] == 25);

    // An override above its parent's is lowered as the table's own values
    // are: a Group at 500 below the L3's 40 goes midway to the L2's 20.
    LevelLatencyOverrides high;
    high.set(ObjectType::Group, 500);
    const MachineType lowered = with_latency_overrides(t, high);
    CHECK(lowered.latencies()[ObjectType::Group] == 500); // the table keeps what was given
    CHECK(lowered.latency_between(0, 2) == 30);
    CHECK(lowered.latency_between(0, 8) == 200); // t's Machine override stays
    CHECK(lowered.signature() != t.signature());
}
