// Latencies inside a machine (share/doc/model.md, "Intra-machine
// latencies" and "The machine's own distances"): positions order them
// whatever the types' table says, and a NUMA distance matrix decides across
// NUMA nodes. Checked on trees built by hand, each against a brute force
// over every pair of PUs: a deeper common object is never farther, and a PU
// of one's own NUMA node is always nearer than any other. The real exports
// are checked against hwloc in tests/tools/numa_oracle.py.
#include "nettopo/model/machine_type.hpp"
#include "nettopo/support/error.hpp"

#include <catch2/catch.hpp>
#include <vector>

using namespace nettopo;

namespace {

MachineType make(MachineTree tree, LevelLatencies lat = LevelLatencies::defaults()) {
    return MachineType("test", std::move(tree), NodeLevel{}, lat);
}

// Two cores of two PUs each below `parent` (L2 > L1 > Core > 2 PUs).
void add_cores(MachineTree::Builder& b, ObjectId parent, int cores) {
    for (int c = 0; c < cores; ++c) {
        const ObjectId core =
            b.add(ObjectType::Core, b.add(ObjectType::L1, b.add(ObjectType::L2, parent)));
        b.add(ObjectType::PU, core);
        b.add(ObjectType::PU, core);
    }
}

// Sapphire Rapids in SNC2, as ipa20-snc4-4xH100.xml: Machine > 2 Packages >
// L3 > 2 Groups, each with a NUMA node and 2 cores.
MachineTree snc(std::vector<std::uint64_t> distances = {}) {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    std::uint32_t numa = 0;
    for (int p = 0; p < 2; ++p) {
        const ObjectId l3 = b.add(ObjectType::L3, b.add(ObjectType::Package, root));
        for (int g = 0; g < 2; ++g) {
            const ObjectId group = b.add(ObjectType::Group, l3);
            b.add_memory(ObjectType::NUMANode, group, numa++, 1ull << 30);
            add_cores(b, group, 2);
        }
    }
    b.set_numa_distances(std::move(distances));
    return std::move(b).finish();
}

// Deeper never farther: for every three PUs a, b, c, when the deepest common
// object of (a, b) lies strictly below that of (a, c), then (a, b) is
// strictly nearer (unless latencies are 0), by brute force.
void check_positions(const MachineType& t) {
    const MachineTree& tree = t.tree();
    const auto below = [&](ObjectId x, ObjectId y) { // x strictly inside y
        return x != y && tree.object(x).first_pu >= tree.object(y).first_pu &&
               tree.object(x).first_pu + tree.object(x).pu_count <=
                   tree.object(y).first_pu + tree.object(y).pu_count &&
               tree.object(x).pu_count < tree.object(y).pu_count;
    };
    for (std::uint32_t a = 0; a < t.num_pus(); ++a)
        for (std::uint32_t b = 0; b < t.num_pus(); ++b)
            for (std::uint32_t c = 0; c < t.num_pus(); ++c) {
                if (a == b || a == c) continue;
                if (below(t.common_ancestor(a, b), t.common_ancestor(a, c))) {
                    INFO("PUs " << a << ", " << b << ", " << c);
                    CHECK(t.latency_between(a, b) < t.latency_between(a, c));
                }
            }
}

} // namespace

TEST_CASE("latencies: a Group below an L3 is nearer than the L3 (SNC)", "[latency]") {
    const MachineType t = make(snc());
    check_positions(t);
    // PUs 0..7 are package 0: 0-3 group 0, 4-7 group 1.
    CHECK(t.latency_between(0, 1) == 5);   // one core
    CHECK(t.latency_between(0, 2) == 30);  // one Group: midway between the L3 (40) and the L2 (20)
    CHECK(t.latency_between(0, 4) == 40);  // only the L3
    CHECK(t.latency_between(0, 8) == 120); // across packages
}

TEST_CASE("latencies: types that agree with the positions keep their values", "[latency]") {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    for (int p = 0; p < 2; ++p)
        add_cores(b, b.add(ObjectType::L3, b.add(ObjectType::Package, root)), 2);
    const MachineType t = make(std::move(b).finish());
    check_positions(t);
    CHECK(t.latency_between(0, 1) == 5);
    CHECK(t.latency_between(0, 2) == 40);
    CHECK(t.latency_between(0, 4) == 120);
}

