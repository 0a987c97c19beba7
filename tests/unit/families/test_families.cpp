// Synthetic network families (family.hpp) and the clusters generate() builds
// from them, against oracles the test computes itself:
//  - closed formulas for the counts, written here from the textbook
//    definitions (not from the family's own arithmetic);
//  - for the direct networks (mesh, torus, hypercube, ring, complete graph,
//    binary tree) the distance and degree of every router from its own
//    coordinates, turned into histograms over all pairs, so the comparison
//    does not depend on how the library numbers its vertices;
//  - BFS on the built network for every Shortest hop count and diameter;
//  - for the dragonfly, minimal routing recomputed from the global links
//    found in the built graph;
//  - link classes seen through distinct per-class latencies and bandwidths.
#include "nettopo/families/family.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/machine_type.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Contains;

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// ---------------------------------------------------------------------------
// Building
// ---------------------------------------------------------------------------

// One PU per machine, as every vertex of the thesis' generator. hwloc runs in
// a child process, so the type is made once.
const MachineType& one_pu() {
    static const MachineType type("pu:1", tree_from_synthetic("pu:1"), NodeLevel{},
                                  LevelLatencies::defaults());
    return type;
}

// Every class its own latency and bandwidth, so a link shows its class.
LinkClasses distinct_classes() {
    LinkClasses c;
    c[LinkClass::HostSwitch] = {1, 100};
    c[LinkClass::SwitchSwitch] = {2, 200};
    c[LinkClass::Local] = {3, 300};
    c[LinkClass::Global] = {4, 400};
    return c;
}

Cluster build(const Family& f, const LinkClasses& links = distinct_classes()) {
    GenerateOptions o;
    o.links = links;
    return generate(f, one_pu(), o);
}

u64 power(u64 base, u32 exp) {
    u64 r = 1;
    while (exp-- > 0) r *= base;
    return r;
}

u64 product(const std::vector<u32>& v) {
    return std::accumulate(v.begin(), v.end(), u64{1}, std::multiplies<>());
}

// ---------------------------------------------------------------------------
// Failures collected in loops over millions of pairs: one CHECK at the end,
// with the first few failures as its message.
// ---------------------------------------------------------------------------

class Failures {
public:
    template <class... Args> void add(fmt::format_string<Args...> format, Args&&... args) {
        if (count_++ < 8) text_ += fmt::format(format, std::forward<Args>(args)...) + '\n';
    }
    u64 count() const { return count_; }
    const std::string& text() const { return text_; }

private:
    u64 count_ = 0;
    std::string text_;
};

#define CHECK_NO_FAILURES(failures)                                                                \
    do {                                                                                           \
        INFO((failures).text());                                                                   \
        CHECK((failures).count() == 0);                                                            \
    } while (false)

// ---------------------------------------------------------------------------
// Histograms (value -> how many), shown as text so a mismatch reads well.
// ---------------------------------------------------------------------------

using Histogram = std::map<u32, u64>;

void add(Histogram& h, u32 value, u64 count = 1) {
    if (count != 0) h[value] += count;
}

std::string show(const Histogram& h) {
    std::string s;
    for (const auto& [value, count] : h) s += fmt::format("{}:{} ", value, count);
    return s.empty() ? "(empty)" : s;
}

// Distribution of a sum of independent coordinates.
Histogram convolve(const Histogram& a, const Histogram& b) {
    Histogram r;
    for (const auto& [va, ca] : a)
        for (const auto& [vb, cb] : b) add(r, va + vb, ca * cb);
    return r;
}

Histogram degree_histogram(const Network& net, u32 first, u32 last) {
    Histogram h;
    for (u32 v = first; v < last; ++v) add(h, net.degree(VertexId(v)));
    return h;
}

// ---------------------------------------------------------------------------
// Checks shared by every family
// ---------------------------------------------------------------------------

void check_counts(const Family& f, const Cluster& c, u64 machines, u64 switches, u64 links) {
    INFO(f.spec());
    CHECK(f.num_machines() == machines);
    CHECK(f.num_switches() == switches);
    CHECK(f.num_links() == links);
    CHECK(f.num_vertices() == machines + switches);
    CHECK(c.num_machines() == machines);
    CHECK(c.num_switches() == switches);
    CHECK(c.num_net_links() == links);
    CHECK(c.num_pes() == machines); // one PU each
    CHECK(c.name() == f.spec());    // the default name
}

// The family's degree of every vertex is the built one.
void check_degrees(const Family& f, const Cluster& c) {
    Failures fail;
    const Network& net = c.network();
    for (u32 v = 0; v < net.num_vertices(); ++v)
        if (f.degree(v) != net.degree(VertexId(v)))
            fail.add("vertex {}: family degree {}, built {}", v, f.degree(v),
                     net.degree(VertexId(v)));
    INFO(f.spec());
    CHECK_NO_FAILURES(fail);
}

void check_degree_histograms(const Family& f, const Cluster& c, const Histogram& machines,
                             const Histogram& switches) {
    INFO(f.spec());
    const Network& net = c.network();
    CHECK(show(degree_histogram(net, 0, net.num_machines())) == show(machines));
    CHECK(show(degree_histogram(net, net.num_machines(), net.num_vertices())) == show(switches));
}

// Every link has the latency and bandwidth of the class `expected` gives it,
// joins two distinct vertices, and is a single cable.
void check_link_classes(const Cluster& c, const std::function<LinkClass(const Link&)>& expected,
                        const LinkClasses& classes = distinct_classes()) {
    Failures fail;
    for (const Link& l : c.network().links()) {
        const LinkClass k = expected(l);
        const LinkSpec& spec = classes[k];
        if (l.latency_ns != spec.latency_ns || l.bandwidth_gbps != spec.bandwidth_gbps)
            fail.add("link {}-{}: latency {} bandwidth {}, expected class {} ({} / {})", l.a.value,
                     l.b.value, l.latency_ns, l.bandwidth_gbps, link_class_name(k), spec.latency_ns,
                     spec.bandwidth_gbps);
        if (l.a == l.b) fail.add("link {}-{}: a loop", l.a.value, l.b.value);
        if (l.multiplicity != 1)
            fail.add("link {}-{}: {} cables", l.a.value, l.b.value, l.multiplicity);
    }
    INFO(c.name());
    CHECK_NO_FAILURES(fail);
}

// Host-switch between a machine and a switch; switch-switch otherwise (also
// between two machines of a direct network).
void check_host_switch_classes(const Cluster& c) {
    const Network& net = c.network();
    check_link_classes(c, [&](const Link& l) {
        return net.is_machine(l.a) != net.is_machine(l.b) ? LinkClass::HostSwitch
                                                          : LinkClass::SwitchSwitch;
    });
}

// BFS from a vertex of the built network.
class Bfs {
public:
    explicit Bfs(const Cluster& c) : search_(c.network()) {}
    const std::vector<u32>& from(u32 v) {
        search_.hops_from(VertexId(v), hops_);
        return hops_;
    }

private:
    NetworkSearch search_;
    std::vector<u32> hops_;
};

struct PairScan {
    Histogram bfs;                 // BFS hops over ordered pairs of distinct machines
    u32 max_bfs = 0;               // the largest of them
    u32 max_family = 0;            // the largest family hop count seen
    std::vector<u32> eccentricity; // per source, over machines
};

