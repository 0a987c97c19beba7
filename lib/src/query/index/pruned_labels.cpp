// Pruned landmark labels (see pruned_labels.hpp).
#include "query/index/pruned_labels.hpp"

#include "nettopo/support/detail/csr_offsets.hpp"
#include "query/index/core_rows.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <limits>
#include <numeric>

namespace nettopo::detail {

namespace {

// Labels of every vertex, flat: entries offsets[v]..offsets[v+1] of hubs and
// dists, hubs (ranks) increasing.
template <class D> struct FlatLabels {
    std::vector<std::uint64_t> offsets{0};
    std::vector<std::uint32_t> hubs;
    std::vector<D> dists;

    std::size_t bytes() const {
        return offsets.capacity() * sizeof(std::uint64_t) + hubs.capacity() * 4 +
               dists.capacity() * sizeof(D);
    }
    // Smallest d(u, h) + d(h, v) over common hubs; `none` when there is none.
    D query(std::uint32_t u, std::uint32_t v, D none) const {
        std::uint64_t i = offsets[u], ie = offsets[u + 1], j = offsets[v], je = offsets[v + 1];
        D best = none;
        while (i < ie && j < je) {
            const std::uint32_t a = hubs[i], b = hubs[j];
            if (a == b) {
                const D d = dists[i++] + dists[j++];
                if (best == none || d < best) best = d;
            } else if (a < b) {
                ++i;
            } else {
                ++j;
            }
        }
        return best;
    }
};

struct Entry32 {
    std::uint32_t hub;
    std::uint32_t dist;
};
struct Entry64 {
    std::uint32_t hub;
    std::int64_t dist;
};

// Builds the labels of one metric. Search(root, visit) runs the search from
// root calling visit(v, d) in nondecreasing d; visit returns false to prune
// (not expand) v. Returns false when the labels exceed `budget`.
template <class D, class Entry> class LabelBuilder {
public:
    LabelBuilder(const std::vector<std::uint32_t>& order, std::size_t entry_bytes)
        : order_(order), rank_(order.size()), labels_(order.size()),
          root_dist_(order.size(), unset), entry_bytes_(entry_bytes) {
        for (std::uint32_t r = 0; r < order.size(); ++r) rank_[order[r]] = r;
    }

    // Processes root rank r with the given search. False: over budget.
    template <class Search>
    bool add_root(std::uint32_t r, Search&& search, std::size_t& used, std::size_t budget) {
        const std::uint32_t root = order_[r];
        for (const Entry& e : labels_[root]) root_dist_[e.hub] = e.dist;
        bool over = false;
        search(root, [&](std::uint32_t v, D d) {
            if (over || rank_[v] < r) return false; // covered when v was the root
            for (const Entry& e : labels_[v])
                if (root_dist_[e.hub] != unset && root_dist_[e.hub] + e.dist <= d) return false;
            labels_[v].push_back({r, d});
            used += entry_bytes_;
            over = used > budget;
            return !over;
        });
        for (const Entry& e : labels_[root]) root_dist_[e.hub] = unset;
        return !over;
    }

    FlatLabels<D> flatten() {
        FlatLabels<D> f;
        std::size_t total = 0;
        for (const auto& l : labels_) total += l.size();
        f.offsets.reserve(labels_.size() + 1);
        f.hubs.reserve(total);
        f.dists.reserve(total);
        for (auto& l : labels_) {
            for (const Entry& e : l) f.hubs.push_back(e.hub), f.dists.push_back(e.dist);
            f.offsets.push_back(f.hubs.size());
            std::vector<Entry>().swap(l);
        }
        return f;
    }

private:
    static constexpr D unset = std::numeric_limits<D>::max();
    const std::vector<std::uint32_t>& order_;
    std::vector<std::uint32_t> rank_;
    std::vector<std::vector<Entry>> labels_;
    std::vector<D> root_dist_; // by hub rank: the root's label, during its search
    std::size_t entry_bytes_;
};

// Search state shared by the BFS and Dijkstra of every root.
class PrunedSearch {
public:
    explicit PrunedSearch(const Network& g) : g_(g), dist_(g.num_vertices(), unreached) {}