TEST_CASE("latencies: an override above its parent's is lowered, the parent keeps its own",
          "[latency]") {
    // Cluster-on-Die: Package (80) > 2 Groups (90) > L3 (40). The old rule
    // lifted the Package to 90; the Package is now 80 and the Groups in
    // between, whatever they are set to.
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    for (int p = 0; p < 2; ++p) {
        const ObjectId pack = b.add(ObjectType::Package, root);
        for (int g = 0; g < 2; ++g)
            add_cores(b, b.add(ObjectType::L3, b.add(ObjectType::Group, pack)), 2);
    }
    LevelLatencies lat = LevelLatencies::defaults();
    lat[ObjectType::L2] = 500; // absurd: above every level, lowered below its L3
    const MachineType t = make(std::move(b).finish(), lat);
    check_positions(t);
    CHECK(t.latency_between(0, 4) == 80);  // across the Groups of one Package
    CHECK(t.latency_between(0, 8) == 120); // across Packages
    CHECK(t.latency_between(0, 2) == 40);  // one L3
    CHECK(t.latency_between(0, 1) > 0);
    CHECK(t.latency_between(0, 1) < 40);
}

TEST_CASE("latencies: the NUMA matrix decides across NUMA nodes", "[latency][numa]") {
    // SLIT of an SNC2 server: 10 local, 12 in the package, 21 across.
    const MachineType t = make(snc({10, 12, 21, 21, //
                                    12, 10, 21, 21, //
                                    21, 21, 10, 12, //
                                    21, 21, 12, 10}));
    check_positions(t);
    const double own = t.latency_between(0, 2), same_package = t.latency_between(0, 4),
                 other = t.latency_between(0, 8);
    CHECK(own == 30);
    // 30 + (120 - 30) x (2 + 1) / (11 + 1 + 0.5): the farthest pair's key
    // has the tie-breaker's half unit (it also meets highest in the tree).
    CHECK(same_package == Approx(51.6));
    CHECK(other == 120);
    CHECK(t.latency_between(4, 0) == same_package);
    // Every PU of one's own NUMA node before any other, by brute force.
    for (std::uint32_t a = 0; a < t.num_pus(); ++a)
        for (std::uint32_t b = 0; b < t.num_pus(); ++b)
            for (std::uint32_t c = 0; c < t.num_pus(); ++c)
                if (a != b && a / 4 == b / 4 && a / 4 != c / 4)
                    CHECK(t.latency_between(a, b) < t.latency_between(a, c));
}

TEST_CASE("latencies: the NUMA matrix orders remote nodes as hwloc does", "[latency][numa]") {
    // Four NUMA nodes where node 3 is nearer to node 0 than node 2 is, against
    // the tree (2 and 3 in the other package alike).
    const MachineType t = make(snc({10, 16, 22, 18, //
                                    16, 10, 22, 22, //
                                    22, 22, 10, 16, //
                                    18, 22, 16, 10}));
    CHECK(t.latency_between(0, 12) < t.latency_between(0, 8));
    CHECK(t.latency_between(0, 4) < t.latency_between(0, 12));
    CHECK(t.latency_between(0, 8) == 120);
}

TEST_CASE("latencies: where the NUMA matrix ties, the tree's positions decide", "[latency][numa]") {
    // A flat SLIT (10 local, 20 remote), as 16amd64-4distances.xml's eight
    // sockets in two Groups: the other node of one's package comes first.
    const MachineType t = make(snc({10, 20, 20, 20, //
                                    20, 10, 20, 20, //
                                    20, 20, 10, 20, //
                                    20, 20, 20, 10}));
    check_positions(t);
    CHECK(t.latency_between(0, 2) == 30);
    CHECK(t.latency_between(0, 4) > 30);
    CHECK(t.latency_between(0, 4) < t.latency_between(0, 8));
    CHECK(t.latency_between(0, 8) == 120);
}

TEST_CASE("latencies: a NUMA matrix of the wrong size is refused", "[latency][numa]") {
    CHECK_THROWS_AS(snc({10, 21, 21, 10}), InputError);
}

TEST_CASE("latencies: the NUMA matrix travels in the tree's signature", "[latency][numa]") {
    const MachineTree with = snc({10, 12, 21, 21, 12, 10, 21, 21, 21, 21, 10, 12, 21, 21, 12, 10});
    const MachineTree without = snc();
    CHECK(tree_from_signature(with.signature()) == with);
    CHECK_FALSE(with == without);
    CHECK(without.signature().find("|d:") == std::string::npos);
    CHECK(with.signature().ends_with("|d:10,12,21,21,12,10,21,21,21,21,10,12,21,21,12,10"));
    CHECK_THROWS_AS(tree_from_signature(without.signature() + "|d:1,x"), InputError);
}