// From each source machine to every machine: the family's hop count against
// BFS (equal under HopRule::Shortest, never below it under minimal routing),
// and symmetric.
PairScan scan_pairs(const Family& f, const Cluster& c, const std::vector<u32>& sources) {
    PairScan scan;
    Failures fail;
    Bfs bfs(c);
    const u32 m = c.num_machines();
    const bool shortest = f.hop_rule() == HopRule::Shortest;
    for (const u32 s : sources) {
        const auto& hops = bfs.from(s);
        u32 ecc = 0;
        for (u32 t = 0; t < m; ++t) {
            const u32 b = hops[t];
            if (b == NetworkSearch::unreachable_hops) {
                fail.add("machines {} and {}: not connected", s, t);
                continue;
            }
            const u32 h = f.machine_hops(s, t);
            if (shortest ? h != b : h < b)
                fail.add("machines {} and {}: family {} hops, BFS {}", s, t, h, b);
            if (f.machine_hops(t, s) != h)
                fail.add("machines {} and {}: {} hops one way, {} the other", s, t, h,
                         f.machine_hops(t, s));
            if (s != t) add(scan.bfs, b);
            ecc = std::max(ecc, b);
            scan.max_family = std::max(scan.max_family, h);
        }
        if (hops[s] != 0 || f.machine_hops(s, s) != 0) fail.add("machine {}: not 0 from itself", s);
        scan.eccentricity.push_back(ecc);
        scan.max_bfs = std::max(scan.max_bfs, ecc);
    }
    INFO(f.spec());
    CHECK_NO_FAILURES(fail);
    return scan;
}

std::vector<u32> all_machines(const Cluster& c) {
    std::vector<u32> v(c.num_machines());
    std::iota(v.begin(), v.end(), 0u);
    return v;
}

// `count` distinct machines drawn with a fixed seed, machine 0 and the last one included.
std::vector<u32> sample_machines(const Cluster& c, u32 count, u64 seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<u32> pick(0, c.num_machines() - 1);
    std::vector<u32> v{0};
    if (c.num_machines() > 1) v.push_back(c.num_machines() - 1);
    count = std::min(count, c.num_machines());
    while (v.size() < count) {
        const u32 m = pick(rng);
        if (std::find(v.begin(), v.end(), m) == v.end()) v.push_back(m);
    }
    return v;
}

// All pairs: hop counts against BFS, and the diameter against the largest.
PairScan check_all_pairs(const Family& f, const Cluster& c) {
    PairScan scan = scan_pairs(f, c, all_machines(c));
    INFO(f.spec());
    CHECK(f.diameter() == scan.max_family);
    if (f.hop_rule() == HopRule::Shortest) CHECK(f.diameter() == scan.max_bfs);
    return scan;
}

// ---------------------------------------------------------------------------
// Direct networks from the test's own coordinates
// ---------------------------------------------------------------------------

// A graph of routers as the test knows it: how many, links by closed formula,
// and each router's degree and distance from its coordinates.
struct RouterRef {
    u64 routers = 0;
    u64 links = 0;
    std::function<u32(u32)> degree;
    std::function<u32(u32, u32)> hops;
};

// Counts, degrees, link classes, hops of all pairs and diameter of the family
// built with `c` machines per router (0: the routers are the machines).
void check_router_family(const Family& f, const RouterRef& ref, u32 c) {
    INFO(f.spec());
    const u64 r = ref.routers;
    // The reference against itself: degrees add up to twice the links.
    u64 degree_sum = 0;
    for (u32 i = 0; i < r; ++i) degree_sum += ref.degree(i);
    REQUIRE(degree_sum == 2 * ref.links);

    const Cluster cl = build(f);
    check_counts(f, cl, c == 0 ? r : r * c, c == 0 ? 0 : r, ref.links + (c == 0 ? 0 : r * c));
    check_degrees(f, cl);
    Histogram machine_degrees, switch_degrees;
    for (u32 i = 0; i < r; ++i) add(c == 0 ? machine_degrees : switch_degrees, ref.degree(i) + c);
    if (c != 0) add(machine_degrees, 1, r * c);
    check_degree_histograms(f, cl, machine_degrees, switch_degrees);
    check_host_switch_classes(cl);

    // Hops between machines: router hops, plus the two host links when the
    // machines hang off routers; 2 between two machines of one router.
    Histogram expected;
    u32 diameter = 0;
    for (u32 a = 0; a < r; ++a)
        for (u32 b = 0; b < r; ++b) {
            if (a == b) continue;
            const u32 h = ref.hops(a, b) + (c == 0 ? 0 : 2);
            add(expected, h, c == 0 ? 1 : u64{c} * c);
            diameter = std::max(diameter, h);
        }
    if (c > 1) {
        add(expected, 2, r * c * (c - 1));
        diameter = std::max(diameter, 2u);
    }
    const PairScan scan = check_all_pairs(f, cl);
    CHECK(show(scan.bfs) == show(expected));
    CHECK(f.diameter() == diameter);
}

// Mixed-radix coordinates of router `r`, first dimension fastest. Any order
// would do: the checks compare histograms, not vertex numbers.
std::vector<u32> coords(u32 r, const std::vector<u32>& dims) {
    std::vector<u32> x(dims.size());
    for (std::size_t i = 0; i < dims.size(); ++i) {
        x[i] = r % dims[i];
        r /= dims[i];
    }
    return x;
}

u32 distance_on_line(u32 a, u32 b) {
    return a > b ? a - b : b - a;
}
u32 distance_on_ring(u32 a, u32 b, u32 n) {
    const u32 d = distance_on_line(a, b);
    return std::min(d, n - d);
}

RouterRef mesh_ref(const std::vector<u32>& dims) {
    RouterRef ref;
    ref.routers = product(dims);
    // (d_i - 1) links on each of the prod_{j != i} d_j lines along dimension i.
    for (std::size_t i = 0; i < dims.size(); ++i)
        ref.links += (dims[i] - 1) * ref.routers / dims[i];
    ref.degree = [dims](u32 r) {
        const auto x = coords(r, dims);
        u32 d = 0;
        for (std::size_t i = 0; i < dims.size(); ++i) d += (x[i] > 0) + (x[i] + 1 < dims[i]);
        return d;
    };
    ref.hops = [dims](u32 a, u32 b) {
        const auto x = coords(a, dims), y = coords(b, dims);
        u32 h = 0;
        for (std::size_t i = 0; i < dims.size(); ++i) h += distance_on_line(x[i], y[i]);
        return h;
    };
    return ref;
}

// Torus line of d routers: d links (a ring) when d >= 3, one when d == 2
// (the wrap-around would repeat it), none when d == 1.
u32 ring_links(u32 d) {
    return d >= 3 ? d : d == 2 ? 1 : 0;
}
u32 ring_degree(u32 d) {
    return d >= 3 ? 2 : d == 2 ? 1 : 0;
}

RouterRef torus_ref(const std::vector<u32>& dims) {
    RouterRef ref;
    ref.routers = product(dims);
    for (std::size_t i = 0; i < dims.size(); ++i)
        ref.links += u64{ring_links(dims[i])} * (ref.routers / dims[i]);
    ref.degree = [dims](u32) {
        u32 d = 0;
        for (const u32 k : dims) d += ring_degree(k);
        return d;
    };
    ref.hops = [dims](u32 a, u32 b) {
        const auto x = coords(a, dims), y = coords(b, dims);
        u32 h = 0;
        for (std::size_t i = 0; i < dims.size(); ++i) h += distance_on_ring(x[i], y[i], dims[i]);
        return h;
    };
    return ref;
}

RouterRef hypercube_ref(u32 dim) {
    RouterRef ref;
    ref.routers = u64{1} << dim;
    ref.links = u64{dim} << (dim - 1); // d * 2^(d-1)
    ref.degree = [dim](u32) { return dim; };
    ref.hops = [](u32 a, u32 b) { return static_cast<u32>(std::popcount(a ^ b)); };
    return ref;
}

RouterRef ring_ref(u32 n) {
    RouterRef ref;
    ref.routers = n;
    ref.links = ring_links(n);
    ref.degree = [n](u32) { return ring_degree(n); };
    ref.hops = [n](u32 a, u32 b) { return distance_on_ring(a, b, n); };
    return ref;
}

