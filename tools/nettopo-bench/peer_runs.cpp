// peer: the same shortest-path questions asked of Boost.Graph, the reference
// C++ graph library, on the same graph, against nettopo's index and search.
// Boost.Graph has no single-pair call; the usual idiom stops its Dijkstra
// and BFS from a visitor when the target is reached (an exception), so each
// peer query costs what a single-pair search costs there.
#include "nettopo-bench/bench_util.hpp"
#include "nettopo/query/network_search.hpp"

#include <fmt/format.h>

#ifdef NETTOPO_HAVE_BOOST_GRAPH
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#endif

namespace nettopo::bench {

#ifdef NETTOPO_HAVE_BOOST_GRAPH
namespace {

using Graph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
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

Graph to_boost(const Network& net) {
    Graph g(net.num_vertices());
    for (const Link& l : net.links())
        boost::add_edge(l.a.value, l.b.value, to_picoseconds(l.latency_ns), g);
    return g;
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
    Graph g;
    for (std::uint32_t r = 0; r < o.repetitions; ++r) {
        const auto t = Clock::now();
        g = to_boost(c.network());
        graph.ns_per_item.push_back(elapsed_ns(t));
    }

    const auto count =
        static_cast<std::uint32_t>(affordable_searches(n, 20'000'000, 10, o.queries));
    const auto pairs = random_pairs(c.num_machines(), count, o.seed + 2);
    std::vector<std::int64_t> dist(n), bgl_ps(pairs.size()), idx_ps(pairs.size());
    std::vector<Vertex> pred(n);
    std::vector<std::uint32_t> hops(n), bgl_hops(pairs.size()), idx_hops(pairs.size());

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
                  boost::dijkstra_shortest_paths(g, a,
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
              hops[a] = 0;
              hops[b] = DistanceIndex::unreachable_hops;
              try {
                  boost::breadth_first_search(g, a, boost::visitor(BfsToTarget(b, hops.data())));
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
