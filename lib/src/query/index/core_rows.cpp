// Rows of the folded core and the parallel all-pairs fill (see core_rows.hpp).
#include "query/index/core_rows.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

namespace nettopo::detail {

void CoreRowSearch::compute(std::uint32_t source, CoreRow& row, bool latency) {
    const std::uint32_t n = core_->num_vertices();
    search_.hops_from(VertexId(source), row.hops); // its unreachable mark is no_hops
    if (!latency) {
        row.latency_ps.clear();
        return;
    }
    row.latency_ps.resize(n);
    if (uniform_ps_) {
        for (std::uint32_t t = 0; t < n; ++t)
            row.latency_ps[t] = uniform_latency(row.hops[t], *uniform_ps_);
        return;
    }
    // The search resumes from where the previous target left it: one
    // Dijkstra for the whole row.
    for (std::uint32_t t = 0; t < n; ++t) {
        if (row.hops[t] == no_hops) {
            row.latency_ps[t] = no_ps;
            continue;
        }
        row.latency_ps[t] = *search_.latency_ps(VertexId(source), VertexId(t));
    }
}

std::size_t CoreRowSearch::state_bytes(const Network& core) {
    // NetworkSearch: stamp, done, dist, parent, queue, heap (at most 2 links' worth).
    const std::size_t n = core.num_vertices(), ends = 2 * core.num_links();
    return n * (4 + 1 + 8 + 4 + 4) + (ends + 1) * 16;
}

void for_each_core_row(const FoldedCore& f, bool latency, unsigned threads, Progress* progress,
                       std::string_view stage,
                       const std::function<void(std::uint32_t, const CoreRow&)>& consume) {
    const std::uint32_t n = f.num_core();
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = std::max(1u, std::min<unsigned>(threads, n));
    // Below ~a millisecond of searching, starting threads costs more than it saves.
    const std::uint64_t cost = std::uint64_t{n} * (n + 2 * f.core.num_links());
    if (cost < (std::uint64_t{1} << 18)) threads = 1;

    std::atomic<std::uint32_t> next{0}, done{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto work = [&](bool reporter) {
        try {
            ProgressTicker tick(reporter ? progress : nullptr, stage, n, 64);
            CoreRowSearch search(f);
            CoreRow row;
            for (std::uint32_t s; (s = next.fetch_add(1, std::memory_order_relaxed)) < n;) {
                search.compute(s, row, latency);
                consume(s, row);
                tick(done.fetch_add(1, std::memory_order_relaxed) + 1);
            }
        } catch (...) {
            const std::lock_guard lock(failure_mutex);
            if (!failure) failure = std::current_exception();
            next.store(n); // the others stop at their next row
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(threads - 1);
    for (unsigned t = 1; t < threads; ++t) {
        try {
            pool.emplace_back(work, false);
        } catch (const std::system_error&) { // no more threads: fewer do the work
            break;
        }
    }
    work(true);
    for (std::thread& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
    // The reporting thread may have found every row taken (a busy machine
    // can run the others first): the whole count is reported once in any case.
    if (progress) progress->update(stage, n, n);
}

} // namespace nettopo::detail
