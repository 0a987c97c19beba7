// Folding end machines onto their anchors (see folded_core.hpp).
#include "query/index/folded_core.hpp"

#include "nettopo/query/network_search.hpp"
#include "nettopo/support/detail/csr_offsets.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace nettopo::detail {

namespace {

constexpr std::uint32_t none = 0xffffffffu;

// A machine that no path passes through: it does not forward, or it has a
// single neighbour (counting parallel links once), so a path entering it
// could only go back.
bool is_end(const Network& net, VertexId v) {
    if (!net.is_machine(v)) return false;
    if (!net.forwards(v)) return true;
    const auto n = net.neighbors(v);
    return !n.empty() && n.front() == n.back(); // sorted: all equal iff first == last
}

// v's neighbours that pass `keep`, each once with its fastest link (the
// neighbours are sorted, so parallel links are side by side).
template <class Keep, class Add>
void fastest_links(const Network& net, VertexId v, Keep keep, Add add) {
    const auto to = net.neighbors(v);
    const auto lat = net.neighbor_latencies_ps(v);
    for (std::size_t i = 0; i < to.size();) {
        std::size_t j = i;
        std::int64_t best = lat[i];
        while (++j < to.size() && to[j] == to[i]) best = std::min(best, lat[j]);
        if (keep(to[i])) add(to[i].value, best);
        i = j;
    }
}

} // namespace

std::size_t FoldedCore::graph_bytes() const {
    const std::size_t n = core.num_vertices(), ends = 2 * core.num_links();
    return core.num_links() * sizeof(Link) + (n + 1) * sizeof(std::uint32_t) +
           ends * (sizeof(VertexId) + sizeof(std::int64_t) + sizeof(std::uint32_t));
}

FoldedCore fold_network(const Network& net) {
    const std::uint32_t m = net.num_machines(), n = net.num_vertices();
    FoldedCore f;
    std::vector<std::uint8_t> end(m, 0);
    for (std::uint32_t v = 0; v < m; ++v) end[v] = is_end(net, VertexId(v));
    std::vector<std::uint32_t> core_id(n, none);
    std::uint32_t core_machines = 0;
    for (std::uint32_t v = 0; v < m; ++v)
        if (!end[v]) core_id[v] = core_machines++;
    for (std::uint32_t v = m; v < n; ++v) core_id[v] = core_machines + (v - m);

    // The core holds only forwarding vertices: its searches test nothing.
    std::vector<Link> links;
    for (const Link& l : net.links()) {
        if (core_id[l.a.value] == none || core_id[l.b.value] == none) continue;
        Link c = l;
        c.a = VertexId(core_id[l.a.value]);
        c.b = VertexId(core_id[l.b.value]);
        links.push_back(c);
    }
    f.core = Network(core_machines, net.num_switches(), std::move(links));

    FoldedMachines& fm = f.machines;
    fm.links.resize(m);
    std::vector<HostLink> anchors;
    std::vector<PeerLink> peers;
    for (std::uint32_t v = 0; v < m; ++v) {
        if (!end[v]) {
            fm.links[v] = {core_id[v], 0, 0};
            continue;
        }
        ++f.folded;
        anchors.clear();
        peers.clear();
        const auto in_core = [&](VertexId w) { return core_id[w.value] != none; };
        fastest_links(net, VertexId(v), in_core, [&](std::uint32_t w, std::int64_t ps) {
            anchors.push_back({core_id[w], 1, ps});
        });
        fastest_links(
            net, VertexId(v), [&](VertexId w) { return !in_core(w); },
            [&](std::uint32_t w, std::int64_t ps) {
                peers.push_back({w, ps});
            });
        if (anchors.size() == 1 && peers.empty()) {
            fm.links[v] = anchors.front();
            continue;
        }
        const auto k = static_cast<std::uint32_t>(fm.anchor_offsets.size() - 1);
        if (k >= complex_machine) // 2^31 multi-rail hosts: beyond any memory budget anyway
            throw UsageError("the general distance index holds at most 2^31 machines with "
                             "several anchors or direct cables");
        fm.links[v] = {0, complex_machine | k, 0};
        fm.anchors.insert(fm.anchors.end(), anchors.begin(), anchors.end());
        fm.peers.insert(fm.peers.end(), peers.begin(), peers.end());
        fm.anchor_offsets.push_back(static_cast<std::uint32_t>(fm.anchors.size()));
        fm.peer_offsets.push_back(static_cast<std::uint32_t>(fm.peers.size()));
        ++f.complex;
    }

    const std::uint32_t core_n = f.core.num_vertices();
    std::optional<std::int64_t> uniform;
    bool same = true;
    for (std::uint32_t v = 0; v < core_n && same; ++v)
        for (std::int64_t w : f.core.neighbor_latencies_ps(VertexId(v))) {
            if (!uniform) uniform = w;
            if (w != *uniform) {
                same = false;
                break;
            }
        }
    f.uniform_ps = same ? uniform.value_or(0) : std::optional<std::int64_t>{};
    return f;
}

