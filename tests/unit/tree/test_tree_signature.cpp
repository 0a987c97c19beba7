// A tree travels between processes as its signature (nettopo-discover --mpi):
// tree_from_signature must give back the very tree, on every real export of
// the shared data that hwloc loads and on this machine, and refuse text that
// is not a signature.
#include "nettopo/formats/image.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/machine_tree.hpp"
#include "testkit/real_data.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace nettopo;

namespace {

void check_round_trip(const MachineTree& tree) {
    const std::string text = tree.signature();
    const MachineTree back = tree_from_signature(text);
    CHECK(back == tree);
    CHECK(back.signature() == text);
    CHECK(back.num_pus() == tree.num_pus());
    for (std::size_t i = 0; i < tree.num_objects(); ++i) {
        const TreeObject &a = tree.objects()[i], &b = back.objects()[i];
        CHECK(a.logical_index == b.logical_index);
        CHECK(a.first_pu == b.first_pu);
        CHECK(a.pu_count == b.pu_count);
        CHECK(a.subtree_end == b.subtree_end);
        CHECK(tree.level_name(ObjectId(static_cast<std::uint32_t>(i))) ==
              back.level_name(ObjectId(static_cast<std::uint32_t>(i))));
    }
}

} // namespace

TEST_CASE("tree_from_signature reads back the real exports and this machine", "[tree][signature]") {
    for (const std::string& file : test::real_xmls()) {
        INFO(file);
        check_round_trip(load_hwloc_xml(file).tree);
    }
    check_round_trip(discover_this_machine().tree);
}

TEST_CASE("tree_from_signature refuses what is not a signature", "[tree][signature]") {
    const std::string good = discover_this_machine().tree.signature();
    CHECK_THROWS_AS(tree_from_signature(""), InputError);
    CHECK_THROWS_AS(tree_from_signature(good.substr(0, good.find('|'))), InputError);
    CHECK_THROWS_AS(tree_from_signature(good.substr(0, good.size() / 2)), InputError);
    CHECK_THROWS_AS(tree_from_signature("x" + good), InputError);
    // A type number past the last type, a parent that is not on the path.
    CHECK_THROWS_AS(tree_from_signature("4294967295/99/0/0;|"), InputError);
    CHECK_THROWS_AS(tree_from_signature("4294967295/0/0/0;7/15/0/0;|"), InputError);
    // A root whose parent is not "none", a PU with a child.
    CHECK_THROWS_AS(tree_from_signature("0/0/0/0;|"), InputError);
    CHECK_THROWS_AS(tree_from_signature("4294967295/0/0/0;0/15/0/0;1/15/1/0;|"), InputError);
}

TEST_CASE("signature: the text images store", "[tree][signature]") {
    // Images keep each machine type as its signature (formats/image.cpp):
    // a change of this text is a change of the image format, which must
    // raise image_version (formats/image.hpp) with it. Version 2 added the
    // machines' device identities beside the types, version 3 their
    // adapters' attachments, neither in this text.
    const MachineTree tree = tree_from_synthetic("pack:1 core:2 pu:2");
    REQUIRE(image_version == 3);
    CHECK(tree.signature() == "4294967295/0/0/0;0/1/0/0;1/14/0/0;2/15/0/0;2/15/1/0;1/14/1/0;"
                              "5/15/2/0;5/15/3/0;|1/4/0/1073741824;");
}
