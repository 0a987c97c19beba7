// The four common-ancestor algorithms (CombinACMP thesis, seed 001) against
// AscendLca on every pair of PUs: the thesis' five trees, every real hwloc
// export of the shared data, hundreds of random asymmetric trees, and trees
// whose ids need several words. Plus CombinLca's structural check, seen to
// fail on damaged structures, and its reciprocal checked against % on every
// id it hashes.
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/lca.hpp"
#include "testkit/real_data.hpp"
#include "testkit/sanitizer_scale.hpp"
#include "tree/lca_mutation.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <vector>

using namespace nettopo;
using Rep = CombinLca::Representation;

namespace {

// Everything the tests expect of one tree.
void require_sound(const MachineTree& tree,
                   std::uint32_t max_modulus = CombinLca::default_max_modulus) {
    const CombinLca combin(tree, max_modulus);
    const LcaProblems problems = combin.check(tree);
    INFO((problems.empty() ? std::string() : problems.front()));
    REQUIRE(problems.empty());
    REQUIRE(combin.reciprocal_mismatches() == 0);
    const LcaVerification v = verify_lca(tree);
    INFO(v.first_mismatch);
    REQUIRE(v.mismatches == 0);
    const std::uint64_t n = tree.num_pus();
    REQUIRE(v.pairs == n * (n + 1) / 2);
    if (max_modulus != CombinLca::default_max_modulus) {
        const AscendLca ascend(tree);
        for (std::uint32_t a = 0; a < n; ++a)
            for (std::uint32_t b = 0; b < n; ++b) REQUIRE(combin.query(a, b) == ascend.query(a, b));
    }
}

// A random tree whose objects have 1..max_children children and whose PUs
// sit at different depths: a Group becomes a PU early with some probability.
MachineTree random_tree(std::mt19937_64& rng, std::uint32_t max_children, std::uint32_t max_depth,
                        double early_leaf) {
    MachineTree::Builder b;
    std::uniform_int_distribution<std::uint32_t> kids(1, max_children);
    std::bernoulli_distribution leaf(early_leaf);
    std::uint32_t budget = 3000;
    auto grow = [&](auto&& self, ObjectId parent, std::uint32_t depth) -> void {
        const std::uint32_t k = kids(rng);
        for (std::uint32_t i = 0; i < k; ++i) {
            const bool is_pu = depth + 1 >= max_depth || budget == 0 || leaf(rng);
            const ObjectId c = b.add(is_pu ? ObjectType::PU : ObjectType::Group, parent);
            if (budget) --budget;
            if (!is_pu) self(self, c, depth + 1);
        }
    };
    grow(grow, b.add(ObjectType::Machine, ObjectId()), 0);
    return std::move(b).finish();
}

MachineTree degrees(std::initializer_list<std::uint32_t> g) {
    const std::vector<std::uint32_t> v(g);
    return tree_from_degrees(v);
}

} // namespace

TEST_CASE("the thesis' five trees have its sizes and every algorithm agrees on them", "[lca]") {
    struct Case {
        std::vector<std::uint32_t> degrees;
        std::size_t nodes;
        std::uint32_t leaves;
    };
    const std::vector<Case> cases = {{{2, 1, 1, 8, 1, 1, 1, 2}, 103, 32},
                                     {{8, 1, 1, 6, 1, 1, 1}, 217, 48},
                                     {{4, 4, 1, 3, 2, 1, 1, 1}, 469, 96},
                                     {{2, 2, 1, 5, 1, 1, 1, 1, 8}, 271, 160},
                                     {{1, 4, 1, 1, 9, 2, 1, 1, 4}, 554, 288}};
    for (const Case& c : cases) {
        const MachineTree tree = tree_from_degrees(c.degrees);
        CHECK(tree.num_objects() == c.nodes);
        CHECK(tree.num_pus() == c.leaves);
        CHECK(tree.count(ObjectType::Group) == c.nodes - 1 - c.leaves);
        require_sound(tree);
        const CombinLca combin(tree);
        // Degree-1 levels own no bits: the ids are as wide as the other degrees' sum.
        std::uint32_t bits = 0;
        for (std::uint32_t g : c.degrees) bits += g > 1 ? g : 0;
        CHECK(combin.id_bits() == bits);
        CHECK(combin.representation() == Rep::narrow);
    }
}

