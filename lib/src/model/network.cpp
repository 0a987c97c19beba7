#include "nettopo/model/network.hpp"

#include "nettopo/support/detail/array_file.hpp"
#include "nettopo/support/detail/csr_offsets.hpp"
#include "nettopo/support/detail/huge_pages.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <numeric>
#include <utility>

namespace nettopo {

std::int64_t to_picoseconds(double ns) {
    return std::llround(ns * 1000.0);
}

Network::Network(std::uint32_t num_machines, std::uint32_t num_switches, std::vector<Link> links,
                 std::vector<std::uint8_t> machine_forwards)
    : num_machines_(num_machines), num_switches_(num_switches), links_(std::move(links)),
      forwards_(std::move(machine_forwards)) {
    // Flags missing at the end mean "forwards"; kept only when some machine does not.
    forwards_.resize(forwards_.empty() ? 0 : num_machines, 1);
    num_end_hosts_ = static_cast<std::uint32_t>(std::count(forwards_.begin(), forwards_.end(), 0));
    if (num_end_hosts_ == 0) std::vector<std::uint8_t>().swap(forwards_);
    const std::uint32_t n = num_vertices();
    reserve_huge_pages(offsets_, std::size_t{n} + 1);
    offsets_.assign(std::size_t{n} + 1, 0);
    for (const Link& l : links_) {
        ++offsets_[l.a.value + 1];
        ++offsets_[l.b.value + 1];
    }
    std::partial_sum(offsets_.begin(), offsets_.end(), offsets_.begin());
    // Each array is touched here first: huge pages halve the load of a
    // 10^6-machine archive (support/detail/huge_pages.hpp).
    reserve_huge_pages(targets_, offsets_.back());
    reserve_huge_pages(latencies_ps_, offsets_.back());
    reserve_huge_pages(link_ids_, offsets_.back());
    targets_.resize(offsets_.back());
    latencies_ps_.resize(offsets_.back());
    link_ids_.resize(offsets_.back());
    std::vector<std::uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
    // Links in the builder's order (ends a < b, sorted by (a, b), no pair
    // twice) fill each vertex's neighbours already in increasing order: its
    // smaller neighbours come from links sorted by their a, before its own
    // links to larger ones, sorted by b. Then no vertex is sorted apart.
    bool in_order = true;
    for (std::size_t i = 0; i < links_.size() && in_order; ++i)
        in_order =
            links_[i].a < links_[i].b && (i == 0 || std::pair{links_[i - 1].a, links_[i - 1].b} <
                                                        std::pair{links_[i].a, links_[i].b});
    double last_ns = 0;
    std::int64_t latency_ps = 0;
    for (std::uint32_t i = 0; i < links_.size(); ++i) {
        // Links of one class follow each other: rounded once a run.
        if (i == 0 || links_[i].latency_ns != last_ns)
            latency_ps = to_picoseconds(last_ns = links_[i].latency_ns);
        const auto put = [&](VertexId from, VertexId to) {
            const std::uint32_t at = fill[from.value]++;
            targets_[at] = to;
            link_ids_[at] = i;
            latencies_ps_[at] = latency_ps;
        };
        put(links_[i].a, links_[i].b);
        put(links_[i].b, links_[i].a);
    }
    if (!in_order) {
        // Neighbours in increasing id order, so traversals (and their
        // tie-breaks) do not depend on the order links were declared in.
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
    view_own_arrays();
}

void Network::view_own_arrays() {
    links_v_ = links_;
    offsets_v_ = offsets_;
    targets_v_ = targets_;
    latencies_v_ = latencies_ps_;
    link_ids_v_ = link_ids_;
}

Network::Network(const Network& other)
    : num_machines_(other.num_machines_), num_switches_(other.num_switches_), links_(other.links_),
      offsets_(other.offsets_), targets_(other.targets_), latencies_ps_(other.latencies_ps_),
      link_ids_(other.link_ids_), forwards_(other.forwards_), num_end_hosts_(other.num_end_hosts_),
      links_v_(other.links_v_), offsets_v_(other.offsets_v_), targets_v_(other.targets_v_),
      latencies_v_(other.latencies_v_), link_ids_v_(other.link_ids_v_),
      keep_alive_(other.keep_alive_) {
    if (!keep_alive_) view_own_arrays();
}

Network& Network::operator=(const Network& other) {
    if (this != &other) *this = Network(other);
    return *this;
}

Network Network::from_arrays(std::uint32_t num_machines, std::uint32_t num_switches, Arrays a) {
    const std::uint64_t n = std::uint64_t{num_machines} + num_switches;
    const std::span<const Link> links = a.links;
    if (n >= 0xffffffffull || 2 * std::uint64_t{links.size()} >= 0xffffffffull)
        throw ValueError("", "the network is too large for 32-bit ids");
    for (std::size_t i = 0; i < links.size(); ++i) {
        const Link& l = links[i];
        if (!(l.a < l.b) || l.b.value >= n)
            throw ValueError("", fmt::format("link {} has ends out of range", i));
        if (i > 0 && !(links[i - 1].a < l.a || (links[i - 1].a == l.a && links[i - 1].b < l.b)))
            throw ValueError("", fmt::format("link {} is out of order", i));
        if (!(l.latency_ns >= 0 && l.latency_ns <= max_link_latency_ns))
            throw ValueError("", fmt::format("link {} has a latency out of range", i));
        // The builder's rules (ClusterBuilder::add_link): what it refuses an
        // image must not bring in, or the archive written from it is refused.
        if (l.multiplicity == 0) throw ValueError("", fmt::format("link {} has no cable", i));
        if (!(std::isfinite(l.bandwidth_gbps) && l.bandwidth_gbps >= 0))
            throw ValueError("", fmt::format("link {} has a bandwidth out of range", i));
    }
    const std::uint64_t entries = 2 * std::uint64_t{links.size()};
    if (a.offsets.size() != n + 1 || !valid_csr_offsets(a.offsets, entries))
        throw ValueError("", "adjacency offsets do not span the links in order");
    if (a.targets.size() != entries || a.latencies_ps.size() != entries ||
        a.link_ids.size() != entries)
        throw ValueError("", "adjacency arrays differ in length");
    for (std::uint64_t v = 0; v < n; ++v) {
        const std::uint32_t from = a.offsets[v], to = a.offsets[v + 1];
        for (std::uint32_t i = from; i < to; ++i)
            if (a.targets[i].value >= n || a.link_ids[i] >= links.size() || a.latencies_ps[i] < 0 ||
                (i > from && !(a.targets[i - 1] < a.targets[i])))
                throw ValueError("", fmt::format("adjacency of vertex {} is inconsistent", v));
    }
    if (!a.forwards.empty() && a.forwards.size() != num_machines)
        throw ValueError("", "forwarding flags do not match the machines");
    Network net;
    net.num_machines_ = num_machines;
    net.num_switches_ = num_switches;
    if (a.keep_alive) {
        net.offsets_.clear();
        net.links_v_ = a.links;
        net.offsets_v_ = a.offsets;
        net.targets_v_ = a.targets;
        net.latencies_v_ = a.latencies_ps;
        net.link_ids_v_ = a.link_ids;
        net.keep_alive_ = std::move(a.keep_alive);
    } else { // nobody keeps the arrays: copied
        net.links_.assign(a.links.begin(), a.links.end());
        net.offsets_.assign(a.offsets.begin(), a.offsets.end());
        net.targets_.assign(a.targets.begin(), a.targets.end());
        net.latencies_ps_.assign(a.latencies_ps.begin(), a.latencies_ps.end());
        net.link_ids_.assign(a.link_ids.begin(), a.link_ids.end());
        net.view_own_arrays();
    }
    net.forwards_ = std::move(a.forwards);
    net.num_end_hosts_ =
        static_cast<std::uint32_t>(std::count(net.forwards_.begin(), net.forwards_.end(), 0));
    if (net.num_end_hosts_ == 0) std::vector<std::uint8_t>().swap(net.forwards_);
    return net;
}

std::uint64_t network_checksum(const Network& net) {
    // Fields packed without padding, hashed a block at a time (each block's
    // hash seeds the next): the padding of Link is never read.
    struct Packed {
        std::uint32_t a, b;
        std::int64_t latency_ps;
        std::uint64_t bandwidth_bits;
        std::uint64_t multiplicity;
    };
    std::uint64_t counts[3] = {net.num_machines(), net.num_switches(), net.num_links()};
    std::uint64_t h = hash_bytes(counts, sizeof counts);
    std::vector<Packed> block;
    block.reserve(4096);
    auto flush = [&] {
        h = hash_bytes(block.data(), block.size() * sizeof(Packed), h);
        block.clear();
    };
    for (const Link& l : net.links()) {
        Packed p{l.a.value, l.b.value, to_picoseconds(l.latency_ns), 0, l.multiplicity};
        std::memcpy(&p.bandwidth_bits, &l.bandwidth_gbps, sizeof p.bandwidth_bits);
        block.push_back(p);
        if (block.size() == block.capacity()) flush();
    }
    flush();
    std::vector<std::uint8_t> flags(net.num_machines());
    for (std::uint32_t m = 0; m < net.num_machines(); ++m) flags[m] = net.forwards(VertexId(m));
    return hash_bytes(flags.data(), flags.size(), h);
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

namespace {

constexpr std::uint32_t none = 0xffffffffu;

// Components of the subgraph of forwarding vertices (none for the others).
std::vector<std::uint32_t> forwarding_components(const Network& net, std::uint32_t& count) {
    std::vector<std::uint32_t> label(net.num_vertices(), none), stack;
    count = 0;
    for (std::uint32_t s = 0; s < net.num_vertices(); ++s) {
        if (label[s] != none || !net.forwards(VertexId(s))) continue;
        label[s] = count;
        stack.push_back(s);
        while (!stack.empty()) {
            const std::uint32_t v = stack.back();
            stack.pop_back();
            for (VertexId w : net.neighbors(VertexId(v)))
                if (label[w.value] == none && net.forwards(w))
                    label[w.value] = count, stack.push_back(w.value);
        }
        ++count;
    }
    return label;
}

} // namespace

// A machine reaches exactly: the forwarding components it touches (its own
// when it forwards, else those of its forwarding neighbours), every machine
// touching one of them, and the machines cabled to it. So when one
// forwarding component touches every machine, all reach each other; else
// each machine's reach is marked and checked.
std::optional<MachinePair> unreachable_machines(const Network& net) {
    const std::uint32_t m = net.num_machines();
    if (m < 2) return std::nullopt;
    if (net.all_forward()) {
        const Components c = connected_components(net);
        for (std::uint32_t v = 1; v < m; ++v)
            if (c.label[v] != c.label[0]) return MachinePair{VertexId(0), VertexId(v)};
        return std::nullopt;
    }
    std::uint32_t count = 0;
    const std::vector<std::uint32_t> comp = forwarding_components(net, count);
    // touched: CSR machine -> distinct components it touches.
    std::vector<std::uint32_t> offsets{0}, touched, last(count, none);
    for (std::uint32_t v = 0; v < m; ++v) {
        const auto touch = [&](std::uint32_t c) {
            if (c != none && last[c] != v) last[c] = v, touched.push_back(c);
        };
        if (net.forwards(VertexId(v)))
            touch(comp[v]);
        else
            for (VertexId w : net.neighbors(VertexId(v))) touch(comp[w.value]);
        offsets.push_back(static_cast<std::uint32_t>(touched.size()));
    }
    // members: CSR component -> machines touching it.
    std::vector<std::uint32_t> start(std::size_t{count} + 1, 0), members(touched.size());
    for (std::uint32_t c : touched) ++start[c + 1];
    for (std::uint32_t c = 0; c < count; ++c) start[c + 1] += start[c];
    for (std::uint32_t c = 0; c < count; ++c)
        if (start[c + 1] - start[c] == m) return std::nullopt;
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::uint32_t v = 0; v < m; ++v)
        for (std::uint32_t i = offsets[v]; i < offsets[v + 1]; ++i) members[fill[touched[i]]++] = v;

    std::vector<std::uint32_t> seen(m, none);
    for (std::uint32_t x = 0; x < m; ++x) {
        seen[x] = x;
        for (std::uint32_t i = offsets[x]; i < offsets[x + 1]; ++i)
            for (std::uint32_t j = start[touched[i]]; j < start[touched[i] + 1]; ++j)
                seen[members[j]] = x;
        for (VertexId w : net.neighbors(VertexId(x)))
            if (net.is_machine(w)) seen[w.value] = x;
        for (std::uint32_t y = x + 1; y < m; ++y)
            if (seen[y] != x) return MachinePair{VertexId(x), VertexId(y)};
    }
    return std::nullopt;
}

std::optional<VertexId> first_blocking_end_host(const Network& net) {
    if (net.all_forward()) return std::nullopt;
    for (std::uint32_t v = 0; v < net.num_machines(); ++v) {
        const auto n = net.neighbors(VertexId(v));
        if (!net.forwards(VertexId(v)) && !n.empty() && n.front() != n.back()) return VertexId(v);
    }
    return std::nullopt;
}

} // namespace nettopo