RouterRef complete_ref(u32 n) {
    RouterRef ref;
    ref.routers = n;
    ref.links = u64{n} * (n - 1) / 2;
    ref.degree = [n](u32) { return n - 1; };
    ref.hops = [](u32, u32) { return 1u; };
    return ref;
}

// Complete binary tree in heap order: children of i are 2i+1 and 2i+2.
u32 heap_depth(u32 i) {
    return static_cast<u32>(std::bit_width(i + 1)) - 1;
}

RouterRef binary_tree_ref(u32 levels) {
    RouterRef ref;
    ref.routers = (u64{1} << levels) - 1;
    ref.links = ref.routers - 1;
    const u32 n = static_cast<u32>(ref.routers);
    ref.degree = [n](u32 i) {
        const u32 children = (2 * i + 1 < n) + (2 * i + 2 < n);
        return children + (i > 0);
    };
    ref.hops = [](u32 a, u32 b) {
        u32 h = 0;
        while (a != b) {
            if (heap_depth(a) >= heap_depth(b))
                a = (a - 1) / 2;
            else
                b = (b - 1) / 2;
            ++h;
        }
        return h;
    };
    return ref;
}

// ---------------------------------------------------------------------------
// Trees of switches: XGFT(h; m1..mh; w1..wh), the k-ary n-tree among them
// ---------------------------------------------------------------------------

struct XgftRef {
    u64 hosts = 0, switches = 0, links = 0;
    Histogram host_degrees, switch_degrees, host_pairs; // pairs: ordered, distinct
    u32 diameter = 0;
};

// Level i (0 = hosts) has prod_{j>i} m_j * prod_{j<=i} w_j nodes; each node of
// level i-1 has w_i parents and each node of level i has m_i children. Two
// hosts whose highest differing label digit is i meet at level i: 2i hops.
XgftRef xgft_ref(const std::vector<u32>& m, const std::vector<u32>& w) {
    XgftRef ref;
    const std::size_t h = m.size();
    std::vector<u64> nodes(h + 1);
    for (std::size_t i = 0; i <= h; ++i) {
        u64 n = 1;
        for (std::size_t j = i; j < h; ++j) n *= m[j]; // m_{i+1} .. m_h
        for (std::size_t j = 0; j < i; ++j) n *= w[j]; // w_1 .. w_i
        nodes[i] = n;
    }
    ref.hosts = nodes[0];
    for (std::size_t i = 1; i <= h; ++i) {
        ref.switches += nodes[i];
        ref.links += nodes[i - 1] * w[i - 1];
        REQUIRE(nodes[i - 1] * w[i - 1] == nodes[i] * m[i - 1]); // the reference itself
        add(ref.switch_degrees, m[i - 1] + (i < h ? w[i] : 0), nodes[i]);
    }
    add(ref.host_degrees, w[0], ref.hosts);
    u64 below = 1; // hosts below a level i-1 node
    for (std::size_t i = 1; i <= h; ++i) {
        add(ref.host_pairs, static_cast<u32>(2 * i), ref.hosts * (m[i - 1] - 1) * below);
        if (m[i - 1] > 1) ref.diameter = static_cast<u32>(2 * i);
        below *= m[i - 1];
    }
    return ref;
}

void check_xgft_family(const Family& f, const XgftRef& ref, const Cluster& c) {
    INFO(f.spec());
    check_counts(f, c, ref.hosts, ref.switches, ref.links);
    check_degrees(f, c);
    check_degree_histograms(f, c, ref.host_degrees, ref.switch_degrees);
    check_host_switch_classes(c);
    CHECK(f.diameter() == ref.diameter);
}

XgftRef fat_tree_ref(u32 k, u32 n) {
    std::vector<u32> m(n, k), w(n, k);
    w[0] = 1;
    return xgft_ref(m, w);
}

// ---------------------------------------------------------------------------
// Dragonfly: minimal routing recomputed from the built graph
// ---------------------------------------------------------------------------

struct DragonflyShape {
    u32 p, a, h, g; // g: the groups actually built
    u32 routers() const { return a * g; }
    u32 hosts() const { return p * a * g; }
    u32 group(u32 router) const { return router / a; }
    // Links between each pair of groups.
    u32 per_pair() const { return g > 1 ? a * h / (g - 1) : 0; }
};

// Router of each routing hop, from the built network: routers are the
// switches (router r is vertex M + r, in group r / a), host i is on router i / p.
class MinimalRouting {
public:
    MinimalRouting(const DragonflyShape& s, const Cluster& c) : s_(s), m_(c.num_machines()) {
        const u32 r = s.routers();
        global_.resize(u64{s.g} * s.g);
        adjacent_.assign(u64{r} * r, false);
        for (const Link& l : c.network().links()) {
            if (l.a.value < m_ || l.b.value < m_) continue;
            const u32 x = l.a.value - m_, y = l.b.value - m_;
            adjacent_[u64{x} * r + y] = adjacent_[u64{y} * r + x] = true;
            if (s.group(x) == s.group(y)) continue;
            global_[u64{s.group(x)} * s.g + s.group(y)].push_back({x, y});
            global_[u64{s.group(y)} * s.g + s.group(x)].push_back({y, x});
        }
    }

    // Global links (u in group i, v in group j).
    const std::vector<std::pair<u32, u32>>& global(u32 i, u32 j) const {
        return global_[u64{i} * s_.g + j];
    }

    // Minimal route between routers; `missing` when the graph has no such route.
    static constexpr u32 missing = 1000;
    u32 router_hops(u32 x, u32 y) const {
        if (x == y) return 0;
        if (s_.group(x) == s_.group(y)) return adjacent_[u64{x} * s_.routers() + y] ? 1 : missing;
        u32 best = missing;
        for (const auto& [u, v] : global(s_.group(x), s_.group(y)))
            best = std::min(best, (x != u ? 1u : 0u) + 1 + (v != y ? 1u : 0u));
        return best;
    }

    u32 host_hops(u32 a, u32 b) const {
        if (a == b) return 0;
        return router_hops(a / s_.p, b / s_.p) + 2;
    }

private:
    DragonflyShape s_;
    u32 m_;
    std::vector<std::vector<std::pair<u32, u32>>> global_;
    std::vector<bool> adjacent_;
};