TEST_CASE("tree_from_degrees refuses what is not a tree", "[lca]") {
    CHECK_THROWS_AS(tree_from_degrees({}), UsageError);
    CHECK_THROWS_AS(degrees({2, 0, 3}), UsageError);
    CHECK_THROWS_AS(degrees({1000, 1000, 1000}), UsageError);
    CHECK(degrees({1}).num_pus() == 1);
    require_sound(degrees({1}));
    require_sound(degrees({1, 1, 1}));
}

TEST_CASE("every algorithm agrees with Ascend on every real machine", "[lca]") {
    for (const std::string& file : test::real_xmls()) {
        INFO(file);
        const MachineTree tree = load_hwloc_xml(file).tree;
        require_sound(tree);
        CHECK(CombinLca(tree).representation() != Rep::ascend);
    }
}

TEST_CASE("every algorithm agrees with Ascend on random asymmetric trees", "[lca]") {
    std::mt19937_64 rng(20170601);
    std::uint32_t asymmetric = 0;
    const int trees = test::random_cases(400);
    for (int i = 0; i < trees; ++i) {
        const std::uint32_t max_children = 1 + static_cast<std::uint32_t>(rng() % 6);
        const std::uint32_t max_depth = 2 + static_cast<std::uint32_t>(rng() % 8);
        const double early = (rng() % 4) * 0.15;
        const MachineTree tree = random_tree(rng, max_children, max_depth, early);
        INFO("tree " << i << ": " << tree.num_objects() << " objects");
        std::uint32_t min_depth = max_tree_depth, max_pu_depth = 0;
        for (std::uint32_t p = 0; p < tree.num_pus(); ++p) {
            min_depth = std::min(min_depth, tree.object(tree.pu(p)).depth);
            max_pu_depth = std::max(max_pu_depth, tree.object(tree.pu(p)).depth);
        }
        asymmetric += min_depth != max_pu_depth;
        require_sound(tree);
    }
    CHECK(asymmetric > 150 * trees / 400); // the generator did make PUs at several depths
}

TEST_CASE("trees needing 65 to 500 id bits switch to multi-word ids", "[lca]") {
    const std::vector<MachineTree> trees = [] {
        std::vector<MachineTree> v;
        v.push_back(degrees({100}));          // 100 PUs under one core-like level
        v.push_back(degrees({2, 1, 70}));     // 72 bits
        v.push_back(degrees({1, 3, 130, 2})); // 135 bits
        v.push_back(degrees({500}));          // 500 bits
        v.push_back(degrees({2, 30, 1, 33})); // 65 bits
        return v;
    }();
    for (std::size_t i = 0; i < trees.size(); ++i) {
        INFO("tree " << i);
        const CombinLca combin(trees[i]);
        CHECK(combin.id_bits() > 64);
        CHECK(combin.id_bits() <= 500);
        CHECK(combin.representation() == Rep::multi_word);
        require_sound(trees[i]);
    }
    std::mt19937_64 rng(65);
    for (int i = 0; i < test::random_cases(40); ++i) {
        const MachineTree tree = random_tree(rng, 40, 4, 0.3);
        const CombinLca combin(tree);
        INFO("random wide tree " << i << ": " << combin.id_bits() << " bits");
        if (combin.id_bits() > 62) CHECK(combin.representation() == Rep::multi_word);
        require_sound(tree);
    }
}

TEST_CASE("a many-level tree of 4 children per level needs 160 bits", "[lca]") {
    // A caterpillar: at each of 40 levels three PUs and one Group going on.
    MachineTree::Builder b;
    ObjectId spine = b.add(ObjectType::Machine, ObjectId());
    for (int level = 0; level < 40; ++level) {
        for (int k = 0; k < 3; ++k) b.add(ObjectType::PU, spine);
        spine = b.add(level == 39 ? ObjectType::PU : ObjectType::Group, spine);
    }
    const MachineTree tree = std::move(b).finish();
    const CombinLca combin(tree);
    CHECK(combin.id_bits() == 160);
    CHECK(combin.representation() == Rep::multi_word);
    require_sound(tree);
}

TEST_CASE("without a collision-free hash CombinLca still answers, by climbing", "[lca]") {
    const MachineTree tree = degrees({2, 3, 2});
    CHECK(CombinLca(tree, 1).representation() == Rep::ascend);
    require_sound(tree, 1);
}

