// Single-source rows of the folded core: hop counts (BFS) and latencies
// (Dijkstra, integer picoseconds) from one core vertex to all, the unit of
// work of the dense table's all-pairs fill and of the row cache.
//
// for_each_core_row runs one BFS and one Dijkstra per source on several
// threads (std::thread, one NetworkSearch per thread, sources handed out by
// an atomic counter); each row is consumed by the thread that computed it,
// so consumers writing disjoint rows need no lock, and the result does not
// depend on the number of threads. When every core link has the same
// latency, latency = hops x that latency and the Dijkstra is skipped.
#pragma once

#include "nettopo/model/progress.hpp"
#include "nettopo/query/network_search.hpp"
#include "query/index/folded_core.hpp"

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace nettopo::detail {

struct CoreRow {
    std::vector<std::uint32_t> hops;      // no_hops where unreachable
    std::vector<std::int64_t> latency_ps; // no_ps where unreachable; empty if not asked for
};

// hops x latency of every link, for a core whose links all have one latency.
inline std::int64_t uniform_latency(std::uint32_t hops, std::int64_t link_ps) {
    if (hops == no_hops) return no_ps;
    if (link_ps > 0 && hops > std::numeric_limits<std::int64_t>::max() / link_ps)
        return std::numeric_limits<std::int64_t>::max();
    return hops * link_ps;
}

class CoreRowSearch {
public:
    explicit CoreRowSearch(const FoldedCore& f)
        : core_(&f.core), uniform_ps_(f.uniform_ps), search_(f.core) {}
    // Fills row.hops and, when `latency`, row.latency_ps (from hops on a
    // uniform core, else by Dijkstra).
    void compute(std::uint32_t source, CoreRow& row, bool latency);
    // Bytes of the search state on this core (for the row cache's account).
    static std::size_t state_bytes(const Network& core);

private:
    const Network* core_;
    std::optional<std::int64_t> uniform_ps_;
    NetworkSearch search_;
};

// Calls consume(source, row) for every core vertex, on `threads` threads
// (0: all cores), reporting progress under `stage`. consume runs
// concurrently for different sources.
void for_each_core_row(const FoldedCore& f, bool latency, unsigned threads, Progress* progress,
                       std::string_view stage,
                       const std::function<void(std::uint32_t, const CoreRow&)>& consume);

} // namespace nettopo::detail
