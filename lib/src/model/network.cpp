#include "nettopo/model/network.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace nettopo {

std::int64_t to_picoseconds(double ns) {
    return std::llround(ns * 1000.0);
}

Network::Network(std::uint32_t num_machines, std::uint32_t num_switches, std::vector<Link> links)
    : num_machines_(num_machines), num_switches_(num_switches), links_(std::move(links)) {
    const std::uint32_t n = num_vertices();
    offsets_.assign(std::size_t{n} + 1, 0);
    for (const Link& l : links_) {
        ++offsets_[l.a.value + 1];
        ++offsets_[l.b.value + 1];
    }
    std::partial_sum(offsets_.begin(), offsets_.end(), offsets_.begin());
    targets_.resize(offsets_.back());
    latencies_ps_.resize(offsets_.back());
    link_ids_.resize(offsets_.back());
    std::vector<std::uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
    auto put = [&](VertexId from, VertexId to, std::uint32_t id) {
        std::uint32_t at = fill[from.value]++;
        targets_[at] = to;
        link_ids_[at] = id;
    };
    for (std::uint32_t i = 0; i < links_.size(); ++i) {
        put(links_[i].a, links_[i].b, i);
        put(links_[i].b, links_[i].a, i);
    }
    // Neighbours in increasing id order, so traversals (and their tie-breaks)
    // do not depend on the order links were declared in.
    std::vector<std::pair<VertexId, std::uint32_t>> tmp;
    for (std::uint32_t v = 0; v < n; ++v) {
        tmp.clear();
        for (std::uint32_t i = offsets_[v]; i < offsets_[v + 1]; ++i)
            tmp.emplace_back(targets_[i], link_ids_[i]);
        std::sort(tmp.begin(), tmp.end());
        for (std::uint32_t i = offsets_[v], j = 0; i < offsets_[v + 1]; ++i, ++j) {
            targets_[i] = tmp[j].first;
            link_ids_[i] = tmp[j].second;
            latencies_ps_[i] = to_picoseconds(links_[tmp[j].second].latency_ns);
        }
    }
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