TEST_CASE("the structural check sees a damaged CombinLca", "[lca]") {
    for (const MachineTree& tree : {degrees({1, 4, 1, 1, 9, 2, 1, 1, 4}), degrees({3, 90, 2})}) {
        const CombinLca sound(tree);
        REQUIRE(sound.check(tree).empty());
        INFO("representation " << static_cast<int>(sound.representation()));

        // Two slots of a table exchanged.
        std::uint32_t filled = 0, first = 0;
        for (std::uint32_t s = 0; s < CombinLcaMutation::num_slots(sound); ++s) {
            CombinLca probe = sound;
            CombinLcaMutation::swap_slots(probe, 0, s);
            if (s != 0 && !probe.check(tree).empty()) ++filled;
            (void)first;
        }
        CHECK(filled > 0);
        CombinLca swapped = sound;
        const CombinLca::Level& l = sound.levels().back();
        CombinLcaMutation::swap_slots(swapped, l.first_slot, l.first_slot + l.num_slots - 1);
        CHECK(!swapped.check(tree).empty());

        // One bit of one id flipped: a PU's, an inner object's, the root's.
        for (ObjectId o : {tree.pu(5), tree.object(tree.pu(5)).parent, ObjectId(0)}) {
            for (std::uint32_t bit : {0u, sound.id_bits() - 1}) {
                CombinLca flipped = sound;
                CombinLcaMutation::flip_id_bit(flipped, o, bit);
                CHECK(!flipped.check(tree).empty());
            }
        }

        // A bit said to belong to another level.
        CombinLca relabelled = sound;
        CombinLcaMutation::set_bit_level(relabelled, 0, 1);
        CHECK(!relabelled.check(tree).empty());

        // A structure built for another tree.
        CHECK(!sound.check(degrees({2, 2})).empty());
    }
}

TEST_CASE("the reciprocal equals % on every id of every level built here", "[lca]") {
    std::vector<MachineTree> trees;
    for (auto g : std::vector<std::vector<std::uint32_t>>{{2, 1, 1, 8, 1, 1, 1, 2},
                                                          {8, 1, 1, 6, 1, 1, 1},
                                                          {4, 4, 1, 3, 2, 1, 1, 1},
                                                          {2, 2, 1, 5, 1, 1, 1, 1, 8},
                                                          {1, 4, 1, 1, 9, 2, 1, 1, 4},
                                                          {61},
                                                          {2, 30, 1, 30}})
        trees.push_back(tree_from_degrees(g));
    for (const std::string& file : test::real_xmls()) trees.push_back(load_hwloc_xml(file).tree);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 200; ++i) trees.push_back(random_tree(rng, 1 + i % 12, 2 + i % 7, 0.2));
    std::uint64_t ids_checked = 0;
    for (const MachineTree& tree : trees) {
        const CombinLca c(tree);
        if (c.representation() != Rep::narrow && c.representation() != Rep::wide) continue;
        CHECK(c.reciprocal_mismatches() == 0);
        // And independently of reciprocal_mismatches(): every hashed id, by
        // the query formula, against %.
        __extension__ typedef unsigned __int128 u128;
        for (const CombinLca::Level& l : c.levels()) {
            CHECK(l.num_slots <= l.modulus);
            for (std::uint32_t i = 0; i < tree.num_objects(); ++i) {
                const TreeObject& o = tree.object(ObjectId(i));
                if (o.depth != l.depth || tree.children(ObjectId(i)).empty()) continue;
                // The object's id, rebuilt from the path to the root.
                std::uint64_t id = 0;
                for (ObjectId x = ObjectId(i); tree.object(x).parent.valid();
                     x = tree.object(x).parent) {
                    const ObjectId p = tree.object(x).parent;
                    for (const CombinLca::Level& pl : c.levels())
                        if (pl.depth == tree.object(p).depth) {
                            const auto kids = tree.children(p);
                            const auto rank = std::find(kids.begin(), kids.end(), x) - kids.begin();
                            id |= std::uint64_t(1) << (pl.first_bit + rank);
                        }
                }
                const std::uint64_t v = id + l.offset;
                const auto q = static_cast<std::uint64_t>((u128(v) * l.reciprocal) >> l.shift);
                REQUIRE(v - q * l.modulus == v % l.modulus);
                if (c.representation() == Rep::narrow) REQUIRE(v * l.reciprocal >> l.shift == q);
                ++ids_checked;
            }
        }
    }
    CHECK(ids_checked > 1000);
}
