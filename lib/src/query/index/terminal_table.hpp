// Terminal table: the dense table of the folded core restricted to its
// terminals, the core vertices that machines stand on (a machine left in
// the core, or the anchor of a folded machine). Queries only ever ask
// distances between terminals, so the table needs neither the rows nor the
// columns of the other core vertices: on a fat-tree of hosts under switches
// only the leaf switches (32,768 of 131,072 at k=32, n=4).
//
// Each pair (upper triangle, no diagonal) holds a 4- or 8-bit code into a
// dictionary of the distinct hop counts met (all ones: unreachable); the
// latency is hops x the one link latency. Built only for a core whose links
// all have one latency (FoldedCore::uniform_ps, checked by fold_network), by
// bit-parallel breadth-first searches: 256 terminals' searches at once, one
// bit each in a word per vertex (a level pushes a small frontier to its
// neighbours, else every vertex not yet reached by all pulls from its
// neighbours), parallel over batches of sources. With
// several latencies, or more than 255 distinct hop counts, it is not built
// (make_terminal_table returns nothing) and the general index goes on as
// before.
#pragma once

#include "nettopo/model/progress.hpp"
#include "nettopo/query/distance_index.hpp"
#include "query/index/folded_core.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace nettopo::detail {

// The record that starts a kept terminal table (after its core), told
// apart from a full dense table's by read_dense_table.
inline constexpr std::uint32_t terminal_shape_tag = array_tag("TSHP");

// The core vertices machines stand on, increasing.
std::vector<std::uint32_t> core_terminals(const FoldedCore& f);
// Bytes of f's table over `terminals` terminals at its narrowest (4-bit codes).
std::size_t terminal_table_min_bytes(const FoldedCore& f, std::uint32_t terminals);

// The table for f, or nothing when f's core has several latencies, when the
// table at its narrowest (4-bit codes) would exceed `budget` bytes or when
// the hop counts need more than 8-bit codes. Takes f's machines only when
// it returns a table.
std::unique_ptr<DistanceIndex> make_terminal_table(FoldedCore& f, std::size_t budget,
                                                   unsigned threads, Progress* progress);

// A table kept by its write_kept, after its core (codes viewed in the
// reader's mapping, not copied).
std::unique_ptr<DistanceIndex> read_terminal_table(KeptCore core, ArrayReader& in);

} // namespace nettopo::detail
