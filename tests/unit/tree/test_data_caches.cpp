// Data caches (MachineTree::is_data_cache): hwloc's L1dCache as against a
// unified L1 (older kernels report the L1 unified), kept from exports, through
// signatures and archives, refused on objects that are not such caches.
#include "nettopo/formats/load.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/machine_tree.hpp"
#include "testkit/archive_text.hpp"

#include <catch2/catch.hpp>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

std::size_t data_caches_of_type(const MachineTree& t, ObjectType type) {
    std::size_t n = 0;
    for (const std::uint32_t c : t.data_caches()) n += t.object(ObjectId(c)).type == type;
    return n;
}

const MachineTree& first_tree(const Cluster& c) {
    return c.type(TypeId(0)).tree();
}

} // namespace

TEST_CASE("data caches: hwloc's cache types are kept, unified L1 included", "[tree][real]") {
    const std::string data = NETTOPO_SHARED_DATA;
    // ipa20: 112 L1d (data) caches, L2 and L3 unified.
    const Cluster ipa = load_cluster(data + "/hwloc-xml/ipa20-snc4-4xH100.xml");
    CHECK(data_caches_of_type(first_tree(ipa), ObjectType::L1) == 112);
    CHECK(data_caches_of_type(first_tree(ipa), ObjectType::L2) == 0);
    CHECK(first_tree(ipa).count(ObjectType::L1) == 112);
    // 32em64t: its 16 L1 caches are unified (cache_type="0" in the export).
    const Cluster old = load_cluster(data + "/hwloc-xml/32em64t-2n8c2t-pci-normalio.xml");
    CHECK(first_tree(old).count(ObjectType::L1) == 16);
    CHECK(first_tree(old).data_caches().empty());
    // Through the signature and the archive.
    const MachineTree& t = first_tree(ipa);
    CHECK(tree_from_signature(t.signature()) == t);
    CHECK(t.signature().find("|dc:") != std::string::npos);
    CHECK(first_tree(test::from_archive_text(test::archive_text(ipa))) == t);
    CHECK(test::archive_text(ipa).find("cache=\"data\"") != std::string::npos);
    // A tree without data caches keeps its signature of before.
    CHECK(first_tree(old).signature().find("|dc:") == std::string::npos);
}

TEST_CASE("data caches: a mark on anything else is refused", "[tree]") {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    const ObjectId l1 = b.add(ObjectType::L1, root, 0, 32768);
    const ObjectId core = b.add(ObjectType::Core, l1);
    b.add(ObjectType::PU, core);
    SECTION("a core") {
        b.mark_data_cache(core);
        CHECK_THROWS_WITH(std::move(b).finish(), Contains("marked a data cache but is Core"));
    }
    SECTION("no object") {
        b.mark_data_cache(ObjectId(9));
        CHECK_THROWS_WITH(std::move(b).finish(), Contains("no object"));
    }
    SECTION("an L1, twice, is one") {
        b.mark_data_cache(l1);
        b.mark_data_cache(l1);
        const MachineTree t = std::move(b).finish();
        CHECK(t.is_data_cache(l1));
        CHECK_FALSE(t.is_data_cache(core));
        CHECK(t.data_caches().size() == 1);
    }
}

TEST_CASE("data caches: archive errors name the line", "[tree]") {
    const Cluster c =
        load_cluster(std::string(NETTOPO_SHARED_DATA) + "/hwloc-xml/ipa20-snc4-4xH100.xml");
    const std::string good = test::archive_text(c);
    CHECK_THAT(test::edited_archive_error(good, "cache=\"data\"", "cache=\"code\""),
               Contains("bad.xml:") && Contains("expected data or unified"));
    CHECK_THAT(test::edited_archive_error(good, "type=\"Core\"", "type=\"Core\" cache=\"data\""),
               Contains("only L5 to L1 have it"));
}