void check_dragonfly(u32 p, u32 a, u32 h, u32 g_requested) {
    const auto f = make_dragonfly(p, a, h, g_requested);
    INFO(f->spec());
    const DragonflyShape s{p, a, h, g_requested == 0 ? a * h + 1 : g_requested};
    const Cluster c = build(*f);
    const u32 m = s.hosts();
    const u64 local = u64{s.g} * a * (a - 1) / 2;
    const u64 global = u64{s.g} * s.per_pair() * (s.g - 1) / 2;
    check_counts(*f, c, m, s.routers(), m + local + global);
    check_degrees(*f, c);
    CHECK(f->hop_rule() == HopRule::MinimalRouting);

    // Hosts: one link each, to router i / p.
    const Network& net = c.network();
    Failures fail;
    for (u32 i = 0; i < m; ++i) {
        const auto nb = net.neighbors(VertexId(i));
        if (nb.size() != 1 || nb[0].value != m + i / p)
            fail.add("host {}: not (only) on router {}", i, i / p);
    }
    // Routers: p hosts, a-1 local links, at most h global ones.
    std::vector<u32> global_degree(s.routers(), 0);
    for (const Link& l : net.links())
        if (!net.is_machine(l.a) && !net.is_machine(l.b) &&
            s.group(l.a.value - m) != s.group(l.b.value - m)) {
            ++global_degree[l.a.value - m];
            ++global_degree[l.b.value - m];
        }
    for (u32 r = 0; r < s.routers(); ++r) {
        if (global_degree[r] > h) fail.add("router {}: {} global links > h", r, global_degree[r]);
        if (net.degree(VertexId(m + r)) != p + (a - 1) + global_degree[r])
            fail.add("router {}: degree {}, expected {} hosts + {} local + {} global", r,
                     net.degree(VertexId(m + r)), p, a - 1, global_degree[r]);
    }
    CHECK_NO_FAILURES(fail);

    // Link classes from the endpoints: host-router, same group, other group.
    check_link_classes(c, [&](const Link& l) {
        if (net.is_machine(l.a) || net.is_machine(l.b)) {
            CHECK(net.is_machine(l.a) != net.is_machine(l.b));
            return LinkClass::HostSwitch;
        }
        return s.group(l.a.value - m) == s.group(l.b.value - m) ? LinkClass::Local
                                                                : LinkClass::Global;
    });

    // Exactly floor(a*h/(g-1)) global links between every two groups.
    const MinimalRouting routing(s, c);
    Failures pairs;
    for (u32 i = 0; i < s.g; ++i)
        for (u32 j = i + 1; j < s.g; ++j)
            if (routing.global(i, j).size() != s.per_pair())
                pairs.add("groups {} and {}: {} global links, expected {}", i, j,
                          routing.global(i, j).size(), s.per_pair());
    CHECK_NO_FAILURES(pairs);

    // Every host pair: the family's hops are minimal routing's, never below BFS.
    Failures hops;
    u32 diameter = 0;
    Bfs bfs(c);
    for (u32 x = 0; x < m; ++x) {
        const auto& shortest = bfs.from(x);
        for (u32 y = 0; y < m; ++y) {
            const u32 expected = routing.host_hops(x, y);
            const u32 got = f->machine_hops(x, y);
            diameter = std::max(diameter, expected);
            if (got != expected || got < shortest[y])
                hops.add("hosts {} and {}: family {} hops, minimal routing {}, BFS {}", x, y, got,
                         expected, shortest[y]);
        }
    }
    CHECK_NO_FAILURES(hops);
    CHECK(diameter < MinimalRouting::missing);
    CHECK(f->diameter() == diameter);
}

// ---------------------------------------------------------------------------
// Slim fly (MMS graphs)
// ---------------------------------------------------------------------------

// q = 4w + delta, delta in {-1, 0, 1}; router radix k' = (3q - delta) / 2.
u32 slimfly_radix(u32 q) {
    const int delta = q % 4 == 3 ? -1 : q % 4 == 0 ? 0 : 1;
    return static_cast<u32>((3 * static_cast<int>(q) - delta) / 2);
}

void check_slimfly(u32 q, u32 p_requested, bool all_pairs) {
    const auto f = make_slimfly(q, p_requested);
    INFO(f->spec());
    const u32 k = slimfly_radix(q);
    const u32 p = p_requested == 0 ? (k + 1) / 2 : p_requested;
    const u32 routers = 2 * q * q;
    const u32 m = routers * p;
    const Cluster c = build(*f);
    check_counts(*f, c, m, routers, u64{q} * q * k + m);
    check_degrees(*f, c);
    check_degree_histograms(*f, c, Histogram{{1, m}}, Histogram{{k + p, routers}});
    check_host_switch_classes(c);

    // Diameter 2 between routers.
    Bfs bfs(c);
    Failures fail;
    u32 router_diameter = 0;
    for (u32 r = 0; r < routers; ++r) {
        const auto& hops = bfs.from(m + r);
        for (u32 t = 0; t < routers; ++t) router_diameter = std::max(router_diameter, hops[m + t]);
        // Host i is on router i / p.
        for (u32 i = r * p; i < (r + 1) * p; ++i)
            if (hops[i] != 1) fail.add("host {}: not on router {}", i, r);
    }
    CHECK_NO_FAILURES(fail);
    CHECK(router_diameter == 2);
    CHECK(f->diameter() == 4);
    if (all_pairs) {
        CHECK(check_all_pairs(*f, c).max_bfs == 4);
    } else {
        const PairScan scan = scan_pairs(*f, c, sample_machines(c, 24, q));
        CHECK(scan.max_bfs == 4);
    }
}

// BFS from `source`: its histogram over machines, and every family hop count
// from it against BFS.
Histogram machine_histogram_from(const Family& f, const Cluster& c, u32 source) {
    Bfs bfs(c);
    const auto& hops = bfs.from(source);
    Histogram h;
    Failures fail;
    for (u32 t = 0; t < c.num_machines(); ++t) {
        add(h, hops[t]);
        if (f.machine_hops(source, t) != hops[t])
            fail.add("machines {} and {}: family {} hops, BFS {}", source, t,
                     f.machine_hops(source, t), hops[t]);
    }
    CHECK_NO_FAILURES(fail);
    return h;
}

} // namespace

// ===========================================================================
// Direct networks
// ===========================================================================

TEST_CASE("mesh: counts, degrees and hops from coordinates", "[families][mesh]") {
    const std::vector<std::vector<u32>> shapes{
        {1},       {2},       {5},    {2, 2},       {3, 4},         {1, 4},
        {4, 1, 3}, {2, 3, 4}, {6, 7}, {3, 3, 3, 3}, {2, 2, 2, 2, 2}};
    for (const auto& dims : shapes)
        for (const u32 c : {0u, 1u, 3u}) {
            const auto f = make_mesh(dims, c);
            check_router_family(*f, mesh_ref(dims), c);
        }
    // A textbook value: a 16x16 mesh has 2*16*15 = 480 links.
    CHECK(make_mesh({16, 16})->num_links() == 480);
    CHECK(make_mesh({16, 16})->diameter() == 30);
    CHECK(make_torus({16, 16}, 2)->spec() == "torus --dims 16x16 --concentration 2");
    CHECK(make_mesh({8, 8, 8}, 2)->num_links() == 3 * 8 * 8 * 7 + 1024);
}

TEST_CASE("torus: counts, degrees and hops from coordinates", "[families][torus]") {
    const std::vector<std::vector<u32>> shapes{
        {1},    {2},    {3},       {8},       {2, 2},    {2, 3},       {3, 3}, {4, 5},
        {1, 6}, {6, 1}, {2, 3, 1}, {4, 4, 4}, {3, 2, 5}, {2, 2, 2, 2}, {5, 7}, {1, 1, 3}};
    for (const auto& dims : shapes)
        for (const u32 c : {0u, 1u, 2u}) {
            const auto f = make_torus(dims, c);
            check_router_family(*f, torus_ref(dims), c);
        }
    // Per dimension: d_i links per line if d_i >= 3, 1 if d_i == 2, 0 if d_i == 1.
    CHECK(make_torus({2, 3, 1})->num_links() == 3 * 1 + 2 * 3 + 0);
    CHECK(make_torus({16, 16})->num_links() == 512);
    CHECK(make_torus({16, 16})->diameter() == 16);
    CHECK(make_torus({5, 5})->diameter() == 4);
}

TEST_CASE("hypercube: counts, degrees and hops from bit labels", "[families][hypercube]") {
    for (u32 dim = 1; dim <= 8; ++dim)
        for (const u32 c : {0u, 1u, 2u}) {
            if (dim == 8 && c == 2) continue; // enough pairs already
            const auto f = make_hypercube(dim, c);
            check_router_family(*f, hypercube_ref(dim), c);
        }
    CHECK(make_hypercube(10)->num_links() == 10 * 512);
    CHECK(make_hypercube(10)->diameter() == 10);
}

TEST_CASE("ring: counts, degrees and hops", "[families][ring]") {
    for (const u32 n : {1u, 2u, 3u, 4u, 7u, 10u, 33u})
        for (const u32 c : {0u, 1u, 3u}) check_router_family(*make_ring(n, c), ring_ref(n), c);
    CHECK(make_ring(100)->num_links() == 100);
    CHECK(make_ring(100)->diameter() == 50);
    CHECK(make_ring(101)->diameter() == 50);
}

