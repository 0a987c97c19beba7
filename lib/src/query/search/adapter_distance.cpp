// Adapter-level questions (adapter_distance.hpp): the best pair of ports,
// each port adding its machine's link to the distance between the peers,
// read from rows kept per peer.
#include "nettopo/query/adapter_distance.hpp"

#include "nettopo/model/device_matrix.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/machine_tree.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <tuple>

namespace nettopo {

namespace {

constexpr std::uint32_t no_port = ~0u;
constexpr std::uint32_t unreachable = NetworkSearch::unreachable_hops;

// One way out of an end: the vertex it reaches first, what the step there
// costs, and the port it takes (no_port: the machine's own vertex).
struct Start {
    VertexId vertex;
    std::uint32_t hops;
    std::int64_t ps;
    std::uint32_t port;
};

std::int64_t link_ps(const Cluster& c, MachineId m, VertexId peer) {
    const auto near = c.network().neighbors(c.vertex(m));
    const auto ps = c.network().neighbor_latencies_ps(c.vertex(m));
    for (std::size_t i = 0; i < near.size(); ++i)
        if (near[i] == peer) return ps[i];
    return 0; // not reached: attachments follow links (Cluster::set_attachment_parts)
}

// Calls f with each way out of `e` (no allocation: the hottest loop).
template <class F> void for_each_start(const Cluster& c, const AdapterEnd& e, F&& f) {
    if (e.ports.empty()) {
        f(Start{c.vertex(e.machine), 0, 0, no_port});
        return;
    }
    const auto all = c.attachments(e.machine);
    for (const std::uint32_t p : e.ports)
        f(Start{all[p].peer, 1, link_ps(c, e.machine, all[p].peer), p});
}

} // namespace

AdapterEnd machine_end(const Cluster& cluster, MachineId m) {
    AdapterEnd e{m};
    for (std::uint32_t i = 0; i < cluster.attachments(m).size(); ++i) e.ports.push_back(i);
    return e;
}

std::optional<AdapterEnd> device_end(const Cluster& cluster, MachineDevice d) {
    const MachineTree& tree = cluster.machine_type(d.machine).tree();
    const auto all = cluster.attachments(d.machine);
    const IoDevice& dev = tree.devices()[d.index];
    AdapterEnd e{d.machine, {}, fmt::format("{}:{}", cluster.machine_name(d.machine), dev.name)};
    if (dev.kind != DeviceKind::Gpu) {
        for (std::uint32_t i = 0; i < all.size(); ++i)
            if (all[i].device == dev.name) e.ports.push_back(i);
        if (e.ports.empty()) return std::nullopt;
        return e;
    }
    // A GPU: its nearest cabled adapter (the file's comment).
    struct Score {
        DeviceLink link;
        double latency;
        std::uint32_t order;
        auto operator<=>(const Score&) const = default;
    };
    std::optional<std::pair<Score, std::string>> best;
    const PeId gpu_pu(cluster.pes_of_machine(d.machine).first +
                      tree.object(tree.devices()[d.index].locality).first_pu);
    for (std::uint32_t i = 0; i < all.size(); ++i) {
        const std::optional<std::uint32_t> n = tree.find_device(all[i].device);
        if (!n || tree.devices()[*n].name != all[i].device) continue;
        const Score s{device_link(cluster, d.machine, d.index, *n),
                      device_latency(cluster, MachineDevice{d.machine, *n}, gpu_pu).value_or(0.0),
                      i};
        if (!best || s < best->first) best = {s, all[i].device};
    }
    if (!best) return std::nullopt;
    for (std::uint32_t i = 0; i < all.size(); ++i)
        if (all[i].device == best->second) e.ports.push_back(i);
    return e;
}

std::optional<AdapterEnd> find_adapter_end(const Cluster& cluster, std::string_view text) {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size())
        return std::nullopt;
    const std::optional<MachineId> m = cluster.find_machine(text.substr(0, colon));
    if (!m) return std::nullopt;
    const std::string_view name = text.substr(colon + 1);
    const auto all = cluster.attachments(*m);
    AdapterEnd e{*m, {}, std::string(text)};
    for (std::uint32_t i = 0; i < all.size(); ++i)
        if (all[i].device == name) e.ports.push_back(i);
    if (!e.ports.empty()) return e;
    const std::vector<MachineDevice> found = find_devices(cluster, text);
    if (found.empty()) return std::nullopt;
    if (!cluster.has_attachments() || all.empty())
        throw UsageError(fmt::format("{}: the cluster keeps no adapter cables of {} (assemble it "
                                     "from a fabric dump with the hosts' adapters)",
                                     text, cluster.machine_name(*m)));
    std::optional<AdapterEnd> d = device_end(cluster, found.front());
    if (!d)
        throw UsageError(fmt::format("{}: no adapter of {} is cabled for it (its cabled "
                                     "adapters: {})",
                                     text, cluster.machine_name(*m), [&] {
                                         std::string names;
                                         for (const Attachment& a : all)
                                             if (names.find(a.device) == std::string::npos)
                                                 names += (names.empty() ? "" : ", ") + a.device;
                                         return names;
                                     }()));
    d->label = std::string(text);
    return d;
}

