// A test hook, not part of the installed API: damages a built CombinLca on
// purpose so that tests can see CombinLca::check() notice it.
#pragma once

#include "nettopo/tree/lca.hpp"

namespace nettopo {

struct CombinLcaMutation {
    // Exchanges two entries of the flat slot array (all levels' tables).
    static void swap_slots(CombinLca& lca, std::uint32_t slot_a, std::uint32_t slot_b);
    // Flips one bit of an object's id (and of its PU word, for a PU).
    static void flip_id_bit(CombinLca& lca, ObjectId object, std::uint32_t bit);
    // Makes id bit `bit` name level `level`.
    static void set_bit_level(CombinLca& lca, std::uint32_t bit, std::uint8_t level);
    static std::size_t num_slots(const CombinLca& lca) { return lca.slots_.size(); }
};

} // namespace nettopo