TEST_CASE("complete graph: counts, degrees and hops", "[families][complete]") {
    for (const u32 n : {1u, 2u, 3u, 5u, 12u, 30u})
        for (const u32 c : {0u, 1u, 2u})
            check_router_family(*make_complete(n, c), complete_ref(n), c);
    CHECK(make_complete(1000)->num_links() == 1000 * 999 / 2);
    CHECK(make_complete(1000)->diameter() == 1);
    CHECK(make_complete(1000, 4)->diameter() == 3);
}

TEST_CASE("binary tree: counts, degrees and hops", "[families][tree]") {
    for (u32 levels = 1; levels <= 8; ++levels)
        for (const u32 c : {0u, 1u, 2u}) {
            if (levels == 8 && c == 2) continue;
            const auto f = make_binary_tree(levels, c);
            check_router_family(*f, binary_tree_ref(levels), c);
        }
    // 2^L - 1 machines, 2^L - 2 links, diameter 2(L - 1).
    const auto big = make_binary_tree(20);
    CHECK(big->num_machines() == (1u << 20) - 1);
    CHECK(big->num_links() == (1u << 20) - 2);
    CHECK(big->diameter() == 38);
}

// ===========================================================================
// Trees of switches
// ===========================================================================

TEST_CASE("fat-tree k-ary n-tree: counts, degrees, link classes and hops", "[families][fat-tree]") {
    const std::vector<std::pair<u32, u32>> shapes{{2, 1}, {5, 1}, {2, 2}, {2, 3}, {3, 2},
                                                  {4, 2}, {4, 3}, {2, 5}, {5, 2}, {3, 3}};
    for (const auto& [k, n] : shapes) {
        const auto f = make_fat_tree(k, n);
        INFO(f->spec());
        const XgftRef ref = fat_tree_ref(k, n);
        // Textbook: k^n hosts, n k^(n-1) switches, n k^n links, diameter 2n;
        // the top k^(n-1) switches have k links, the others 2k.
        REQUIRE(ref.hosts == power(k, n));
        REQUIRE(ref.switches == n * power(k, n - 1));
        REQUIRE(ref.links == n * power(k, n));
        Histogram switches;
        add(switches, k, power(k, n - 1));
        add(switches, 2 * k, (n - 1) * power(k, n - 1));
        REQUIRE(show(ref.switch_degrees) == show(switches));
        REQUIRE(ref.diameter == 2 * n);

        const Cluster c = build(*f);
        check_xgft_family(*f, ref, c);
        const PairScan scan = check_all_pairs(*f, c);
        CHECK(show(scan.bfs) == show(ref.host_pairs));
    }
}

TEST_CASE("xgft: parsed parameters, counts, degrees and hops", "[families][xgft]") {
    const auto p = parse_xgft("3;4,4,4;1,4,4");
    CHECK(p.m == std::vector<u32>{4, 4, 4});
    CHECK(p.w == std::vector<u32>{1, 4, 4});
    const auto q = parse_xgft("1;7;3");
    CHECK(q.m == std::vector<u32>{7});
    CHECK(q.w == std::vector<u32>{3});

    const std::vector<std::pair<std::vector<u32>, std::vector<u32>>> shapes{
        {{4, 4, 4}, {1, 4, 4}},
        {{4, 3, 5}, {1, 2, 3}},
        {{2}, {1}},
        {{3}, {2}},
        {{1, 4}, {1, 2}},
        {{4, 1}, {1, 3}},
        {{4, 4}, {1, 1}},
        {{2, 2, 2}, {2, 2, 2}},
        {{8, 6, 10}, {2, 3, 4}},
        {{3, 2, 2, 3}, {1, 3, 1, 2}}};
    for (const auto& [m, w] : shapes) {
        const auto f = make_xgft(m, w);
        INFO(f->spec());
        const XgftRef ref = xgft_ref(m, w);
        const Cluster c = build(*f);
        check_xgft_family(*f, ref, c);
        const PairScan scan = check_all_pairs(*f, c);
        CHECK(show(scan.bfs) == show(ref.host_pairs));
    }

    // XGFT(3; 4,3,5; 1,2,3) by hand: 60 hosts; 15 + 10 + 6 switches; 60 + 30 + 30 links.
    const auto uneven = make_xgft({4, 3, 5}, {1, 2, 3});
    CHECK(uneven->num_machines() == 60);
    CHECK(uneven->num_switches() == 31);
    CHECK(uneven->num_links() == 120);
    CHECK(uneven->diameter() == 6);
}

TEST_CASE("xgft with m = 4,4,4 and w = 1,4,4 is the 4-ary 3-tree", "[families][xgft][fat-tree]") {
    const auto p = parse_xgft("3;4,4,4;1,4,4");
    const auto x = make_xgft(p.m, p.w);
    const auto t = make_fat_tree(4, 3);
    CHECK(x->num_machines() == t->num_machines());
    CHECK(x->num_switches() == t->num_switches());
    CHECK(x->num_links() == t->num_links());
    CHECK(x->diameter() == t->diameter());
    Failures fail;
    for (u32 a = 0; a < 64; ++a)
        for (u32 b = 0; b < 64; ++b)
            if (x->machine_hops(a, b) != t->machine_hops(a, b))
                fail.add("hosts {} and {}: xgft {}, fat-tree {}", a, b, x->machine_hops(a, b),
                         t->machine_hops(a, b));
    CHECK_NO_FAILURES(fail);
}

// ===========================================================================
// Butterfly
// ===========================================================================

TEST_CASE("butterfly k-ary n-fly: counts, degrees and shortest hops", "[families][butterfly]") {
    // From n = 8 a shortest path can cut through a host between the two
    // sides (the first formula missed it): 2-ary 8- to 10-flies catch that.
    const std::vector<std::pair<u32, u32>> shapes{{2, 1}, {4, 1}, {2, 2}, {3, 2}, {4, 2},
                                                  {2, 3}, {3, 3}, {2, 4}, {3, 4}, {2, 6},
                                                  {2, 8}, {2, 9}, {2, 10}};
    for (const auto& [k, n] : shapes) {
        const auto f = make_butterfly(k, n);
        INFO(f->spec());
        const u64 hosts = power(k, n), switches = n * power(k, n - 1);
        // Hosts attach to the first and the last stage (one switch when n == 1),
        // and n-1 stages of k^n links join the n stages.
        const u64 links = n == 1 ? k : (n + 1) * hosts;
        const Cluster c = build(*f);
        check_counts(*f, c, hosts, switches, links);
        check_degrees(*f, c);
        check_degree_histograms(*f, c, Histogram{{n == 1 ? 1u : 2u, hosts}},
                                Histogram{{n == 1 ? k : 2 * k, switches}});
        check_host_switch_classes(c);
        CHECK(f->hop_rule() == HopRule::Shortest);
        check_all_pairs(*f, c);
    }
}

// ===========================================================================
// Rail-optimized (DGX SuperPOD)
// ===========================================================================

