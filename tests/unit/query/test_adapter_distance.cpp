// Adapter-level questions (query/adapter_distance.hpp) held to an oracle of
// their own: the network with one extra vertex per attachment, hung on its
// peer by the machine's link and never forwarding, searched by a plain BFS
// and a plain Dijkstra written here. The best pair of ports of two ends is
// then the shortest path between their attachments' vertices. Random
// multi-rail clusters (random cabling, latencies and forwarding), the
// rail-optimized family, and machine ends against QueryEngine.
#include "nettopo/families/family.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/image.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/query/adapter_distance.hpp"
#include "nettopo/query/query_engine.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <queue>
#include <random>
#include <set>

using namespace nettopo;
using namespace nettopo::test;

namespace {

constexpr std::int64_t inf = std::numeric_limits<std::int64_t>::max();

// The expanded graph: the network's vertices, then one per attachment.
struct Expanded {
    std::vector<std::vector<std::pair<std::uint32_t, std::int64_t>>> adj;
    std::vector<bool> forwards;
    std::vector<std::uint64_t> first; // by machine: its first attachment's vertex
};

Expanded expand(const Cluster& c) {
    Expanded e;
    const Network& net = c.network();
    const std::uint32_t v0 = c.num_machines() + c.num_switches();
    e.adj.resize(v0);
    for (std::uint32_t v = 0; v < v0; ++v) {
        e.forwards.push_back(net.forwards(VertexId(v)));
        const auto near = net.neighbors(VertexId(v));
        const auto ps = net.neighbor_latencies_ps(VertexId(v));
        for (std::size_t i = 0; i < near.size(); ++i) e.adj[v].push_back({near[i].value, ps[i]});
    }
    for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
        e.first.push_back(e.adj.size());
        for (const Attachment& a : c.attachments(MachineId(m))) {
            std::int64_t ps = -1;
            for (const auto& [w, l] : e.adj[m])
                if (w == a.peer.value) ps = l;
            REQUIRE(ps >= 0);
            const auto x = static_cast<std::uint32_t>(e.adj.size());
            e.adj.push_back({{a.peer.value, ps}});
            e.adj[a.peer.value].push_back({x, ps});
            e.forwards.push_back(false);
        }
    }
    return e;
}

// From `s`: hops (BFS) or picoseconds (Dijkstra) to every vertex; a vertex
// that does not forward is reached but not left (the source excepted).
std::vector<std::int64_t> distances(const Expanded& e, std::uint32_t s, bool hops) {
    std::vector<std::int64_t> d(e.adj.size(), inf);
    using Item = std::pair<std::int64_t, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
    d[s] = 0;
    q.push({0, s});
    while (!q.empty()) {
        const auto [dv, v] = q.top();
        q.pop();
        if (dv != d[v] || (v != s && !e.forwards[v])) continue;
        for (const auto& [w, ps] : e.adj[v]) {
            const std::int64_t nd = dv + (hops ? 1 : ps);
            if (nd < d[w]) {
                d[w] = nd;
                q.push({nd, w});
            }
        }
    }
    return d;
}

// Every end the oracle checks: each device's ports, and the whole machine.
std::vector<AdapterEnd> ends_of(const Cluster& c, MachineId m) {
    std::vector<AdapterEnd> out{machine_end(c, m)};
    std::set<std::string> devices;
    for (const Attachment& a : c.attachments(m)) devices.insert(a.device);
    for (const std::string& d : devices) {
        const auto e = find_adapter_end(c, fmt::format("{}:{}", c.machine_name(m), d));
        REQUIRE(e);
        out.push_back(*e);
    }
    return out;
}

