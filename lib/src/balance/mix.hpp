// Small integer helpers the balancing code shares: seed mixing (splitmix64,
// so nearby seeds, steps and PEs draw unrelated streams) and ceil(log2 n)
// (the depth of a reduction tree, DistributedLB's gossip bound).
#pragma once

#include <bit>
#include <cstdint>

namespace nettopo::balance_detail {

inline std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

inline std::uint32_t ceil_log2(std::uint32_t n) {
    return n <= 1 ? 0 : static_cast<std::uint32_t>(std::bit_width(n - 1));
}

} // namespace nettopo::balance_detail