TEST_CASE("rail-optimized: counts, degrees, rails and hops against BFS", "[families][rails]") {
    // {units, hosts per unit, rails, spines}; one unit may have no spine.
    const std::vector<std::array<u32, 4>> shapes{{1, 1, 1, 0},  {1, 4, 2, 0}, {1, 3, 3, 2},
                                                 {2, 1, 1, 1},  {2, 4, 2, 1}, {3, 4, 2, 3},
                                                 {4, 8, 8, 16}, {5, 2, 3, 4}, {2, 32, 8, 8}};
    for (const auto& [u, h, r, s] : shapes) {
        const auto f = make_rail_optimized(u, h, r, s);
        INFO(f->spec());
        const u64 hosts = u64{u} * h, leaves = u64{u} * r;
        const Cluster c = build(*f);
        check_counts(*f, c, hosts, leaves + s, hosts * r + leaves * s);
        check_degrees(*f, c);
        Histogram switch_degrees{{h + s, leaves}};
        if (s > 0) add(switch_degrees, static_cast<u32>(leaves), s);
        check_degree_histograms(*f, c, Histogram{{r, hosts}}, switch_degrees);
        check_host_switch_classes(c);
        // Adapter k of host m on its unit's rail-k leaf, as the rail rule reads it.
        const Network& net = c.network();
        for (u32 m = 0; m < hosts; ++m) {
            const auto n = net.neighbors(VertexId(m));
            REQUIRE(n.size() == r);
            for (u32 k = 0; k < r; ++k) CHECK(n[k].value == hosts + (m / h) * r + k);
        }
        CHECK(f->hop_rule() == HopRule::Shortest);
        check_all_pairs(*f, c);
    }
    // The 4-unit DGX SuperPOD: 32 leaves and 16 spines, as the reference
    // architecture's table counts them for 128 nodes.
    const auto pod = family_from_spec("rail-optimized --units 4");
    CHECK(pod->num_machines() == 128);
    CHECK(pod->num_switches() == 32 + 16);
    CHECK(pod->diameter() == 4);
    CHECK_THROWS_AS(make_rail_optimized(2, 4, 2, 0), UsageError);
    CHECK_THROWS_AS(make_rail_optimized(0, 4, 2, 1), UsageError);
    // Half the leaves past 32 bits: the leaves are named, not --spines.
    CHECK_THROWS_WITH(family_from_spec("rail-optimized --units 65536 --rails 131072"),
                      Catch::Contains("65536 units x 131072 rails: more leaves than"));
}

// ===========================================================================
// Dragonfly
// ===========================================================================

TEST_CASE("dragonfly: counts, link classes and minimal routing from the built graph",
          "[families][dragonfly]") {
    // p, a, h, g (0: a*h+1)
    check_dragonfly(2, 4, 2, 0); // g = 9, one global link per pair of groups
    check_dragonfly(2, 4, 2, 5); // two per pair
    check_dragonfly(2, 4, 2, 3); // four per pair
    check_dragonfly(2, 4, 1, 2); // two groups, four links between them
    check_dragonfly(1, 3, 2, 3); // three per pair: a router's links on both other groups
    check_dragonfly(1, 4, 2, 0);
    check_dragonfly(1, 1, 2, 0); // one router per group: K3 of routers
    check_dragonfly(1, 1, 3, 0); // K4
    check_dragonfly(2, 1, 1, 0); // two groups of one router
    check_dragonfly(3, 2, 1, 0);
    check_dragonfly(1, 3, 2, 4); // two links per pair
    check_dragonfly(2, 3, 2, 6); // 6 ports per group, 5 used: uneven
    check_dragonfly(1, 2, 2, 4); // 4 ports per group, 3 used
    check_dragonfly(1, 5, 3, 7); // floor(15 / 6) = 2 per pair, 3 ports unused
    check_dragonfly(4, 4, 2, 0); // a = 2h, the balanced shape
    check_dragonfly(2, 4, 2, 1); // one group: no global link
    check_dragonfly(3, 1, 2, 1); // one router
}

// ===========================================================================
// Slim fly
// ===========================================================================

TEST_CASE("slim fly: counts, degrees, router diameter 2", "[families][slimfly]") {
    // q = 4, 8, 9 (and 16 below) are prime powers that are not primes: GF(p^e).
    for (const u32 q : {3u, 4u, 5u}) check_slimfly(q, 0, true);
    for (const u32 q : {7u, 8u, 9u, 11u, 13u}) check_slimfly(q, 0, false);
    check_slimfly(5, 1, true);
    check_slimfly(4, 2, true);
    check_slimfly(7, 3, false);
}

TEST_CASE("slim fly: diameter 2 between routers up to q = 32", "[families][slimfly][large]") {
    // One host per router keeps the searches small; sampled routers as sources.
    for (const u32 q : {17u, 19u, 23u, 25u, 27u, 29u, 31u, 32u}) {
        const auto f = make_slimfly(q, 1);
        INFO(f->spec());
        const u32 k = slimfly_radix(q), routers = 2 * q * q;
        const Cluster c = build(*f);
        check_counts(*f, c, routers, routers, u64{q} * q * k + routers);
        check_degrees(*f, c);
        const PairScan scan = scan_pairs(*f, c, sample_machines(c, 16, q));
        CHECK(scan.max_bfs == 4);
        CHECK(f->diameter() == 4);
    }
}

// ===========================================================================
// Large instances: sampled sources, every target
// ===========================================================================

TEST_CASE("large instances: hops from sampled sources against BFS", "[families][large]") {
    SECTION("torus 32x32x16") {
        const auto f = make_torus({32, 32, 16});
        const Cluster c = build(*f);
        check_counts(*f, c, 16384, 0, 3 * 16384);
        check_degrees(*f, c);
        const PairScan scan = scan_pairs(*f, c, sample_machines(c, 12, 1));
        CHECK(f->diameter() == 16 + 16 + 8);
        // Vertex-transitive: every machine's eccentricity is the diameter.
        for (const u32 e : scan.eccentricity) CHECK(e == f->diameter());
    }
    SECTION("torus 9x4x2 with concentration 3") {
        const auto f = make_torus({9, 4, 2}, 3);
        const Cluster c = build(*f);
        check_counts(*f, c, 216, 72, 9 * 8 + 4 * 18 + 1 * 36 + 216); // lines x links per line
        check_host_switch_classes(c);
        CHECK(f->diameter() == 4 + 2 + 1 + 2);
    }
    SECTION("hypercube 14") {
        const auto f = make_hypercube(14);
        const Cluster c = build(*f);
        check_counts(*f, c, 16384, 0, 14 * 8192);
        check_degrees(*f, c);
        const PairScan scan = scan_pairs(*f, c, sample_machines(c, 12, 2));
        for (const u32 e : scan.eccentricity) CHECK(e == 14);
    }
    SECTION("fat-tree k=8 n=4") {
        const auto f = make_fat_tree(8, 4);
        const XgftRef ref = fat_tree_ref(8, 4);
        const Cluster c = build(*f);
        check_xgft_family(*f, ref, c);
        const PairScan scan = scan_pairs(*f, c, sample_machines(c, 16, 3));
        for (const u32 e : scan.eccentricity) CHECK(e == 8);
        // From one host: (k-1) k^(j-1) hosts at 2j hops.
        Histogram one;
        for (u32 j = 1; j <= 4; ++j) add(one, 2 * j, 7 * power(8, j - 1) * 16);
        CHECK(show(scan.bfs) == show(one));
    }
    SECTION("xgft 3;8,6,10;2,3,4 and 4;3,4,2,5;2,2,3,1") {
        for (const char* text : {"3;8,6,10;2,3,4", "4;3,4,2,5;2,2,3,1"}) {
            const auto p = parse_xgft(text);
            const auto f = make_xgft(p.m, p.w);
            const XgftRef ref = xgft_ref(p.m, p.w);
            const Cluster c = build(*f);
            check_xgft_family(*f, ref, c);
            const PairScan scan = scan_pairs(*f, c, sample_machines(c, 16, 4));
            CHECK(scan.max_bfs == ref.diameter);
        }
    }
    SECTION("butterfly k=3 n=5") {
        const auto f = make_butterfly(3, 5);
        const Cluster c = build(*f);
        check_counts(*f, c, 243, 5 * 81, 6 * 243);
        check_degrees(*f, c);
        const PairScan scan = scan_pairs(*f, c, sample_machines(c, 32, 5));
        CHECK(scan.max_bfs <= f->diameter());
    }
    SECTION("slim fly q=16") {
        check_slimfly(16, 0, false);
    }
    SECTION("dragonfly p=4 a=8 h=4 (33 groups)") {
        const auto f = make_dragonfly(4, 8, 4);
        const Cluster c = build(*f);
        check_counts(*f, c, 4 * 8 * 33, 8 * 33, 4 * 8 * 33 + 33 * 28 + 33 * 32 / 2);
        check_degrees(*f, c);
        CHECK(f->diameter() == 5); // local, global, local, plus the two host links
        scan_pairs(*f, c, sample_machines(c, 16, 6));
    }
}

