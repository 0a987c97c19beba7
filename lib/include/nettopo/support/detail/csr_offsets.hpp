// The offsets of a CSR list (entries offsets[i]..offsets[i+1] belong to item
// i), checked where they come from a file: the image's names, adjacency,
// folded machines and labels are all indexed through such offsets.
#pragma once

#include <cstdint>
#include <span>

namespace nettopo {

// From 0, never decreasing, ending at `total` (the entries' count): then
// every entry a list names exists.
template <class T> bool valid_csr_offsets(std::span<const T> offsets, std::uint64_t total) {
    if (offsets.empty() || offsets.front() != 0 || offsets.back() != total) return false;
    for (std::size_t i = 1; i < offsets.size(); ++i)
        if (offsets[i] < offsets[i - 1]) return false;
    return true;
}

} // namespace nettopo