AdapterDistances::AdapterDistances(const Cluster& cluster)
    : cluster_(&cluster),
      ordinal_(std::size_t{cluster.num_machines()} + cluster.num_switches(), no_port),
      search_(cluster.network()) {
    for (std::uint32_t m = 0; m < cluster.num_machines(); ++m)
        for (const Attachment& a : cluster.attachments(MachineId(m)))
            if (ordinal_[a.peer.value] == no_port) {
                ordinal_[a.peer.value] = static_cast<std::uint32_t>(peers_.size());
                peers_.push_back(a.peer);
            }
    rows_.resize(peers_.size());
}

const AdapterDistances::Row& AdapterDistances::row(std::uint32_t o) {
    if (rows_[o]) return *rows_[o];
    Row r;
    std::vector<std::uint32_t> all;
    search_.hops_from(peers_[o], all);
    r.hops.reserve(peers_.size());
    for (const VertexId v : peers_) r.hops.push_back(all[v.value]);
    // One Dijkstra, stopped once every peer is settled.
    r.ps.assign(peers_.size(), -1);
    std::size_t left = peers_.size();
    search_.start(peers_[o]);
    while (left > 0) {
        const auto settled = search_.next_settled();
        if (!settled) break;
        const std::uint32_t at = ordinal_[settled->first.value];
        if (at == no_port) continue;
        r.ps[at] = *search_.latency_ps(peers_[o], settled->first);
        --left;
    }
    rows_[o] = std::move(r);
    return *rows_[o];
}

std::optional<AdapterAnswer> AdapterDistances::best(const AdapterEnd& a, const AdapterEnd& b,
                                                    bool by_hops) {
    if (a.machine == b.machine) return AdapterAnswer{0, no_port, no_port};
    std::optional<AdapterAnswer> out;
    const VertexId va = cluster_->vertex(a.machine), vb = cluster_->vertex(b.machine);
    for_each_start(*cluster_, a, [&](const Start& x) {
        for_each_start(*cluster_, b, [&](const Start& y) {
            if (x.vertex == vb || y.vertex == va) {
                // A host cabled straight to the other: that one link.
                if (x.vertex != vb || y.vertex != va) return;
                const std::int64_t v = by_hops ? 1 : x.ps;
                if (!out || v < out->value) out = AdapterAnswer{v, x.port, y.port};
                return;
            }
            std::int64_t middle = -1;
            const std::uint32_t ox = ordinal_[x.vertex.value], oy = ordinal_[y.vertex.value];
            if (ox != no_port && oy != no_port) {
                const Row& r = row(ox);
                if (by_hops) {
                    if (r.hops[oy] != unreachable) middle = r.hops[oy];
                } else {
                    middle = r.ps[oy];
                }
            } else if (by_hops) {
                const auto h = search_.hops(x.vertex, y.vertex);
                middle = h ? *h : -1;
            } else {
                middle = search_.latency_ps(x.vertex, y.vertex).value_or(-1);
            }
            if (middle < 0) return;
            const std::int64_t v = by_hops ? middle + x.hops + y.hops : middle + x.ps + y.ps;
            if (!out || v < out->value) out = AdapterAnswer{v, x.port, y.port};
        });
    });
    return out;
}

std::optional<AdapterAnswer> AdapterDistances::hops(const AdapterEnd& a, const AdapterEnd& b) {
    return best(a, b, true);
}

std::optional<AdapterAnswer> AdapterDistances::latency_ps(const AdapterEnd& a,
                                                          const AdapterEnd& b) {
    return best(a, b, false);
}

std::optional<std::pair<AdapterAnswer, std::vector<VertexId>>>
AdapterDistances::path(const AdapterEnd& a, const AdapterEnd& b, PathMetric metric) {
    const std::optional<AdapterAnswer> answer = best(a, b, metric == PathMetric::Hops);
    if (!answer) return std::nullopt;
    if (a.machine == b.machine)
        return std::pair{*answer, std::vector<VertexId>{cluster_->vertex(a.machine)}};
    const auto all_a = cluster_->attachments(a.machine), all_b = cluster_->attachments(b.machine);
    const VertexId from =
        answer->a_port == no_port ? cluster_->vertex(a.machine) : all_a[answer->a_port].peer;
    const VertexId to =
        answer->b_port == no_port ? cluster_->vertex(b.machine) : all_b[answer->b_port].peer;
    std::vector<VertexId> p;
    if (from == cluster_->vertex(b.machine)) {
        p = {cluster_->vertex(a.machine), cluster_->vertex(b.machine)};
    } else {
        auto middle = search_.path(from, to, metric);
        if (!middle) return std::nullopt;
        if (answer->a_port != no_port) p.push_back(cluster_->vertex(a.machine));
        p.insert(p.end(), middle->begin(), middle->end());
        if (answer->b_port != no_port) p.push_back(cluster_->vertex(b.machine));
    }
    return std::pair{*answer, std::move(p)};
}

} // namespace nettopo
