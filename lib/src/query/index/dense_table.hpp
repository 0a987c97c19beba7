// Dense table: hop count and latency of every pair of core vertices of the
// folded network, filled by the parallel all-pairs fill of core_rows.hpp.
//
// The thesis' memo matrix (an upper triangle without diagonal, here over the
// core only), in the narrowest unsigned types that hold the core's bounds
// exactly (8/16/32-bit hops; 16/32/64-bit latency, or none when every core
// link has one latency and latency = hops x it). The type's largest value
// marks an unreachable pair. O(1) queries; memory O(core^2 / 2).
#pragma once

#include "nettopo/model/progress.hpp"
#include "nettopo/query/distance_index.hpp"
#include "query/index/folded_core.hpp"

#include <cstddef>
#include <memory>

namespace nettopo::detail {

// Pairs of the upper triangle without its diagonal: n (n - 1) / 2, the one
// place it is written (the table's size, the planner's narrowest estimate).
constexpr std::size_t pairs_of(std::uint64_t n) {
    return static_cast<std::size_t>(n * (n - (n > 0)) / 2);
}

// Bytes the table would hold for this core and these bounds.
std::size_t dense_table_bytes(const FoldedCore& f, const CoreBounds& bounds);

std::unique_ptr<DistanceIndex> make_dense_table(FoldedCore f, const CoreBounds& bounds,
                                                unsigned threads, Progress* progress);

// A table kept by its write_kept (kept_index.hpp), after its core.
std::unique_ptr<DistanceIndex> read_dense_table(KeptCore core, ArrayReader& in);

} // namespace nettopo::detail
