// Folding degree-1 machines onto their anchor (see folded_core.hpp).
#include "query/folded_core.hpp"

#include "nettopo/query/network_search.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace nettopo::detail {

namespace {

constexpr std::uint32_t none = 0xffffffffu;

// The only neighbour of v, counting parallel links once; none otherwise.
std::uint32_t single_neighbour(const Network& net, VertexId v) {
    const auto n = net.neighbors(v);
    if (n.empty() || n.front() != n.back()) return none; // sorted: all equal iff first == last
    return n.front().value;
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
    f.machines.resize(m);
    // anchor[v]: the vertex a machine is folded onto; none for core vertices.
    std::vector<std::uint32_t> anchor(m, none);
    for (std::uint32_t v = 0; v < m; ++v) {
        const std::uint32_t u = single_neighbour(net, VertexId(v));
        if (u == none) continue;
        // Two machines joined only to each other: both stay (one could be
        // folded, but then the other would have to be its own anchor).
        if (net.is_machine(VertexId(u)) && single_neighbour(net, VertexId(u)) == v) continue;
        anchor[v] = u;
    }
    std::vector<std::uint32_t> core_id(n, none);
    std::uint32_t core_machines = 0;
    for (std::uint32_t v = 0; v < m; ++v)
        if (anchor[v] == none) core_id[v] = core_machines++;
    for (std::uint32_t v = m; v < n; ++v) core_id[v] = core_machines + (v - m);

    std::vector<Link> links;
    for (const Link& l : net.links()) {
        if (core_id[l.a.value] == none || core_id[l.b.value] == none) continue;
        Link c = l;
        c.a = VertexId(core_id[l.a.value]);
        c.b = VertexId(core_id[l.b.value]);
        links.push_back(c);
    }
    f.core = Network(core_machines, net.num_switches(), std::move(links));

    for (std::uint32_t v = 0; v < m; ++v) {
        if (anchor[v] == none) {
            f.machines[v] = {core_id[v], 0, 0};
            continue;
        }
        const auto lat = net.neighbor_latencies_ps(VertexId(v));
        f.machines[v] = {core_id[anchor[v]], 1, *std::min_element(lat.begin(), lat.end())};
        ++f.folded;
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

std::string describe_core(std::uint32_t num_core, std::uint32_t folded) {
    return fmt::format("{} core vertices, {} machine{} folded", num_core, folded,
                       folded == 1 ? "" : "s");
}

std::string format_bytes(std::size_t bytes) {
    const char* units[] = {"B", "KB", "MB", "GB", "TB"};
    double v = static_cast<double>(bytes);
    std::size_t u = 0;
    while (v >= 1024 && u + 1 < std::size(units)) v /= 1024, ++u;
    return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", v, units[u]);
}

} // namespace nettopo::detail