// ===========================================================================
// Table 3 of the thesis: the families at 2^16 = 65536 nodes
// ===========================================================================

TEST_CASE("Table 3: the families at 65536 nodes", "[families][table3]") {
    constexpr u32 nodes = 65536, d = 4, k = 16;

    SECTION("mesh 16x16x16x16") {
        const auto f = make_mesh({k, k, k, k});
        // Links d k^(d-1) (k-1) = 245,760. Diameter d(k-1) = 60: the thesis'
        // table printed 63, from a wrong formula.
        CHECK(f->num_links() == d * 16 * 16 * 16 * (k - 1));
        CHECK(f->num_links() == 245760);
        CHECK(f->diameter() == d * (k - 1));
        CHECK(f->diameter() == 60);
        const Cluster c = build(*f);
        check_counts(*f, c, nodes, 0, 245760);
        check_degrees(*f, c);
        // Degree 4 + (dimensions where the vertex is inside): C(4,j) 14^j 2^(4-j).
        Histogram degrees;
        const u64 binomial[] = {1, 4, 6, 4, 1};
        for (u32 j = 0; j <= d; ++j)
            add(degrees, d + j, binomial[j] * power(14, j) * power(2, d - j));
        check_degree_histograms(*f, c, degrees, {});
        // From a corner (the vertices of degree d): coordinates summing to j.
        u32 corner = 0;
        while (c.network().degree(VertexId(corner)) != d) ++corner;
        Histogram line;
        for (u32 i = 0; i < k; ++i) add(line, i);
        const Histogram expected = convolve(convolve(line, line), convolve(line, line));
        const Histogram got = machine_histogram_from(*f, c, corner);
        CHECK(show(got) == show(expected));
        CHECK(got.rbegin()->first == 60);
        machine_histogram_from(*f, c, 12345);
    }
    SECTION("torus 16x16x16x16") {
        const auto f = make_torus({k, k, k, k});
        // Diameter d floor(k/2) = 32 and d k^d = 262,144 links: the thesis'
        // table printed 31 and 262,143.
        CHECK(f->diameter() == 32);
        CHECK(f->num_links() == 262144);
        const Cluster c = build(*f);
        check_counts(*f, c, nodes, 0, 262144);
        check_degrees(*f, c);
        check_degree_histograms(*f, c, Histogram{{2 * d, nodes}}, {});
        Histogram ring;
        for (u32 i = 0; i < k; ++i) add(ring, distance_on_ring(0, i, k));
        const Histogram expected = convolve(convolve(ring, ring), convolve(ring, ring));
        for (const u32 source : {0u, 40000u, nodes - 1}) {
            const Histogram got = machine_histogram_from(*f, c, source);
            CHECK(show(got) == show(expected));
            CHECK(got.rbegin()->first == 32);
        }
    }
    SECTION("hypercube dimension 16") {
        const auto f = make_hypercube(16);
        CHECK(f->diameter() == 16);
        CHECK(f->num_links() == 524288); // (p/2) log2 p
        const Cluster c = build(*f);
        check_counts(*f, c, nodes, 0, 524288);
        check_degrees(*f, c);
        check_degree_histograms(*f, c, Histogram{{16, nodes}}, {});
        Histogram bit{{0, 1}, {1, 1}}, expected{{0, 1}};
        for (u32 i = 0; i < 16; ++i) expected = convolve(expected, bit);
        for (const u32 source : {0u, 777u}) {
            const Histogram got = machine_histogram_from(*f, c, source);
            CHECK(show(got) == show(expected));
        }
    }
    SECTION("fat-tree fanout 4: the 4-ary 8-tree") {
        const auto f = make_fat_tree(4, 8);
        CHECK(f->num_machines() == nodes);
        CHECK(f->diameter() == 16); // 2 log_4 p
        const XgftRef ref = fat_tree_ref(4, 8);
        CHECK(ref.switches == 8 * 16384);
        CHECK(ref.links == 8 * 65536);
        const Cluster c = build(*f);
        check_xgft_family(*f, ref, c);
        Histogram expected{{0, 1}};
        for (u32 j = 1; j <= 8; ++j) add(expected, 2 * j, 3 * power(4, j - 1));
        for (const u32 source : {0u, 54321u}) {
            const Histogram got = machine_histogram_from(*f, c, source);
            CHECK(show(got) == show(expected));
        }
    }
    SECTION("butterfly 2-ary 16-fly and dragonfly, counts only") {
        const auto b = make_butterfly(2, 16);
        CHECK(b->num_machines() == nodes);
        CHECK(b->num_switches() == 16 * 32768);
        CHECK(b->num_links() == 17 * nodes);
        const auto df = make_dragonfly(8, 16, 8); // 129 groups
        CHECK(df->num_machines() == 8 * 16 * 129);
        CHECK(df->num_switches() == 16 * 129);
        CHECK(df->num_links() == 8 * 16 * 129 + 129 * 120 + 129 * 128 / 2);
        CHECK(df->diameter() == 5);
    }
}

// ===========================================================================
// Presets, parsers, link classes, errors
// ===========================================================================

TEST_CASE("presets: the thesis' four cases", "[families][presets]") {
    struct Case {
        const char* name;
        u64 machines, links;
        u32 diameter;
    };
    for (const Case& p : {Case{"tree-M", 127, 126, 12}, Case{"mesh2D", 256, 480, 30},
                          Case{"mesh3D", 512, 1344, 21}, Case{"tree-G", 1023, 1022, 18}}) {
        INFO(p.name);
        const auto f = make_preset(p.name);
        CHECK(f->diameter() == p.diameter);
        const Cluster c = build(*f, LinkClasses::uniform(preset_latency_ns, 0));
        check_counts(*f, c, p.machines, 0, p.links);
        check_degrees(*f, c);
        for (const Link& l : c.network().links()) CHECK(l.latency_ns == preset_latency_ns);
        scan_pairs(*f, c, sample_machines(c, 8, 7));
    }
    CHECK_THROWS_AS(make_preset("tree-X"), UsageError);
    CHECK_THROWS_WITH(make_preset("tree-X"), Contains("tree-X"));
    CHECK_THROWS_AS(make_preset(""), UsageError);
}

TEST_CASE("parse_dims", "[families][parse]") {
    CHECK(parse_dims("4x4x4x4x2") == std::vector<u32>{4, 4, 4, 4, 2});
    CHECK(parse_dims("16") == std::vector<u32>{16});
    CHECK(parse_dims("16x1") == std::vector<u32>{16, 1});
    for (const char* bad : {"", "16x0", "0", "x4", "4x", "4xx4", "a", "4xb", "-4", "4x-1", "4.5",
                            "99999999999", " 4", "4 x 4"}) {
        INFO('"' << bad << '"');
        CHECK_THROWS_AS(parse_dims(bad), UsageError);
    }
    CHECK_THROWS_WITH(parse_dims("16x0"), Contains("0"));
}

TEST_CASE("parse_xgft errors", "[families][parse][xgft]") {
    for (const char* bad : {"2;4,4;1", "2;4,4,4;1,4,4", "", "3;4,4,4", "3;4,4,4;1,4,4;", "x;4;1",
                            "1;a;1", "0;;", "2;4,,4;1,1"}) {
        INFO('"' << bad << '"');
        CHECK_THROWS_AS(parse_xgft(bad), UsageError);
    }
}

