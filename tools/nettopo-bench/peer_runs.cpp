// peer: the same shortest-path questions asked of Boost.Graph, the reference
// C++ graph library, on the same graph, against nettopo's index and search.
// Boost.Graph has no single-pair call; the usual idiom stops its Dijkstra
// and BFS from a visitor when the target is reached (an exception), so each
// peer query costs what a single-pair search costs there.
//
// Forwarding: the Boost graph is directed, one arc each way per link, and a
// machine that does not forward keeps its in-arcs while its out-arcs leave
// from a twin vertex where searches from it start; so Boost's searches
// pass through it never, exactly as nettopo's.
#include "nettopo-bench/bench_util.hpp"
#include "nettopo/query/network_search.hpp"

#include <fmt/format.h>
#include <optional>

#ifdef NETTOPO_HAVE_BOOST_GRAPH
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#endif

namespace nettopo::bench {

#ifdef NETTOPO_HAVE_BOOST_GRAPH
namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                    boost::property<boost::edge_weight_t, std::int64_t>>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

struct Reached {};

struct StopAtTarget : boost::default_dijkstra_visitor {
    Vertex target;
    explicit StopAtTarget(Vertex t) : target(t) {}
    void examine_vertex(Vertex v, const Graph&) const {
        if (v == target) throw Reached{};
    }
};

struct BfsToTarget : boost::default_bfs_visitor {
    Vertex target;
    std::uint32_t* hops;
    BfsToTarget(Vertex t, std::uint32_t* h) : target(t), hops(h) {}
    void tree_edge(boost::graph_traits<Graph>::edge_descriptor e, const Graph& g) const {
        hops[boost::target(e, g)] = hops[boost::source(e, g)] + 1;
    }
    void examine_vertex(Vertex v, const Graph&) const {
        if (v == target) throw Reached{};
    }
};

// start[v]: where a search from v starts (v, or its twin when v does not
// forward). Built in place: copying a directed adjacency_list trips GCC's
// maybe-uninitialized inside Boost.
void to_boost(const Network& net, std::optional<Graph>& g, std::vector<Vertex>& start) {
    const std::uint32_t n = net.num_vertices();
    start.resize(n);
    Vertex twins = n;
    for (std::uint32_t v = 0; v < n; ++v) start[v] = net.forwards(VertexId(v)) ? v : twins++;
    g.emplace(twins);
    for (const Link& l : net.links()) {
        const std::int64_t ps = to_picoseconds(l.latency_ns);
        boost::add_edge(start[l.a.value], l.b.value, ps, *g);
        boost::add_edge(start[l.b.value], l.a.value, ps, *g);
    }
}

} // namespace

bool peer_available() {
    return true;
}

std::vector<Measurement> run_peer(const Input& in, const RunOptions& o) {
    const Cluster& c = *in.cluster;
    std::vector<Measurement> out;
    if (c.num_machines() < 2) return out;
    const std::uint32_t n = c.network().num_vertices();

    Measurement build = start(in, "peer: index build (nettopo)", 1, "");
    std::unique_ptr<DistanceIndex> index;
    for (std::uint32_t r = 0; r < o.repetitions; ++r) {
        index.reset();
        const auto t = Clock::now();
        index = build_distance_index(c, index_options(o));
        build.ns_per_item.push_back(elapsed_ns(t));
    }
    build.note = index->description();
    Measurement graph = start(in, "peer: graph build (Boost.Graph)", 1, "adjacency_list");
    std::optional<Graph> graph_storage;
    std::vector<Vertex> from;
    for (std::uint32_t r = 0; r < o.repetitions; ++r) {
        const auto t = Clock::now();
        to_boost(c.network(), graph_storage, from);
        graph.ns_per_item.push_back(elapsed_ns(t));
    }
    const Graph& g = *graph_storage;

    const auto count =
        static_cast<std::uint32_t>(affordable_searches(n, 20'000'000, 10, o.queries));
    const auto pairs = random_pairs(c.num_machines(), count, o.seed + 2);
    const std::size_t boost_n = boost::num_vertices(g);
    std::vector<std::int64_t> dist(boost_n), bgl_ps(pairs.size()), idx_ps(pairs.size());
    std::vector<Vertex> pred(boost_n);
    std::vector<std::uint32_t> hops(boost_n), bgl_hops(pairs.size()), idx_hops(pairs.size());

    const auto timed = [&](std::string name, std::string note, auto&& query) {
        Measurement m = start(in, std::move(name), pairs.size(), std::move(note));
        for (std::uint32_t r = 0; r < o.repetitions; ++r) {
            const auto t = Clock::now();
            for (std::size_t i = 0; i < pairs.size(); ++i)
                query(i, pairs[i].first, pairs[i].second);
            m.ns_per_item.push_back(elapsed_ns(t) / static_cast<double>(pairs.size()));
        }
        out.push_back(std::move(m));
    };
    out.push_back(build);
    out.push_back(graph);
    timed("peer: Dijkstra (Boost.Graph)", "per call, single pair: stops at the target",
          [&](std::size_t i, std::uint32_t a, std::uint32_t b) {
              dist[b] = std::numeric_limits<std::int64_t>::max();
              try {
                  boost::dijkstra_shortest_paths(g, from[a],
                                                 boost::distance_map(dist.data())
                                                     .predecessor_map(pred.data())
                                                     .visitor(StopAtTarget(b)));
              } catch (const Reached&) {
              }
              bgl_ps[i] = dist[b] == std::numeric_limits<std::int64_t>::max()
                              ? DistanceIndex::unreachable_ps
                              : dist[b];
          });
    timed("peer: BFS (Boost.Graph)", "per call, single pair: stops at the target",
          [&](std::size_t i, std::uint32_t a, std::uint32_t b) {
              hops[from[a]] = 0;
              hops[b] = DistanceIndex::unreachable_hops;
              try {
                  boost::breadth_first_search(g, from[a],
                                              boost::visitor(BfsToTarget(b, hops.data())));
              } catch (const Reached&) {
              }
              bgl_hops[i] = hops[b];
          });
    timed("peer: distance (nettopo index)", "per call, the same pairs",
          [&](std::size_t i, std::uint32_t a, std::uint32_t b) {
              idx_ps[i] = index->latency_ps(MachineId(a), MachineId(b));
          });
    timed("peer: hops (nettopo index)", "per call, the same pairs",
          [&](std::size_t i, std::uint32_t a, std::uint32_t b) {
              idx_hops[i] = index->hops(MachineId(a), MachineId(b));
          });
    NetworkSearch search(c.network());
    timed("peer: Dijkstra (nettopo search)", "per call, the same pairs",
          [&](std::size_t, std::uint32_t a, std::uint32_t b) {
              search.forget(); // a search per pair, as Boost.Graph's
              keep(search.latency_ps(c.vertex(MachineId(a)), c.vertex(MachineId(b))));
          });
    if (o.verify)
        for (std::size_t i = 0; i < pairs.size(); ++i)
            if (bgl_ps[i] != idx_ps[i] || bgl_hops[i] != idx_hops[i])
                throw VerifyError(fmt::format(
                    "{}: peer: machines {} and {}: Boost.Graph {} ps / {} hops, {} {} ps / {} hops",
                    in.name, pairs[i].first, pairs[i].second, bgl_ps[i], bgl_hops[i],
                    index->description(), idx_ps[i], idx_hops[i]));
    return out;
}

#else

bool peer_available() {
    return false;
}

std::vector<Measurement> run_peer(const Input&, const RunOptions&) {
    return {};
}

#endif

} // namespace nettopo::bench