CoreBounds core_bounds(const Network& core) {
    const Components comp = connected_components(core);
    // Vertices grouped by component, the component's smallest vertex first,
    // so that each search below runs once from its root.
    std::vector<std::uint32_t> start(comp.count + 1, 0), order(core.num_vertices());
    for (std::uint32_t c : comp.label) ++start[c + 1];
    for (std::uint32_t c = 0; c < comp.count; ++c) start[c + 1] += start[c];
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::uint32_t v = 0; v < core.num_vertices(); ++v) order[fill[comp.label[v]]++] = v;

    NetworkSearch bfs(core), dijkstra(core);
    CoreBounds b;
    for (std::uint32_t c = 0; c < comp.count; ++c) {
        const VertexId root(order[start[c]]);
        for (std::uint32_t i = start[c]; i < start[c + 1]; ++i) {
            const VertexId v(order[i]);
            b.hops = std::max<std::uint64_t>(b.hops, 2 * std::uint64_t{*bfs.hops(root, v)});
            b.latency_ps = std::max(
                b.latency_ps, add_ps(*dijkstra.latency_ps(root, v), *dijkstra.latency_ps(root, v)));
        }
    }
    return b;
}

std::string describe_core(std::uint32_t num_core, std::uint32_t folded, std::uint32_t complex) {
    std::string s = fmt::format("{} core vertices, {} machine{} folded", num_core, folded,
                                folded == 1 ? "" : "s");
    if (complex > 0) s += fmt::format(" ({} not on a single anchor)", complex);
    return s;
}

std::string format_bytes(std::size_t bytes) {
    const char* units[] = {"B", "KB", "MB", "GB", "TB"};
    double v = static_cast<double>(bytes);
    std::size_t u = 0;
    while (v >= 1024 && u + 1 < std::size(units)) v /= 1024, ++u;
    return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", v, units[u]);
}

namespace {

struct CoreRecord {
    std::uint32_t num_core, folded, complex, has_uniform;
    std::int64_t uniform_ps;
};

constexpr std::uint32_t core_tag = array_tag("FCOR"), links_tag = array_tag("FLNK"),
                        anchor_offsets_tag = array_tag("FAOF"), anchors_tag = array_tag("FANC"),
                        peer_offsets_tag = array_tag("FPOF"), peer_machines_tag = array_tag("FPMA"),
                        peer_ps_tag = array_tag("FPPS");

} // namespace

void write_kept_core(const FoldedMachines& m, std::uint32_t num_core, std::uint32_t folded,
                     std::uint32_t complex, std::optional<std::int64_t> uniform_ps,
                     ArrayWriter& out) {
    out.value(core_tag, CoreRecord{num_core, folded, complex, uniform_ps.has_value(),
                                   uniform_ps.value_or(0)});
    out.array(links_tag, m.links);
    out.array(anchor_offsets_tag, m.anchor_offsets);
    out.array(anchors_tag, m.anchors);
    out.array(peer_offsets_tag, m.peer_offsets);
    // PeerLink has padding: written as two arrays, so the file is the same every time.
    std::vector<std::uint32_t> machines;
    std::vector<std::int64_t> ps;
    for (const PeerLink& p : m.peers) machines.push_back(p.machine), ps.push_back(p.latency_ps);
    out.array(peer_machines_tag, machines);
    out.array(peer_ps_tag, ps);
}

KeptCore read_kept_core(ArrayReader& in, std::uint32_t num_machines) {
    const auto r = in.value<CoreRecord>(core_tag);
    KeptCore k;
    k.num_core = r.num_core;
    k.folded = r.folded;
    k.complex = r.complex;
    if (r.has_uniform > 1 || (r.has_uniform && r.uniform_ps < 0))
        in.fail(core_tag, "is inconsistent");
    if (r.has_uniform) k.uniform_ps = r.uniform_ps;
    FoldedMachines& m = k.machines;
    m.links = in.array<HostLink>(links_tag, num_machines);
    m.anchor_offsets = in.array<std::uint32_t>(anchor_offsets_tag, std::uint64_t{num_machines} + 1);
    m.anchors = in.array<HostLink>(anchors_tag);
    m.peer_offsets = in.array<std::uint32_t>(peer_offsets_tag, std::uint64_t{num_machines} + 1);
    const auto machines = in.array<std::uint32_t>(peer_machines_tag);
    const auto ps = in.array<std::int64_t>(peer_ps_tag, machines.size());
    if (m.links.size() != num_machines) in.fail(links_tag, "does not hold every machine");
    if (!valid_csr_offsets<std::uint32_t>(m.anchor_offsets, m.anchors.size()))
        in.fail(anchor_offsets_tag, "has bad offsets");
    if (!valid_csr_offsets<std::uint32_t>(m.peer_offsets, machines.size()) ||
        m.peer_offsets.size() != m.anchor_offsets.size() || ps.size() != machines.size())
        in.fail(peer_offsets_tag, "has bad offsets");
    const std::size_t lists = m.anchor_offsets.size() - 1;
    auto bad_link = [&](const HostLink& l) {
        return l.core_vertex >= k.num_core || l.latency_ps < 0;
    };
    for (const HostLink& l : m.links)
        if (l.is_complex() ? l.list_index() >= lists : bad_link(l))
            in.fail(links_tag, "names a core vertex or list out of range");
    for (const HostLink& l : m.anchors)
        if (l.is_complex() || bad_link(l)) in.fail(anchors_tag, "names a core vertex out of range");
    for (std::size_t i = 0; i < machines.size(); ++i) {
        if (machines[i] >= num_machines || ps[i] < 0)
            in.fail(peer_machines_tag, "names a machine out of range");
        m.peers.push_back({machines[i], ps[i]});
    }
    return k;
}

} // namespace nettopo::detail
