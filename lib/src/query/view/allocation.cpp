// Allocation summary: the switches on shortest paths between the hosts of a
// job. From each host a, a BFS gives hop counts d_a; a vertex v lies on a
// shortest path from a to a host b iff a chain of vertices with d_a rising
// by one per link joins a, v and b. Sweeping the reached vertices in
// decreasing d_a, a vertex is marked "leads to a host" when it is a host of
// the allocation or forwards and has a marked neighbour one hop further;
// the marked switches are those of the paths from a. Their union over all
// hosts is the answer.
//
// A host cabled to one switch s only (to a leaf, usually) reaches
// everything through s: d_a = 1 + d_s beyond it, and its shortest paths are
// a then those of s. So one search from s serves every such host below it:
// a job packed under few leaves costs a search per leaf, not per host.
#include "nettopo/query/allocation.hpp"

#include "nettopo/model/host_units.hpp"
#include "nettopo/query/adapter_distance.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace nettopo {

namespace {
// Where the searches for a host start: its only neighbour when it has one
// link and that neighbour is a switch, else the host itself (a machine
// neighbour may be a host of the allocation with a search of its own).
// The rails of the allocation's hosts (allocation.hpp).
void add_rails(const JobView& view, AllocationSummary& s) {
    const Cluster& c = view.cluster();
    std::set<std::uint32_t> all;
    std::optional<std::set<std::uint32_t>> first;
    bool same_sets = true;
    std::map<std::uint32_t, std::set<std::uint32_t>> indexes_at; // peer -> indexes there
    // Per index, per peer: the first (machine, port) cabled there, and how many hosts.
    std::map<std::uint32_t, std::map<std::uint32_t, std::pair<AdapterEnd, std::uint32_t>>> at;
    for (const MachineId m : view.machines()) {
        const auto cables = c.attachments(m);
        std::set<std::uint32_t> mine;
        for (std::uint32_t p = 0; p < cables.size(); ++p) {
            const std::optional<std::uint32_t> index = adapter_index(cables[p].device);
            if (!index) continue;
            mine.insert(*index);
            indexes_at[cables[p].peer.value].insert(*index);
            auto [it, fresh] =
                at[*index].try_emplace(cables[p].peer.value, std::pair{AdapterEnd{m, {p}}, 0u});
            if (fresh || it->second.first.machine != m) ++it->second.second;
        }
        if (!first)
            first = mine;
        else
            same_sets &= *first == mine;
        all.insert(mine.begin(), mine.end());
    }
    s.rails.assign(all.begin(), all.end());
    if (s.rails.empty()) return;
    s.rails_aligned = same_sets && std::all_of(indexes_at.begin(), indexes_at.end(),
                                               [](const auto& e) { return e.second.size() == 1; });
    if (view.num_machines() < 2) return;
    AdapterDistances distances(c);
    std::optional<std::uint32_t> most;
    bool unreachable = false;
    for (const auto& [index, peers] : at) {
        for (auto i = peers.begin(); i != peers.end(); ++i) {
            if (i->second.second >= 2) most = std::max(most.value_or(0), 2u);
            for (auto j = std::next(i); j != peers.end(); ++j) {
                if (i->second.first.machine == j->second.first.machine) continue;
                const auto h = distances.hops(i->second.first, j->second.first);
                if (!h) {
                    unreachable = true;
                    continue;
                }
                most = std::max(most.value_or(0), static_cast<std::uint32_t>(h->value));
            }
        }
    }
    if (!unreachable) s.same_rail_hops = most;
}

VertexId origin_of(const Network& net, VertexId host) {
    const auto to = net.neighbors(host);
    if (to.size() == 1 && !net.is_machine(to[0])) return to[0];
    return host;
}
} // namespace