void check_against_oracle(const Cluster& c) {
    const Expanded e = expand(c);
    AdapterDistances distances_(c);
    std::size_t checked = 0;
    for (std::uint32_t a = 0; a < c.num_machines(); ++a) {
        const auto ends_a = ends_of(c, MachineId(a));
        for (const AdapterEnd& x : ends_a) {
            std::vector<std::vector<std::int64_t>> hop_rows, ps_rows;
            const auto sources = [&] {
                std::vector<std::uint32_t> s;
                for (const std::uint32_t p : x.ports)
                    s.push_back(static_cast<std::uint32_t>(e.first[a] + p));
                if (s.empty()) s.push_back(a);
                return s;
            }();
            for (const std::uint32_t s : sources) {
                hop_rows.push_back(distances(e, s, true));
                ps_rows.push_back(distances(e, s, false));
            }
            for (std::uint32_t b = 0; b < c.num_machines(); ++b) {
                if (b == a) continue;
                for (const AdapterEnd& y : ends_of(c, MachineId(b))) {
                    std::int64_t best_hops = inf, best_ps = inf;
                    for (std::size_t i = 0; i < sources.size(); ++i) {
                        std::vector<std::uint32_t> targets;
                        for (const std::uint32_t p : y.ports)
                            targets.push_back(static_cast<std::uint32_t>(e.first[b] + p));
                        if (targets.empty()) targets.push_back(b);
                        for (const std::uint32_t t : targets) {
                            best_hops = std::min(best_hops, hop_rows[i][t]);
                            best_ps = std::min(best_ps, ps_rows[i][t]);
                        }
                    }
                    // Ports are one link from their machine: the oracle's
                    // attachment vertices stand where the machine would.
                    const auto h = distances_.hops(x, y);
                    const auto l = distances_.latency_ps(x, y);
                    INFO(c.machine_name(MachineId(a))
                         << " " << x.label << " -> " << c.machine_name(MachineId(b)) << " "
                         << y.label);
                    if (best_hops == inf) {
                        CHECK(!h);
                        CHECK(!l);
                        continue;
                    }
                    REQUIRE(h);
                    REQUIRE(l);
                    CHECK(h->value == best_hops);
                    CHECK(l->value == best_ps);
                    const auto p = distances_.path(x, y, PathMetric::Hops);
                    REQUIRE(p);
                    CHECK(p->second.size() == static_cast<std::size_t>(best_hops) + 1);
                    CHECK(p->second.front() == c.vertex(MachineId(a)));
                    CHECK(p->second.back() == c.vertex(MachineId(b)));
                    ++checked;
                }
            }
        }
    }
    CHECK(checked > 0);
}

// Hosts with 1 to 3 adapters on random leaves, leaves on random spines,
// random latencies, hosts forwarding or not.
Cluster random_rail_cluster(std::mt19937_64& rng, bool hosts_forward) {
    std::uniform_int_distribution<int> hosts_d(2, 7), leaves_d(2, 5), spines_d(1, 3),
        adapters_d(1, 3), latency_d(1, 900);
    const int hosts = hosts_d(rng), leaves = leaves_d(rng), spines = spines_d(rng);
    ClusterBuilder b("rails");
    const TypeId t = b.add_type(
        MachineType("pu:2", tree_from_synthetic("pu:2"), NodeLevel{}, LevelLatencies::defaults()));
    for (int h = 0; h < hosts; ++h) {
        const MachineId m = b.add_machine(fmt::format("h{}", h), t);
        b.set_forwards(m, hosts_forward);
    }
    for (int l = 0; l < leaves; ++l) b.add_switch(fmt::format("leaf{}", l));
    for (int s = 0; s < spines; ++s) b.add_switch(fmt::format("spine{}", s));
    for (int l = 0; l < leaves; ++l)
        for (int s = 0; s < spines; ++s)
            if (rng() % 3 != 0 || s == 0)
                b.add_link({true, static_cast<std::uint32_t>(l)},
                           {true, static_cast<std::uint32_t>(leaves + s)}, latency_d(rng));
    for (int h = 0; h < hosts; ++h) {
        std::set<int> used;
        std::vector<ClusterBuilder::Cable> cables;
        const int n = adapters_d(rng);
        for (int k = 0; k < n; ++k) {
            const int l = static_cast<int>(rng() % static_cast<unsigned>(leaves));
            if (!used.insert(l).second) continue; // one link a pair of vertices
            b.add_link({false, static_cast<std::uint32_t>(h)},
                       {true, static_cast<std::uint32_t>(l)}, latency_d(rng));
            cables.push_back({fmt::format("mlx5_{}", k),
                              0x1000u + static_cast<std::uint64_t>(h * 8 + k),
                              1,
                              {true, static_cast<std::uint32_t>(l)}});
        }
        b.set_attachments(MachineId(static_cast<std::uint32_t>(h)), std::move(cables));
    }
    return std::move(b).build(BuildOptions{.allow_disconnected = true, .limits = Limits{}});
}

} // namespace

