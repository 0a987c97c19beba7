// CombinACMP (seed 001, section 4.1.3 and appendix A): the deepest common
// ancestor of two PUs from the bits their ids share, then a collision-free
// hash per level from the ancestor's id to the object.
//
// Ids: a level is a depth of the tree; its width is the most children any
// object at that depth has. Levels of width >= 2 own `width` consecutive id
// bits; a child's id is its parent's id plus the bit of its rank among its
// parent's children (width-1 levels own no bits: their objects, having at
// most one child, are never the ancestor of two distinct PUs, and their
// child takes their id). The lowest bit where two PU ids differ is a slot
// bit of the level of their deepest common ancestor, and the bits below it
// are that ancestor's id.
//
// Hash (the thesis' Algorithm 5): for the ids of a level's objects that have
// children, the smallest m >= count keeping them distinct mod m; then the
// offset ad rotating the largest gap between residues to the end, so the
// table needs max((id + ad) mod m) + 1 slots; then (id + ad) mod m computed
// as v - ((v * mult) >> shift) * m with mult = ceil(2^shift / m),
// shift = bits(max v) + ceil(log2 m) ("Reciprocal multiplication, a
// tutorial", Jones 2002; the bound |error| < 1/m makes it exact for every
// v < 2^bits(max v)), and checked against % on every id of the level anyway.
#include "nettopo/tree/lca.hpp"

#include <algorithm>
#include <bit>

namespace nettopo {

namespace {

__extension__ typedef unsigned __int128 u128;

// Ids wider than this use words; one spare bit keeps id + offset and the
// reciprocal below 2^64.
constexpr std::uint32_t one_word_bits = 62;

// id mod m for an id of several 64-bit words (low word first); factor = 2^64 mod m.
std::uint64_t mod_words(std::span<const std::uint64_t> id, std::uint64_t m, std::uint64_t factor) {
    std::uint64_t r = 0;
    for (std::size_t k = id.size(); k-- > 0;) r = (r * factor + id[k] % m) % m;
    return r;
}

struct Reciprocal {
    std::uint64_t mult = 0;
    std::uint32_t shift = 0;
    bool exact = false;
    bool narrow = false; // every v * mult fits 64 bits and shift < 64
};

Reciprocal reciprocal_for(std::span<const std::uint64_t> values, std::uint64_t m) {
    Reciprocal r;
    const std::uint64_t max_v =
        values.empty() ? 0 : *std::max_element(values.begin(), values.end());
    const auto bits = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::bit_width(max_v)));
    const auto log_m = static_cast<std::uint32_t>(std::bit_width(m - 1)); // ceil(log2 m)
    r.shift = bits + log_m;
    const u128 mult = ((u128(1) << r.shift) + m - 1) / m;
    if (mult >> 64) return r;
    r.mult = static_cast<std::uint64_t>(mult);
    r.exact = std::all_of(values.begin(), values.end(), [&](std::uint64_t v) {
        return static_cast<std::uint64_t>((u128(v) * r.mult) >> r.shift) == v / m;
    });
    r.narrow = r.shift < 64 && (u128(max_v) * r.mult) >> 64 == 0;
    return r;
}

} // namespace