    template <class Visit> void bfs(std::uint32_t root, Visit&& visit) {
        queue_.clear();
        queue_.push_back(root);
        dist_[root] = 0;
        for (std::size_t head = 0; head < queue_.size(); ++head) {
            const std::uint32_t v = queue_[head];
            if (!visit(v, static_cast<std::uint32_t>(dist_[v]))) continue;
            for (VertexId w : g_.neighbors(VertexId(v)))
                if (dist_[w.value] == unreached) {
                    dist_[w.value] = dist_[v] + 1;
                    queue_.push_back(w.value);
                }
        }
        for (std::uint32_t v : queue_) dist_[v] = unreached;
    }

    template <class Visit> void dijkstra(std::uint32_t root, Visit&& visit) {
        queue_.clear(); // here: every vertex whose dist_ was set
        heap_.clear();
        dist_[root] = 0;
        queue_.push_back(root);
        heap_.push_back({0, root});
        const auto later = [](const Item& a, const Item& b) {
            return a.dist != b.dist ? a.dist > b.dist : a.v > b.v;
        };
        while (!heap_.empty()) {
            std::pop_heap(heap_.begin(), heap_.end(), later);
            const Item top = heap_.back();
            heap_.pop_back();
            if (top.dist != dist_[top.v] || settled(top.v)) continue;
            mark_settled(top.v);
            if (!visit(top.v, top.dist)) continue;
            const auto targets = g_.neighbors(VertexId(top.v));
            const auto weights = g_.neighbor_latencies_ps(VertexId(top.v));
            for (std::size_t i = 0; i < targets.size(); ++i) {
                const std::uint32_t w = targets[i].value;
                const std::int64_t d = add_ps(top.dist, weights[i]);
                if (settled(w)) continue;
                if (dist_[w] == unreached)
                    queue_.push_back(w);
                else if (d >= dist_[w])
                    continue;
                dist_[w] = d;
                heap_.push_back({d, w});
                std::push_heap(heap_.begin(), heap_.end(), later);
            }
        }
        for (std::uint32_t v : queue_) dist_[v] = unreached;
        for (std::uint32_t v : settled_list_) settled_flag_[v] = 0;
        settled_list_.clear();
    }

private:
    static constexpr std::int64_t unreached = -1;
    struct Item {
        std::int64_t dist;
        std::uint32_t v;
    };
    bool settled(std::uint32_t v) const { return !settled_flag_.empty() && settled_flag_[v]; }
    void mark_settled(std::uint32_t v) {
        if (settled_flag_.empty()) settled_flag_.assign(g_.num_vertices(), 0);
        settled_flag_[v] = 1;
        settled_list_.push_back(v);
    }

    const Network& g_;
    std::vector<std::int64_t> dist_;
    std::vector<std::uint32_t> queue_;
    std::vector<Item> heap_;
    std::vector<std::uint8_t> settled_flag_;
    std::vector<std::uint32_t> settled_list_;
};

constexpr std::uint32_t shape_tag = array_tag("LSHP");
constexpr std::uint32_t hop_tags[3] = {array_tag("LHOF"), array_tag("LHHU"), array_tag("LHDI")};
constexpr std::uint32_t ps_tags[3] = {array_tag("LLOF"), array_tag("LLHU"), array_tag("LLDI")};

template <class D>
void write_flat(const FlatLabels<D>& l, const std::uint32_t (&tags)[3], ArrayWriter& out) {
    out.array(tags[0], l.offsets);
    out.array(tags[1], l.hubs);
    out.array(tags[2], l.dists);
}

// Labels of n vertices (a uniform core's latency labels are all empty).
template <class D>
FlatLabels<D> read_flat(ArrayReader& in, const std::uint32_t (&tags)[3], std::uint32_t n) {
    FlatLabels<D> l;
    l.offsets = in.array<std::uint64_t>(tags[0], std::uint64_t{n} + 1);
    l.hubs = in.array<std::uint32_t>(tags[1]);
    l.dists = in.array<D>(tags[2], l.hubs.size());
    if (l.offsets.size() != std::uint64_t{n} + 1 ||
        !valid_csr_offsets<std::uint64_t>(l.offsets, l.hubs.size()) ||
        l.dists.size() != l.hubs.size())
        in.fail(tags[0], "does not match its hubs");
    // Two distances are added: each must leave room for the other.
    for (const D d : l.dists)
        if (static_cast<std::uint64_t>(d) >= std::uint64_t{1} << (8 * sizeof(D) - 2))
            in.fail(tags[2], "holds a distance out of range");
    return l;
}

class PrunedLabels final : public FoldedIndex<PrunedLabels> {
public:
    PrunedLabels(FoldedCore f, FlatLabels<std::uint32_t> hops, FlatLabels<std::int64_t> latency)
        : FoldedIndex(f), uniform_ps_(f.uniform_ps), hops_(std::move(hops)),
          latency_(std::move(latency)) {}
    PrunedLabels(KeptCore& k, FlatLabels<std::uint32_t> hops, FlatLabels<std::int64_t> latency)
        : FoldedIndex(k), uniform_ps_(k.uniform_ps), hops_(std::move(hops)),
          latency_(std::move(latency)) {}