AllocationSummary summarize_allocation(const JobView& view) {
    const Cluster& cluster = view.cluster();
    const Network& net = cluster.network();
    AllocationSummary s;
    s.hosts = view.num_machines();
    s.pes = view.num_pes();
    s.nodes = view.num_nodes();

    const std::uint32_t nv = net.num_vertices();
    std::vector<char> in_view(nv, 0), on_path(nv, 0), leaf(nv, 0);
    // Hosts per origin, and the origins in the order first met.
    std::vector<std::uint32_t> group_size(nv, 0);
    std::vector<VertexId> origins;
    s.min_host_leaves = view.machines().empty() ? 0 : ~0u;
    for (MachineId m : view.machines()) {
        const VertexId h = cluster.vertex(m);
        in_view[h.value] = 1;
        std::uint32_t leaves = 0;
        for (VertexId w : net.neighbors(h))
            if (!net.is_machine(w)) {
                leaf[w.value] = 1;
                ++leaves;
            }
        s.min_host_leaves = std::min(s.min_host_leaves, leaves);
        s.max_host_leaves = std::max(s.max_host_leaves, leaves);
        const VertexId o = origin_of(net, h);
        if (group_size[o.value]++ == 0) origins.push_back(o);
    }
    std::vector<std::uint32_t> dist(nv, NetworkSearch::unreachable_hops);
    std::vector<char> leads(nv, 0);
    std::vector<VertexId> order; // BFS order: hop counts never decrease along it
    std::uint32_t max_hops = 0;
    for (const VertexId o : origins) {
        // Hops from a host of the group are these plus `offset` (0 when the
        // origin is the host itself); two hosts below one switch are 2 apart.
        const bool is_host = net.is_machine(o);
        const std::uint32_t offset = is_host ? 0 : 1;
        const std::uint32_t group = group_size[o.value];
        if (!is_host && group > 1) max_hops = std::max(max_hops, 2u);
        order.clear();
        order.push_back(o);
        dist[o.value] = 0;
        std::uint32_t hosts_found = in_view[o.value];
        std::size_t head = 0;
        // Stop after the level where the last host was reached: nothing
        // beyond it lies on a shortest path between two hosts.
        std::uint32_t stop_after = hosts_found == s.hosts ? 0 : NetworkSearch::unreachable_hops;
        while (head < order.size()) {
            const VertexId v = order[head++];
            if (dist[v.value] >= stop_after) break;
            if (v != o && !net.forwards(v)) continue;
            for (VertexId w : net.neighbors(v)) {
                if (dist[w.value] != NetworkSearch::unreachable_hops) continue;
                dist[w.value] = dist[v.value] + 1;
                order.push_back(w);
                if (in_view[w.value] && ++hosts_found == s.hosts) stop_after = dist[w.value];
            }
        }
        // Backward sweep.
        for (std::size_t j = order.size(); j-- > 0;) {
            const VertexId v = order[j];
            bool lead = in_view[v.value] && v != o;
            if (!lead && (v == o || net.forwards(v)))
                for (VertexId w : net.neighbors(v))
                    if (dist[w.value] == dist[v.value] + 1 && leads[w.value]) {
                        lead = true;
                        break;
                    }
            leads[v.value] = lead;
            if (lead && !net.is_machine(v)) on_path[v.value] = 1;
            // Hosts of the group itself (1 from their switch) are counted above.
            if (in_view[v.value] && v != o && !(offset == 1 && origin_of(net, v) == o))
                max_hops = std::max(max_hops, offset + dist[v.value]);
        }
        // Each pair is counted from both ends.
        s.unreachable_pairs += std::uint64_t{s.hosts - hosts_found} * group;
        for (VertexId v : order) {
            dist[v.value] = NetworkSearch::unreachable_hops;
            leads[v.value] = 0;
        }
    }
    s.unreachable_pairs /= 2;
    for (std::uint32_t v = 0; v < nv; ++v) {
        s.switches += on_path[v] | leaf[v];
        s.leaf_switches += leaf[v];
    }
    if (s.unreachable_pairs == 0) s.max_hops = max_hops;
    s.units = static_cast<std::uint32_t>(host_units(cluster, view.machines()).size());
    if (cluster.has_attachments()) add_rails(view, s);
    return s;
}

std::vector<NearPe> nearest_in_view(QueryEngine& engine, const JobView& view, PeId p,
                                    std::uint32_t k) {
    const Cluster& cluster = view.cluster();
    const MachineId home = cluster.machine_of(p);
    struct Candidate {
        double distance_ns;
        std::uint32_t view_pe;
    };
    std::vector<Candidate> found;
    for (std::uint32_t i = 0; i < view.num_machines(); ++i) {
        const MachineId m = view.machine(i);
        const PeRange pes = view.view_pes(i);
        if (m == home) {
            for (std::uint32_t j = 0; j < pes.count; ++j) {
                const PeId q = view.cluster_pe(pes.first + j);
                if (q != p) found.push_back({cluster.intra_machine_latency(p, q), pes.first + j});
            }
            continue;
        }
        const auto d = engine.distance(p, view.cluster_pe(pes.first));
        if (!d) continue;
        for (std::uint32_t j = 0; j < pes.count; ++j) found.push_back({*d, pes.first + j});
    }
    const auto by_distance = [](const Candidate& x, const Candidate& y) {
        return x.distance_ns != y.distance_ns ? x.distance_ns < y.distance_ns
                                              : x.view_pe < y.view_pe;
    };
    const std::size_t n = std::min<std::size_t>(k, found.size());
    std::partial_sort(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(n), found.end(),
                      by_distance);
    std::vector<NearPe> out;
    out.reserve(n);
    for (std::size_t j = 0; j < n; ++j)
        out.push_back({view.cluster_pe(found[j].view_pe), found[j].distance_ns});
    return out;
}

} // namespace nettopo