TEST_CASE("set_link_class and the classes generate() applies", "[families][links]") {
    LinkClasses c = LinkClasses::uniform(7, 9);
    set_link_class(c, LinkField::Latency, "host-switch=150");
    CHECK(c[LinkClass::HostSwitch].latency_ns == 150);
    CHECK(c[LinkClass::HostSwitch].bandwidth_gbps == 9);
    CHECK(c[LinkClass::SwitchSwitch].latency_ns == 7);
    set_link_class(c, LinkField::Bandwidth, "global=300");
    CHECK(c[LinkClass::Global].bandwidth_gbps == 300);
    CHECK(c[LinkClass::Global].latency_ns == 7);
    CHECK(c[LinkClass::Local].bandwidth_gbps == 9);
    set_link_class(c, LinkField::Latency, "switch-switch=2.5");
    CHECK(c[LinkClass::SwitchSwitch].latency_ns == 2.5);
    set_link_class(c, LinkField::Latency, "local=0");
    CHECK(c[LinkClass::Local].latency_ns == 0);
    set_link_class(c, LinkField::Latency, "all=5");
    for (const LinkSpec& s : c.of) CHECK(s.latency_ns == 5);
    CHECK(c[LinkClass::Global].bandwidth_gbps == 300); // bandwidth untouched

    for (const char* bad : {"bogus=3", "=3", "local", "local=", "local=-1", "local=abc", "local=5x",
                            "global==1", "local=nan", "local=inf"}) {
        INFO('"' << bad << '"');
        LinkClasses before = LinkClasses::uniform(1, 1);
        CHECK_THROWS_AS(set_link_class(before, LinkField::Latency, bad), UsageError);
    }
    LinkClasses any;
    CHECK_THROWS_WITH(set_link_class(any, LinkField::Latency, "bogus=3"), Contains("bogus"));
    CHECK_THROWS_WITH(set_link_class(any, LinkField::Bandwidth, "local=-1"), Contains("-1"));

    CHECK(link_class_name(LinkClass::HostSwitch) == "host-switch");
    CHECK(link_class_name(LinkClass::SwitchSwitch) == "switch-switch");
    CHECK(link_class_name(LinkClass::Local) == "local");
    CHECK(link_class_name(LinkClass::Global) == "global");
    for (const LinkSpec& s : LinkClasses::defaults().of) CHECK(s.latency_ns > 0);

    // Classes set by name reach the links; a name given replaces the spec.
    LinkClasses mine = distinct_classes();
    set_link_class(mine, LinkField::Latency, "host-switch=150");
    set_link_class(mine, LinkField::Bandwidth, "switch-switch=25");
    GenerateOptions o;
    o.links = mine;
    o.name = "my-tree";
    const auto f = make_fat_tree(3, 2);
    const Cluster tree = generate(*f, one_pu(), o);
    CHECK(tree.name() == "my-tree");
    u64 host_links = 0;
    for (const Link& l : tree.network().links()) {
        const bool host = tree.network().is_machine(l.a) || tree.network().is_machine(l.b);
        host_links += host;
        CHECK(l.latency_ns == (host ? 150 : 2));
        CHECK(l.bandwidth_gbps == (host ? 100 : 25));
    }
    CHECK(host_links == 9);

    // The concentrated torus: host links and switch links; the direct one:
    // machines joined by switch-switch links.
    const Cluster torus = build(*make_torus({4, 3}, 2));
    check_host_switch_classes(torus);
    const Cluster direct = build(*make_torus({4, 3}));
    check_link_classes(direct, [](const Link&) { return LinkClass::SwitchSwitch; });
}

TEST_CASE("invalid parameters are usage errors naming the problem", "[families][errors]") {
    // Dragonfly: at most a*h+1 groups.
    CHECK_THROWS_AS(make_dragonfly(2, 4, 2, 10), UsageError);
    CHECK_THROWS_WITH(make_dragonfly(2, 4, 2, 10), Contains("a*h+1") && Contains("9"));
    CHECK_THROWS_AS(make_dragonfly(0, 4, 2), UsageError);
    // g > h, so that no router has two global links to one group.
    CHECK_THROWS_AS(make_dragonfly(2, 4, 2, 2), UsageError);
    CHECK_NOTHROW(make_dragonfly(2, 4, 2, 9));

    // Slim fly: q a prime power 4w + delta.
    for (const u32 q : {6u, 10u, 12u, 15u, 18u}) {
        INFO("q = " << q);
        CHECK_THROWS_AS(make_slimfly(q), UsageError);
        CHECK_THROWS_WITH(make_slimfly(q), Contains("prime power"));
    }
    CHECK_THROWS_AS(make_slimfly(2), UsageError);
    CHECK_THROWS_AS(make_slimfly(0), UsageError);
    CHECK_THROWS_AS(make_slimfly(1), UsageError);

    // Zero or missing sizes.
    CHECK_THROWS_AS(parse_dims("16x0"), UsageError);
    CHECK_THROWS_AS(parse_dims(""), UsageError);
    CHECK_THROWS_AS(make_mesh({}), UsageError);
    CHECK_THROWS_AS(make_torus({}), UsageError);
    CHECK_THROWS_AS(make_mesh({4, 0}), UsageError);
    CHECK_THROWS_AS(make_torus({0}), UsageError);
    CHECK_THROWS_AS(make_hypercube(0), UsageError);
    CHECK_THROWS_AS(make_ring(0), UsageError);
    CHECK_THROWS_AS(make_complete(0), UsageError);
    CHECK_THROWS_AS(make_binary_tree(0), UsageError);
    CHECK_THROWS_AS(make_butterfly(1, 3), UsageError);
    CHECK_THROWS_AS(make_butterfly(2, 0), UsageError);

    // Fat-tree and XGFT.
    CHECK_THROWS_AS(make_fat_tree(1, 3), UsageError);
    CHECK_THROWS_WITH(make_fat_tree(1, 3), Contains("--k"));
    CHECK_THROWS_AS(make_fat_tree(4, 0), UsageError);
    CHECK_THROWS_WITH(make_fat_tree(4, 0), Contains("--n"));
    CHECK_THROWS_AS(parse_xgft("2;4,4;1"), UsageError);
    CHECK_THROWS_AS(make_xgft({4, 4}, {1}), UsageError);
    CHECK_THROWS_AS(make_xgft({}, {}), UsageError);
    CHECK_THROWS_AS(make_xgft({4, 0}, {1, 1}), UsageError);
    CHECK_THROWS_AS(make_xgft({4, 4}, {1, 0}), UsageError);

    // Sizes beyond 32-bit ids, refused before anything is allocated.
    CHECK_THROWS_AS(make_torus({100000, 100000, 100000}), UsageError);
    CHECK_THROWS_WITH(make_torus({100000, 100000, 100000}), Contains("32-bit"));
    CHECK_THROWS_AS(make_complete(200000), UsageError); // 2e10 links
    CHECK_THROWS_AS(make_fat_tree(64, 8), UsageError);
    CHECK_THROWS_AS(make_hypercube(40), UsageError);
    CHECK_THROWS_AS(make_mesh({65536, 65536}, 2), UsageError);
    CHECK_THROWS_AS(make_butterfly(2, 40), UsageError);
    CHECK_THROWS_AS(make_xgft({65536, 65536, 65536}, {1, 1, 1}), UsageError);
    CHECK_THROWS_AS(make_dragonfly(1000, 1000, 1000), UsageError);
    CHECK_THROWS_WITH(make_slimfly(4096), Contains("32-bit")); // 2^25 routers of radix 6144
    CHECK_THROWS_AS(make_binary_tree(40), UsageError);

    // Unknown preset.
    CHECK_THROWS_AS(make_preset("mesh4D"), UsageError);
    CHECK_THROWS_WITH(make_preset("mesh4D"), Contains("preset"));

    // PEs beyond 32-bit ids: 2^22 machines of 1024 PUs.
    const MachineType wide("pu:1024", tree_from_synthetic("pu:1024"), NodeLevel{},
                           LevelLatencies::defaults());
    CHECK_THROWS_AS(generate(*make_ring(1u << 22), wide), UsageError);
}