    bool can_keep() const override { return true; }
    void write_kept(ArrayWriter& out) const override {
        write_core(out, uniform_ps_);
        out.value(shape_tag, num_core());
        write_flat(hops_, hop_tags, out);
        write_flat(latency_, ps_tags, out);
    }

    std::string description() const override {
        const double n = static_cast<double>(hops_.offsets.size() - 1);
        std::string s =
            fmt::format("pruned landmark labels: {}, {:.1f} hop hubs per vertex", core_summary(),
                        n > 0 ? static_cast<double>(hops_.hubs.size()) / n : 0.0);
        if (uniform_ps_)
            s += fmt::format(", latency = hops x {} ps", *uniform_ps_);
        else
            s += fmt::format(", {:.1f} latency hubs per vertex",
                             n > 0 ? static_cast<double>(latency_.hubs.size()) / n : 0.0);
        return s + ", " + format_bytes(memory_bytes());
    }
    DistanceIndexKind kind() const override { return DistanceIndexKind::Labels; }
    std::size_t memory_bytes() const override {
        return sizeof(*this) + machine_bytes() + hops_.bytes() + latency_.bytes();
    }

    std::uint32_t core_hops(std::uint32_t u, std::uint32_t v) const {
        return hops_.query(u, v, no_hops);
    }
    std::int64_t core_ps(std::uint32_t u, std::uint32_t v) const {
        if (uniform_ps_) return uniform_latency(core_hops(u, v), *uniform_ps_);
        return latency_.query(u, v, no_ps);
    }

private:
    std::optional<std::int64_t> uniform_ps_;
    FlatLabels<std::uint32_t> hops_;
    FlatLabels<std::int64_t> latency_;
};

} // namespace

std::unique_ptr<DistanceIndex> read_labels(KeptCore k, ArrayReader& in) {
    if (in.value<std::uint32_t>(shape_tag) != k.num_core) in.fail(shape_tag, "does not match");
    auto hops = read_flat<std::uint32_t>(in, hop_tags, k.num_core);
    auto latency = read_flat<std::int64_t>(in, ps_tags, k.num_core);
    return std::make_unique<PrunedLabels>(k, std::move(hops), std::move(latency));
}

LabelsOutcome make_labels(FoldedCore& f, std::size_t budget_bytes, Progress* progress) {
    const Network& g = f.core;
    const std::uint32_t n = g.num_vertices();
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return g.degree(VertexId(a)) > g.degree(VertexId(b));
    });

    // Fixed part: the per-machine table and the offsets of both label sets.
    LabelsOutcome out;
    out.bytes = sizeof(PrunedLabels) + f.machine_bytes() + 2 * (std::size_t{n} + 1) * 8;
    if (out.bytes > budget_bytes) return out;

    PrunedSearch search(g);
    LabelBuilder<std::uint32_t, Entry32> hop_labels(order, 4 + 4);
    LabelBuilder<std::int64_t, Entry64> latency_labels(order, 4 + 8);
    const bool weighted = !f.uniform_ps;
    ProgressTicker tick(progress, "pruned landmark labels", n, 64);
    for (std::uint32_t r = 0; r < n; ++r) {
        auto bfs = [&](std::uint32_t root, auto&& visit) { search.bfs(root, visit); };
        auto dijkstra = [&](std::uint32_t root, auto&& visit) { search.dijkstra(root, visit); };
        if (!hop_labels.add_root(r, bfs, out.bytes, budget_bytes)) return out;
        if (weighted && !latency_labels.add_root(r, dijkstra, out.bytes, budget_bytes)) return out;
        out.roots_done = r + 1;
        tick(r + 1);
    }
    FlatLabels<std::uint32_t> hops = hop_labels.flatten();
    FlatLabels<std::int64_t> latency = latency_labels.flatten();
    out.index = std::make_unique<PrunedLabels>(std::move(f), std::move(hops), std::move(latency));
    out.bytes = out.index->memory_bytes();
    return out;
}

} // namespace nettopo::detail
