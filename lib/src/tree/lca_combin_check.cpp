// Structural check of a built CombinLca (the thesis' correctness test, section
// 4.1.3): every hashed object sits at the slot its id hashes to and nothing
// else occupies a slot, every id is its parent's id plus one slot bit of the
// parent's level, bit_to_level names the level owning each bit, and the
// multiply-shift reciprocal equals % on every id of every level. It reports
// problems as text and never throws, so a benchmark can run it on any input.
// Also the mutation hooks its tests use to see it fail.
#include "nettopo/tree/lca.hpp"
#include "tree/lca_mutation.hpp"

#include <fmt/format.h>
#include <utility>

namespace nettopo {

namespace {
bool one_word(CombinLca::Representation r) {
    return r == CombinLca::Representation::narrow || r == CombinLca::Representation::wide;
}
} // namespace

std::uint64_t CombinLca::reciprocal_mismatches() const {
    if (!one_word(representation_)) return 0;
    __extension__ typedef unsigned __int128 u128;
    std::uint64_t bad = 0;
    for (const Level& l : levels_)
        for (std::uint32_t s = 0; s < l.num_slots; ++s) {
            const ObjectId o = slots_[l.first_slot + s];
            if (!o.valid() || o.value >= ids_.size()) continue;
            const std::uint64_t v = ids_[o.value] + l.offset;
            const std::uint64_t q =
                representation_ == Representation::narrow
                    ? (v * l.reciprocal) >> l.shift
                    : static_cast<std::uint64_t>((u128(v) * l.reciprocal) >> l.shift);
            bad += q != v / l.modulus;
        }
    return bad;
}

LcaProblems CombinLca::check(const MachineTree& tree) const {
    LcaProblems problems;
    auto problem = [&](std::string text) {
        if (problems.size() < 100) problems.push_back(std::move(text));
    };
    const auto objs = tree.objects();
    if (ids_.size() != objs.size() * words_ || pus_.size() != tree.num_pus()) {
        problem("built for another tree (object or PU count differs)");
        return problems;
    }
    if (representation_ == Representation::ascend) {
        for (std::size_t i = 0; i < objs.size(); ++i)
            if (parent_[i] != objs[i].parent || depth_[i] != objs[i].depth)
                problem(fmt::format("object {}: parent or depth differs from the tree", i));
        return problems;
    }
    // Which level owns the bits of each depth.
    std::vector<int> level_of_depth(max_tree_depth + 1, -1);
    for (std::size_t li = 0; li < levels_.size(); ++li)
        level_of_depth[levels_[li].depth] = static_cast<int>(li);

    // bit_to_level.
    if (bit_to_level_.size() != id_bits_) problem("bit_to_level does not cover every id bit");
    for (std::size_t li = 0; li < levels_.size(); ++li)
        for (std::uint32_t b = levels_[li].first_bit;
             b < levels_[li].first_bit + levels_[li].width && b < bit_to_level_.size(); ++b)
            if (bit_to_level_[b] != li)
                problem(fmt::format("bit {} maps to level {}, owned by level {}", b,
                                    bit_to_level_[b], li));

    // The query's per-bit copies of the levels' hashes.
    if (one_word(representation_)) {
        if (bit_hash_.size() != bit_to_level_.size())
            problem("per-bit hashes do not cover every bit");
        for (std::size_t b = 0; b < bit_hash_.size() && b < bit_to_level_.size(); ++b) {
            const BitHash& h = bit_hash_[b];
            if (bit_to_level_[b] >= levels_.size()) {
                problem(fmt::format("bit {} maps to no level", b));
                continue;
            }
            const Level& l = levels_[bit_to_level_[b]];
            if (h.offset != l.offset || h.reciprocal != l.reciprocal || h.shift != l.shift ||
                h.modulus != l.modulus || h.first_slot != l.first_slot)
                problem(fmt::format("bit {}: the query's hash differs from level {}'s", b,
                                    bit_to_level_[b]));
        }
    }

    // Ids extend their parent's id by one slot bit.
    std::vector<std::uint64_t> expect(words_);
    for (std::uint32_t i = 0; i < objs.size(); ++i) {
        const auto id = id_of(ObjectId(i));
        std::fill(expect.begin(), expect.end(), 0);
        if (objs[i].parent.valid()) {
            const ObjectId p = objs[i].parent;
            const auto pid = id_of(p);
            std::copy(pid.begin(), pid.end(), expect.begin());
            const int li = level_of_depth[objs[p.value].depth];
            if (li >= 0) {
                const auto kids = tree.children(p);
                const auto rank = static_cast<std::uint32_t>(
                    std::find(kids.begin(), kids.end(), ObjectId(i)) - kids.begin());
                const std::uint32_t bit = levels_[li].first_bit + rank;
                expect[bit / 64] |= std::uint64_t(1) << (bit % 64);
            }
        }
        if (!std::equal(id.begin(), id.end(), expect.begin()))
            problem(fmt::format("object {}: id is not its parent's id plus its slot bit", i));
    }
    if (one_word(representation_))
        for (std::size_t p = 0; p < pus_.size(); ++p)
            if (pu_word_[p] != ids_[pus_[p].value])
                problem(fmt::format("PU {}: query word differs from its id", p));

    // Every hashed object at its slot, nothing else in the tables.
    std::size_t hashed = 0;
    for (std::uint32_t i = 0; i < objs.size(); ++i) {
        const int li = level_of_depth[objs[i].depth];
        if (li < 0 || tree.children(ObjectId(i)).empty()) continue;
        ++hashed;
        const Level& l = levels_[li];
        const std::uint64_t slot = slot_of(l, id_of(ObjectId(i)));
        if (slot >= l.num_slots)
            problem(fmt::format("object {}: hashes past its level's table", i));
        else if (slots_[l.first_slot + slot] != ObjectId(i))
            problem(fmt::format("object {}: not at its hashed slot {} of level {}", i, slot, li));
    }
    const auto filled = static_cast<std::size_t>(
        std::count_if(slots_.begin(), slots_.end(), [](ObjectId o) { return o.valid(); }));
    if (filled != hashed)
        problem(fmt::format("{} slots filled for {} hashed objects", filled, hashed));
    if (const std::uint64_t bad = reciprocal_mismatches())
        problem(fmt::format("reciprocal differs from % on {} ids", bad));
    return problems;
}

void CombinLcaMutation::swap_slots(CombinLca& lca, std::uint32_t slot_a, std::uint32_t slot_b) {
    std::swap(lca.slots_.at(slot_a), lca.slots_.at(slot_b));
}

void CombinLcaMutation::flip_id_bit(CombinLca& lca, ObjectId object, std::uint32_t bit) {
    lca.ids_.at(std::size_t(object.value) * lca.words_ + bit / 64) ^= std::uint64_t(1)
                                                                      << (bit % 64);
    for (std::size_t p = 0; p < lca.pus_.size(); ++p)
        if (lca.pus_[p] == object && p < lca.pu_word_.size())
            lca.pu_word_[p] ^= std::uint64_t(1) << (bit % 64);
}

void CombinLcaMutation::set_bit_level(CombinLca& lca, std::uint32_t bit, std::uint8_t level) {
    lca.bit_to_level_.at(bit) = level;
    if (bit < lca.bit_hash_.size()) { // what the query reads, damaged alike
        const CombinLca::Level& l = lca.levels_.at(level);
        lca.bit_hash_[bit] = {l.offset, l.reciprocal, l.shift, l.modulus, l.first_slot, 0};
    }
}

} // namespace nettopo
