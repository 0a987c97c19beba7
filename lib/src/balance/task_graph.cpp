#include "nettopo/balance/task_graph.hpp"

#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>
#include <unordered_map>

namespace nettopo {

namespace {

std::uint64_t pair_key(TaskId a, TaskId b) {
    const auto [lo, hi] = std::minmax(a.value, b.value);
    return (std::uint64_t{lo} << 32) | hi;
}

} // namespace

TaskGraph::TaskGraph(std::uint32_t num_tasks, std::span<const TaskEdge> edges)
    : num_tasks_(num_tasks) {
    std::unordered_map<std::uint64_t, std::size_t> slot; // pair -> index in edges_
    slot.reserve(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const TaskEdge& e = edges[i];
        if (e.a.value >= num_tasks || e.b.value >= num_tasks)
            throw UsageError(fmt::format("task edge {}: task {} does not exist ({} tasks)", i,
                                         std::max(e.a.value, e.b.value), num_tasks));
        if (!std::isfinite(e.bytes) || e.bytes < 0)
            throw UsageError(fmt::format("task edge {} ({}-{}): bytes must be a finite number "
                                         ">= 0, not {}",
                                         i, e.a.value, e.b.value, e.bytes));
        if (e.a == e.b) continue;
        const auto [it, fresh] = slot.try_emplace(pair_key(e.a, e.b), edges_.size());
        if (fresh)
            edges_.push_back(e);
        else
            edges_[it->second].bytes += e.bytes;
    }

    offsets_.assign(std::size_t{num_tasks} + 1, 0);
    for (const TaskEdge& e : edges_) {
        ++offsets_[e.a.value + 1];
        ++offsets_[e.b.value + 1];
    }
    std::partial_sum(offsets_.begin(), offsets_.end(), offsets_.begin());
    targets_.resize(offsets_.back());
    bytes_.resize(offsets_.back());
    std::vector<std::uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
    for (const TaskEdge& e : edges_) {
        targets_[fill[e.a.value]] = e.b;
        bytes_[fill[e.a.value]++] = e.bytes;
        targets_[fill[e.b.value]] = e.a;
        bytes_[fill[e.b.value]++] = e.bytes;
    }
    // Partners in increasing id order, bytes following them.
    std::vector<std::pair<TaskId, double>> row;
    for (std::uint32_t t = 0; t < num_tasks; ++t) {
        const std::uint32_t lo = offsets_[t], hi = offsets_[t + 1];
        row.clear();
        for (std::uint32_t i = lo; i < hi; ++i) row.emplace_back(targets_[i], bytes_[i]);
        std::sort(row.begin(), row.end(),
                  [](const auto& x, const auto& y) { return x.first < y.first; });
        for (std::uint32_t i = lo; i < hi; ++i) std::tie(targets_[i], bytes_[i]) = row[i - lo];
    }
}

double TaskGraph::total_bytes(TaskId t) const {
    const auto b = bytes(t);
    return std::accumulate(b.begin(), b.end(), 0.0);
}

} // namespace nettopo