TEST_CASE("adapter distances: random multi-rail clusters against the expanded graph",
          "[query][adapters]") {
    std::mt19937_64 rng(2711);
    for (int i = 0; i < 40; ++i) {
        INFO("cluster " << i);
        check_against_oracle(random_rail_cluster(rng, i % 2 == 0));
    }
}

TEST_CASE("adapter distances: the rail-optimized family", "[query][adapters]") {
    const MachineType machine("pu:2", tree_from_synthetic("pu:2"), NodeLevel{},
                              LevelLatencies::defaults());
    const Cluster c = generate(*make_rail_optimized(3, 3, 2, 2), machine);
    REQUIRE(c.has_attachments());
    REQUIRE(c.attachments(MachineId(4)).size() == 2);
    CHECK(c.attachments(MachineId(4))[1].device == "mlx5_1");
    check_against_oracle(c);
    // Same rail across units: 4; another rail across units: 4 as well (a
    // spine links every leaf), same unit any rail: 2 through the rail's leaf.
    AdapterDistances d(c);
    const auto end = [&](const char* text) { return *find_adapter_end(c, text); };
    CHECK(d.hops(end("n0:mlx5_0"), end("n1:mlx5_0"))->value == 2);
    CHECK(d.hops(end("n0:mlx5_0"), end("n1:mlx5_1"))->value == 4);
    CHECK(d.hops(end("n0:mlx5_0"), end("n3:mlx5_0"))->value == 4);
    // Machine ends give the machine-level answers.
    QueryEngine engine(c);
    for (std::uint32_t a = 0; a < c.num_machines(); ++a)
        for (std::uint32_t b = 0; b < c.num_machines(); ++b)
            CHECK(d.hops(machine_end(c, MachineId(a)), machine_end(c, MachineId(b)))->value ==
                  *engine.hop_count(c.pes_of_machine(MachineId(a))[0],
                                    c.pes_of_machine(MachineId(b))[0]));
}

TEST_CASE("attachments: archives and images keep them", "[query][adapters]") {
    std::mt19937_64 rng(99);
    const TempDir tmp("nettopo-attach-");
    for (int i = 0; i < 10; ++i) {
        const Cluster c = random_rail_cluster(rng, false);
        const std::string text = archive_text(c);
        CHECK(text.find("<nettopo version=\"5\"") != std::string::npos);
        const Cluster back = from_archive_text(text);
        REQUIRE(back.num_machines() == c.num_machines());
        for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
            const auto x = c.attachments(MachineId(m)), y = back.attachments(MachineId(m));
            CHECK(std::vector<Attachment>(x.begin(), x.end()) ==
                  std::vector<Attachment>(y.begin(), y.end()));
        }
        const std::string image = (tmp.path / fmt::format("c{}.ntimg", i)).string();
        save_image(c, nullptr, image, std::nullopt);
        const Image read = read_image(image, true);
        for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
            const auto x = c.attachments(MachineId(m)), y = read.cluster.attachments(MachineId(m));
            CHECK(std::vector<Attachment>(x.begin(), x.end()) ==
                  std::vector<Attachment>(y.begin(), y.end()));
        }
    }
}

TEST_CASE("attachments: what the archive refuses, with its line", "[query][adapters]") {
    std::mt19937_64 rng(5);
    const Cluster c = random_rail_cluster(rng, false);
    const std::string good = archive_text(c);
    const auto at = good.find("<adapter device=\"mlx5_0\"");
    REQUIRE(at != std::string::npos);
    const auto error = [&](const std::string& from, const std::string& to) {
        std::string text = good;
        const auto i = text.find(from, from.starts_with("<nettopo") ? 0 : at);
        REQUIRE(i != std::string::npos);
        text.replace(i, from.size(), to);
        try {
            from_archive_text(text, "bad.xml");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    using Catch::Contains;
    CHECK_THAT(error("to=\"leaf", "to=\"nowhere"), Contains("no such machine or switch"));
    CHECK_THAT(error("to=\"leaf", "to=\"spine"), Contains("has no link to it"));
    CHECK_THAT(error("guid=\"0x", "guid=\"zz"), Contains("not a hexadecimal GUID"));
    CHECK_THAT(error("device=\"mlx5_0\"", "device=\"\""), Contains("device name"));
    CHECK_THAT(error("<nettopo version=\"5\"", "<nettopo version=\"4\""),
               Contains("needs archive format version 5"));
    CHECK_THAT(error("to=\"leaf", "to=\"nowhere"), Contains("bad.xml:"));
}