CombinLca::CombinLca(const MachineTree& tree, std::uint32_t max_modulus) {
    const auto objs = tree.objects();
    const auto n = static_cast<std::uint32_t>(objs.size());
    pus_.resize(tree.num_pus());
    for (std::uint32_t p = 0; p < tree.num_pus(); ++p) pus_[p] = tree.pu(p);

    // Level widths and the bits each level owns.
    std::uint32_t height = 0;
    for (const TreeObject& o : objs) height = std::max(height, o.depth + 1);
    std::vector<std::uint32_t> width(height, 0), first_bit(height, 0);
    for (std::uint32_t i = 0; i < n; ++i)
        width[objs[i].depth] = std::max(
            width[objs[i].depth], static_cast<std::uint32_t>(tree.children(ObjectId(i)).size()));
    for (std::uint32_t d = 0; d < height; ++d)
        if (width[d] >= 2) {
            first_bit[d] = id_bits_;
            Level l;
            l.depth = d;
            l.first_bit = id_bits_;
            l.width = width[d];
            levels_.push_back(l);
            id_bits_ += width[d];
        }
    words_ = std::max<std::uint32_t>(1, (id_bits_ + 63) / 64);
    bit_to_level_.resize(id_bits_);
    for (std::size_t li = 0; li < levels_.size(); ++li)
        for (std::uint32_t b = 0; b < levels_[li].width; ++b)
            bit_to_level_[levels_[li].first_bit + b] = static_cast<std::uint8_t>(li);

    // Ids, parents first (pre-order).
    ids_.assign(std::size_t(n) * words_, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t d = objs[i].depth;
        const auto kids = tree.children(ObjectId(i));
        for (std::uint32_t k = 0; k < kids.size(); ++k) {
            std::uint64_t* child = ids_.data() + std::size_t(kids[k].value) * words_;
            std::copy_n(ids_.data() + std::size_t(i) * words_, words_, child);
            if (width[d] >= 2) {
                const std::uint32_t bit = first_bit[d] + k;
                child[bit / 64] |= std::uint64_t(1) << (bit % 64);
            }
        }
    }

    representation_ =
        id_bits_ <= one_word_bits ? Representation::narrow : Representation::multi_word;
    // One hash per level, over the level's objects that have children.
    std::vector<std::uint32_t> seen; // seen[r] == m: residue r taken while trying m
    bool all_narrow = true, hashed = true;
    for (Level& l : levels_) {
        std::vector<ObjectId> members;
        for (std::uint32_t i = 0; i < n; ++i)
            if (objs[i].depth == l.depth && !tree.children(ObjectId(i)).empty())
                members.push_back(ObjectId(i));
        const auto count = static_cast<std::uint32_t>(members.size());
        std::vector<std::uint64_t> residues(count);
        std::uint32_t m = count;
        for (;; ++m) {
            if (m > max_modulus) break;
            const std::uint64_t factor = static_cast<std::uint64_t>((u128(1) << 64) % m);
            if (seen.size() < m) seen.resize(m, 0);
            bool distinct = true;
            for (std::uint32_t k = 0; k < count && distinct; ++k) {
                residues[k] = mod_words(id_of(members[k]), m, factor);
                distinct = seen[residues[k]] != m;
                seen[residues[k]] = m;
            }
            if (distinct) {
                l.word_factor = factor;
                break;
            }
        }
        if (m > max_modulus) {
            hashed = false;
            break;
        }
        l.modulus = m;
        // Offset: the largest gap between sorted residues (the wrap-around
        // one included) goes to the end of [0, m).
        std::vector<std::uint64_t> image = residues;
        std::sort(image.begin(), image.end());
        std::uint64_t best_gap = m + image.front() - image.back();
        std::uint64_t start = image.front();
        for (std::size_t k = 1; k < image.size(); ++k)
            if (image[k] - image[k - 1] > best_gap) {
                best_gap = image[k] - image[k - 1];
                start = image[k];
            }
        l.offset = (m - start) % m;
        l.num_slots = static_cast<std::uint32_t>(m - best_gap + 1);
        l.first_slot = static_cast<std::uint32_t>(slots_.size());
        slots_.resize(slots_.size() + l.num_slots, ObjectId());
        if (representation_ != Representation::multi_word) {
            std::vector<std::uint64_t> values(count);
            for (std::uint32_t k = 0; k < count; ++k) values[k] = ids_[members[k].value] + l.offset;
            const Reciprocal r = reciprocal_for(values, m);
            if (!r.exact) { // never expected: the bound makes it exact
                representation_ = Representation::multi_word;
            } else {
                l.reciprocal = r.mult;
                l.shift = r.shift;
                all_narrow = all_narrow && r.narrow;
            }
        }
        for (std::uint32_t k = 0; k < count; ++k)
            slots_[l.first_slot + (residues[k] + l.offset) % m] = members[k];
    }
    if (representation_ == Representation::narrow && !all_narrow)
        representation_ = Representation::wide;
    if (!hashed) {
        representation_ = Representation::ascend;
        parent_.resize(n);
        depth_.resize(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            parent_[i] = objs[i].parent;
            depth_[i] = objs[i].depth;
        }
    }
    if (representation_ == Representation::narrow || representation_ == Representation::wide) {
        pu_word_.resize(pus_.size());
        for (std::size_t p = 0; p < pus_.size(); ++p) pu_word_[p] = ids_[pus_[p].value];
        for (std::uint8_t li : bit_to_level_) {
            const Level& l = levels_[li];
            bit_hash_.push_back({l.offset, l.reciprocal, l.shift, l.modulus, l.first_slot, 0});
        }
    }
}

std::uint64_t CombinLca::slot_of(const Level& l, std::span<const std::uint64_t> id) const {
    if (representation_ == Representation::narrow || representation_ == Representation::wide) {
        const std::uint64_t v = id[0] + l.offset;
        const auto q = static_cast<std::uint64_t>((u128(v) * l.reciprocal) >> l.shift);
        return v - q * l.modulus;
    }
    const std::uint64_t r = mod_words(id, l.modulus, l.word_factor) + l.offset;
    return r >= l.modulus ? r - l.modulus : r;
}

ObjectId CombinLca::query_slow(std::uint32_t pu_a, std::uint32_t pu_b) const {
    ObjectId a = pus_[pu_a], b = pus_[pu_b];
    if (representation_ == Representation::ascend) {
        while (depth_[a.value] > depth_[b.value]) a = parent_[a.value];
        while (depth_[b.value] > depth_[a.value]) b = parent_[b.value];
        while (a != b) {
            a = parent_[a.value];
            b = parent_[b.value];
        }
        return a;
    }
    const std::uint64_t* ida = ids_.data() + std::size_t(a.value) * words_;
    const std::uint64_t* idb = ids_.data() + std::size_t(b.value) * words_;
    std::uint32_t k = 0;
    while (k < words_ && ida[k] == idb[k]) ++k;
    if (k == words_) return a;
    const std::uint64_t dif = ida[k] ^ idb[k];
    const Level& l = levels_[bit_to_level_[64 * k + std::countr_zero(dif)]];
    // The ancestor's id: the words below k, and word k below the differing bit.
    std::uint64_t r = (ida[k] & ((dif & (0 - dif)) - 1)) % l.modulus;
    for (std::uint32_t j = k; j-- > 0;) r = (r * l.word_factor + ida[j] % l.modulus) % l.modulus;
    r += l.offset;
    if (r >= l.modulus) r -= l.modulus;
    return slots_[l.first_slot + r];
}

std::size_t CombinLca::table_bytes() const {
    return pu_word_.size() * sizeof(std::uint64_t) + bit_to_level_.size() +
           bit_hash_.size() * sizeof(BitHash) + levels_.size() * sizeof(Level) +
           slots_.size() * sizeof(ObjectId) +
           (representation_ == Representation::multi_word ? ids_.size() * sizeof(std::uint64_t)
                                                          : 0);
}

} // namespace nettopo
