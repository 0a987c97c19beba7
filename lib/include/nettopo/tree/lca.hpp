/// \file
/// Deepest common ancestor of two PUs of a machine tree, four ways (seed 001,
/// the CombinACMP thesis, chapter 4): AscendLca and OndulLca climb parent
/// links, MatrixLca reads an O(N^2) table, CombinLca finds the ancestor's id
/// from the bits two PU ids share and looks it up in a collision-free hash.
/// Every class answers for PUs given by logical index (0..num_pus-1) and
/// returns the ancestor's ObjectId; the same PU twice gives that PU.
/// AscendLca is the reference: verify_lca compares the others to it.
///
/// \threads Every class here is built once, then its const calls may be made
/// from several threads at once; the free functions are safe from several
/// threads at once.
/// \cost Each call states its time. Queries and the O(1) accessors allocate
/// nothing and throw nothing (precondition: PU indexes in range); building
/// allocates (std::bad_alloc).
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace nettopo {

/// Climb the deeper PU to the other's depth, then both until they meet:
/// MachineTree::common_ancestor. O(height). Keeps a pointer to the tree.
class AscendLca {
public:
    /// Answers for `tree`, which must outlive it. O(1).
    explicit AscendLca(const MachineTree& tree) : tree_(&tree) {}
    /// The deepest object holding PUs `pu_a` and `pu_b`. O(height).
    ObjectId query(std::uint32_t pu_a, std::uint32_t pu_b) const {
        return tree_->common_ancestor(tree_->pu(pu_a), tree_->pu(pu_b));
    }

private:
    const MachineTree* tree_;
};

/// hwloc's loop (hwloc_get_common_ancestor_obj): lift whichever is deeper;
/// when at one depth and still different, lift both. O(height). Keeps a
/// pointer to the tree.
class OndulLca {
public:
    /// Answers for `tree`, which must outlive it. O(1).
    explicit OndulLca(const MachineTree& tree) : tree_(&tree) {}
    /// The deepest object holding PUs `pu_a` and `pu_b`. O(height).
    ObjectId query(std::uint32_t pu_a, std::uint32_t pu_b) const;

private:
    const MachineTree* tree_;
};

/// Lower triangle (diagonal included) of the N x N table of ancestors by
/// object id: one load per query, N(N+1)/2 ids of memory. Throws UsageError
/// for trees of more than max_objects objects.
class MatrixLca {
public:
    static constexpr std::size_t max_objects = 8192; ///< largest tree accepted
    /// The table of `tree`: O(N^2) time and memory; UsageError past max_objects.
    explicit MatrixLca(const MachineTree& tree);
    /// The deepest object holding PUs `pu_a` and `pu_b`. O(1), one load.
    ObjectId query(std::uint32_t pu_a, std::uint32_t pu_b) const {
        std::uint32_t i = pu_object_[pu_a], j = pu_object_[pu_b];
        if (i < j) std::swap(i, j);
        return table_[std::size_t(i) * (i + 1) / 2 + j];
    }
    /// Bytes of the table. O(1).
    std::size_t table_bytes() const { return table_.size() * sizeof(ObjectId); }

private:
    std::vector<std::uint32_t> pu_object_;
    std::vector<ObjectId> table_;
};

/// One problem found by a structural check, in words.
using LcaProblems = std::vector<std::string>;

/// CombinACMP. Ids: one bit per child slot of each level (depth), the level's
/// width being the most children any object at that depth has; levels whose
/// objects have at most one child take no bits (their objects are never the
/// ancestor of two distinct PUs). An object's id is its parent's id plus the
/// bit of its slot, so ancestors' ids are the low bits of descendants' ids.
/// Query: dif = a ^ b; bit = dif & -dif; id = a & (bit - 1);
/// level = bit_to_level[ctz(bit)]; slot = hash(level, id) where hash(v) =
/// (id + offset) mod m, m the smallest modulus keeping the level's ids apart,
/// the offset minimising the table, and mod computed by a multiply-shift
/// reciprocal checked exact on every id of the level.
/// Ids of up to 62 bits use one word (a 64-bit product when it cannot
/// overflow, else a 128-bit one); wider trees switch to multi-word ids,
/// O(words) per query, picked here, never refused. Self-contained (no
/// pointer to the tree), so it can live beside the tree it was built from.
class CombinLca {
public:
    /// How the ids and the hash are held (chosen when built).
    enum class Representation : std::uint8_t {
        narrow,     ///< one word, 64-bit reciprocal product
        wide,       ///< one word, 128-bit reciprocal product
        multi_word, ///< ids over several words, modulo by division
        ascend,     ///< no collision-free hash within the search cap: parent walk
    };

    /// Largest modulus tried per level before giving up on a hash (then the
    /// tree is answered by climbing parents; never seen on a real tree).
    static constexpr std::uint32_t default_max_modulus = 1u << 22;

    /// Builds the ids and each level's hash for `tree`: O(objects x moduli
    /// tried), in practice linear in the tree. Throws only std::bad_alloc.
    explicit CombinLca(const MachineTree& tree, std::uint32_t max_modulus = default_max_modulus);

    /// The deepest object holding PUs `pu_a` and `pu_b`: O(1) (a few loads and
    /// a multiplication; O(words) for multi-word ids, O(height) for ascend).
    ObjectId query(std::uint32_t pu_a, std::uint32_t pu_b) const {
        switch (representation_) {
        case Representation::narrow:
            return query_word<false>(pu_a, pu_b);
        case Representation::wide:
            return query_word<true>(pu_a, pu_b);
        default:
            return query_slow(pu_a, pu_b);
        }
    }

    /// The representation chosen. O(1).
    Representation representation() const { return representation_; }
    /// Bits of an id. O(1).
    std::uint32_t id_bits() const { return id_bits_; }
    /// Hashed levels. O(1).
    std::uint32_t num_levels() const { return static_cast<std::uint32_t>(levels_.size()); }
    /// Bytes of the query's tables (leaf ids, bit_to_level, levels, slots). O(1).
    std::size_t table_bytes() const;

    /// The hash of one level, as built.
    struct Level {
        std::uint64_t offset = 0;      ///< added to the id before the modulo
        std::uint64_t reciprocal = 0;  ///< floor(v / m) == (v * reciprocal) >> shift
        std::uint32_t shift = 0;       ///< the reciprocal's shift
        std::uint32_t modulus = 1;     ///< m, the level's slots
        std::uint32_t first_slot = 0;  ///< where the level's slots start in slots_
        std::uint32_t depth = 0;       ///< tree depth of the level's objects
        std::uint32_t num_slots = 0;   ///< slots of the level's table
        std::uint32_t first_bit = 0;   ///< the level's child slots: bits [first_bit, +width)
        std::uint32_t width = 0;       ///< the most children of an object of the level
        std::uint64_t word_factor = 0; ///< multi-word only: 2^64 mod m
    };
    /// The levels' hashes, as built. O(1), a view of the object's own array.
    std::span<const Level> levels() const { return levels_; }

    /// Every id of every level (offset added) reduced by the reciprocal and by
    /// %: the number of ids where they differ (0 for a sound build). O(ids).
    std::uint64_t reciprocal_mismatches() const;

    /// Structural check: every hashed object sits at its slot and nothing
    /// else does, ids extend their parent's id by one bit of the parent
    /// level's slots, bit_to_level maps each level's bits to it, and the
    /// reciprocal equals % on every id. Empty when sound; at most 100
    /// problems. O(objects + slots). Reports problems instead of throwing
    /// (std::bad_alloc aside), so it runs on any input.
    LcaProblems check(const MachineTree& tree) const;

    /// Tests damage the built structure on purpose (lib/src/tree/lca_mutation.hpp).
    friend struct CombinLcaMutation;

private:
    template <bool Wide> ObjectId query_word(std::uint32_t pu_a, std::uint32_t pu_b) const;
    ObjectId query_slow(std::uint32_t pu_a, std::uint32_t pu_b) const;
    std::uint64_t slot_of(const Level& l, std::span<const std::uint64_t> id) const;
    std::span<const std::uint64_t> id_of(ObjectId o) const {
        return {ids_.data() + std::size_t(o.value) * words_, words_};
    }

    Representation representation_ = Representation::narrow;
    std::uint32_t id_bits_ = 0;
    std::uint32_t words_ = 1; ///< 64-bit words per id
    /// Per object, words_ words each (all objects, so check() can see them).
    std::vector<std::uint64_t> ids_;
    /// Per PU (logical index): the PU's id in one word (one-word representations).
    std::vector<std::uint64_t> pu_word_;
    std::vector<ObjectId> pus_;              ///< PU logical index -> object
    std::vector<std::uint8_t> bit_to_level_; ///< id bit -> index in levels_
    std::vector<Level> levels_;
    std::vector<ObjectId> slots_; ///< all levels' tables, one after the other
    /// Per id bit, a copy of its level's hash (one-word representations): the
    /// query's bit_to_level + levels lookup in one 32-byte load.
    struct BitHash {
        std::uint64_t offset, reciprocal;
        std::uint32_t shift, modulus, first_slot, unused;
    };
    std::vector<BitHash> bit_hash_;
    /// Only for Representation::ascend.
    std::vector<ObjectId> parent_;
    std::vector<std::uint32_t> depth_;
};

/// The thesis' Algorithm 4, with floor(v / m) by multiply-shift (checked
/// exact on every id of the level when built).
template <bool Wide>
inline ObjectId CombinLca::query_word(std::uint32_t pu_a, std::uint32_t pu_b) const {
    const std::uint64_t a = pu_word_[pu_a];
    const std::uint64_t dif = a ^ pu_word_[pu_b];
    if (dif == 0) return pus_[pu_a];
    const std::uint64_t bit = dif & (0 - dif);
    const std::uint64_t id = a & (bit - 1);
    // bit_to_level_ and levels_ folded into one load: the level's hash of this bit.
    const BitHash& h = bit_hash_[std::countr_zero(dif)];
    const std::uint64_t v = id + h.offset;
    std::uint64_t q;
    if constexpr (Wide) {
        __extension__ typedef unsigned __int128 u128;
        q = static_cast<std::uint64_t>((u128(v) * h.reciprocal) >> h.shift);
    } else {
        q = (v * h.reciprocal) >> h.shift;
    }
    return slots_[h.first_slot + (v - q * h.modulus)];
}

/// The thesis' trees: the root (a Machine) has degrees[0] children, each of
/// those degrees[1], ...; the last level's objects are PUs, the others Groups
/// (degree-1 levels kept as objects). Throws UsageError for an empty list, a
/// zero degree, more than max_tree_depth levels or more than 2^24 objects.
/// O(objects x levels) (MachineTree::Builder::finish).
MachineTree tree_from_degrees(std::span<const std::uint32_t> degrees);

/// Compares MatrixLca (when the tree allows it), OndulLca and CombinLca to
/// AscendLca on every pair of PUs (a <= b).
struct LcaVerification {
    std::uint64_t pairs = 0;      ///< pairs compared
    std::uint64_t mismatches = 0; ///< pairs where some structure differs
    std::string first_mismatch;   ///< "combin: PU 3, PU 17: 42 instead of 12"; empty if none
};
/// Runs the comparison of LcaVerification on `tree`: O(PUs^2 x height), plus
/// building the structures (MatrixLca's O(objects^2) when it fits); throws
/// only std::bad_alloc.
LcaVerification verify_lca(const MachineTree& tree);

} // namespace nettopo
