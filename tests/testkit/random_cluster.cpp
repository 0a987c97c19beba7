#include "testkit/random_cluster.hpp"

#include "nettopo/formats/description.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <sstream>

namespace nettopo::test {

Cluster build_cluster(const ClusterSpec& spec, bool allow_disconnected) {
    std::istringstream in(spec.description());
    LoadOptions o;
    o.build.allow_disconnected = allow_disconnected;
    return read_description(in, "random.topo", o);
}

namespace {

using T = ObjectType;

struct Shape {
    const char* description;
    std::vector<Level> levels;
};

// Symmetric machines, homogeneous and not: no cache groups, cache pairs, SMT,
// dies, several packages, a single PU.
const std::vector<Shape>& shapes() {
    static const std::vector<Shape> s = {
        {"core:1 pu:1", {{T::Core, 1}, {T::PU, 1}}},
        {"pack:1 core:4 pu:1", {{T::Package, 1}, {T::Core, 4}, {T::PU, 1}}},
        {"pack:1 l2:4 core:2 pu:1", {{T::Package, 1}, {T::L2, 4}, {T::Core, 2}, {T::PU, 1}}},
        {"pack:2 l3:1 core:2 pu:2", {{T::Package, 2}, {T::L3, 1}, {T::Core, 2}, {T::PU, 2}}},
        {"pack:2 l3:2 l2:2 core:1 pu:2",
         {{T::Package, 2}, {T::L3, 2}, {T::L2, 2}, {T::Core, 1}, {T::PU, 2}}},
        {"pack:1 die:2 l3:1 core:3 pu:1",
         {{T::Package, 1}, {T::Die, 2}, {T::L3, 1}, {T::Core, 3}, {T::PU, 1}}},
        {"pack:4 core:1 pu:1", {{T::Package, 4}, {T::Core, 1}, {T::PU, 1}}},
        {"pack:2 l2:2 l1:1 core:1 pu:2",
         {{T::Package, 2}, {T::L2, 2}, {T::L1, 1}, {T::Core, 1}, {T::PU, 2}}},
    };
    return s;
}

bool is_data_cache(T t) {
    return t == T::L5 || t == T::L4 || t == T::L3 || t == T::L2 || t == T::L1;
}

} // namespace

std::string ClusterSpec::description() const {
    std::string s = "name random\n";
    for (std::size_t m = 0; m < machines.size(); ++m)
        s += fmt::format("machine m{} {}{}{}\n", m, machines[m].description, machines[m].options,
                         machines[m].forwards ? "" : " forwards=no");
    for (std::uint32_t i = 0; i < switches; ++i) s += fmt::format("switch s{}\n", i);
    auto name = [&](std::uint32_t v) {
        return v < machines.size() ? fmt::format("m{}", v)
                                   : fmt::format("s{}", v - machines.size());
    };
    for (const LinkSpec& l : links) {
        s += fmt::format("link {} {} {}", name(l.a), name(l.b), l.latency_ns);
        if (l.bandwidth_gbps > 0) s += fmt::format(" bandwidth={}", l.bandwidth_gbps);
        if (l.count > 1) s += fmt::format(" count={}", l.count);
        s += '\n';
    }
    return s;
}

ClusterSpec random_cluster(std::mt19937_64& rng, const RandomOptions& o) {
    auto uniform = [&](std::uint32_t lo, std::uint32_t hi) {
        return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
    };
    ClusterSpec spec;
    const std::uint32_t machines = uniform(o.min_machines, o.max_machines);
    spec.switches = uniform(0, o.max_switches);
    for (std::uint32_t m = 0; m < machines; ++m) {
        const Shape& shape = shapes()[uniform(0, static_cast<std::uint32_t>(shapes().size() - 1))];
        MachineSpec ms{shape.description, shape.levels, std::nullopt, LevelLatencies::defaults(),
                       ""};
        if (uniform(0, 3) == 0) { // an explicit node level, one of the machine's own
            const Level& l =
                ms.levels[uniform(0, static_cast<std::uint32_t>(ms.levels.size() - 1))];
            ms.node_request = l.type;
            ms.options += fmt::format(" node={}", to_string(l.type));
        }
        if (uniform(0, 2) == 0) { // override some latencies, possibly breaking monotony
            for (const Level& l : ms.levels) {
                if (l.type == T::PU || uniform(0, 1)) continue;
                const double v = uniform(0, 400) / 4.0;
                ms.latencies[l.type] = v;
                ms.options += fmt::format(" lat.{}={}", to_string(l.type), v);
            }
        }
        if (o.end_host_share > 0)
            ms.forwards = std::uniform_real_distribution<double>(0, 1)(rng) >= o.end_host_share;
        spec.machines.push_back(std::move(ms));
    }
    // Decimal latencies down to the picosecond (0.001 ns), zero included:
    // nettopo adds picoseconds exactly, so Floyd–Warshall in picoseconds must
    // agree bit for bit, whichever end a search starts from.
    auto latency = [&] { return uniform(0, 9) == 0 ? 0.0 : uniform(1, 400000) / 1000.0; };
    auto add = [&](std::uint32_t a, std::uint32_t b) {
        for (const LinkSpec& l : spec.links)
            if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) return;
        spec.links.push_back({a, b, latency(), uniform(0, 1) ? 0.0 : 100.0, uniform(1, 3)});
    };
    const std::uint32_t n = spec.vertices();
    std::vector<std::uint32_t> order(n);
    for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    // A random spanning tree, then extra links.
    for (std::uint32_t i = 1; i < n; ++i) {
        if (o.allow_disconnected && uniform(0, 7) == 0) {
            spec.connected = false;
            continue;
        }
        add(order[i], order[uniform(0, i - 1)]);
    }
    const auto extra = static_cast<std::uint32_t>(o.extra_link_ratio * n);
    for (std::uint32_t i = 0; i < extra; ++i) {
        const std::uint32_t a = uniform(0, n - 1), b = uniform(0, n - 1);
        if (a != b) add(a, b);
    }
    return spec;
}

Oracle::Oracle(const ClusterSpec& spec) : spec_(spec), n_(spec.vertices()) {
    machine_first_pe_.push_back(0);
    machine_first_node_.push_back(0);
    for (std::uint32_t m = 0; m < spec.machines.size(); ++m) {
        const MachineSpec& ms = spec.machines[m];
        const std::uint32_t pus = pus_below(ms, -1);
        for (std::uint32_t i = 0; i < pus; ++i) pe_machine_.push_back(m);
        machine_first_pe_.push_back(machine_first_pe_.back() + pus);
        total_nodes_ += pus / pus_below(ms, node_level(ms));
        machine_first_node_.push_back(total_nodes_);
    }
    direct_.assign(std::size_t{n_} * n_, inf);
    hops_.assign(std::size_t{n_} * n_, inf);
    // Floyd–Warshall on integer picoseconds (the model's unit of addition).
    constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max() / 4;
    std::vector<std::int64_t> ps(std::size_t{n_} * n_, none);
    for (std::uint32_t v = 0; v < n_; ++v) ps[v * n_ + v] = 0, hops_[v * n_ + v] = 0;
    for (const LinkSpec& l : spec.links) {
        const auto w = static_cast<std::int64_t>(std::llround(l.latency_ns * 1000));
        direct_[l.a * n_ + l.b] = direct_[l.b * n_ + l.a] = l.latency_ns;
        ps[l.a * n_ + l.b] = ps[l.b * n_ + l.a] = std::min(ps[l.a * n_ + l.b], w);
        hops_[l.a * n_ + l.b] = hops_[l.b * n_ + l.a] = 1;
    }
    for (std::uint32_t k = 0; k < n_; ++k) {
        if (k < spec.machines.size() && !spec.machines[k].forwards) continue; // never in between
        for (std::uint32_t i = 0; i < n_; ++i)
            for (std::uint32_t j = 0; j < n_; ++j) {
                ps[i * n_ + j] = std::min(ps[i * n_ + j], ps[i * n_ + k] + ps[k * n_ + j]);
                hops_[i * n_ + j] =
                    std::min(hops_[i * n_ + j], hops_[i * n_ + k] + hops_[k * n_ + j]);
            }
    }
    lat_.resize(ps.size());
    for (std::size_t i = 0; i < ps.size(); ++i)
        lat_[i] = ps[i] == none ? inf : static_cast<double>(ps[i]) / 1000.0;
}

std::uint32_t Oracle::pus_below(const MachineSpec& m, int level) const {
    std::uint32_t n = 1;
    for (std::size_t i = static_cast<std::size_t>(level + 1); i < m.levels.size(); ++i)
        n *= m.levels[i].count;
    return n;
}

int Oracle::node_level(const MachineSpec& m) const {
    const auto index_of = [&](T t) {
        for (std::size_t i = 0; i < m.levels.size(); ++i)
            if (m.levels[i].type == t) return static_cast<int>(i);
        return -2;
    };
    if (m.node_request) return index_of(*m.node_request);
    const int core = index_of(T::Core);
    for (int i = core - 1; i >= 0; --i) {
        // Cores below one object of level i: product of counts down to the core level.
        std::uint32_t cores = 1;
        for (int j = i + 1; j <= core; ++j) cores *= m.levels[static_cast<std::size_t>(j)].count;
        if (is_data_cache(m.levels[static_cast<std::size_t>(i)].type) && cores > 1) return i;
    }
    return core;
}

std::uint32_t Oracle::node_of(std::uint32_t pe) const {
    const std::uint32_t m = machine_of(pe);
    return machine_first_node_[m] +
           local(pe) / pus_below(spec_.machines[m], node_level(spec_.machines[m]));
}

int Oracle::meet_level(const MachineSpec& m, std::uint32_t la, std::uint32_t lb) const {
    int deepest = -1;
    for (int i = 0; i < static_cast<int>(m.levels.size()); ++i) {
        const std::uint32_t size = pus_below(m, i);
        if (la / size == lb / size) deepest = i;
    }
    return deepest;
}

int Oracle::proximity(std::uint32_t a, std::uint32_t b) const {
    if (a == b) return 3;
    if (machine_of(a) != machine_of(b)) return 0;
    return node_of(a) == node_of(b) ? 2 : 1;
}

std::optional<std::pair<ObjectType, std::uint32_t>> Oracle::ancestor(std::uint32_t a,
                                                                     std::uint32_t b) const {
    if (machine_of(a) != machine_of(b)) return std::nullopt;
    const MachineSpec& m = spec_.machines[machine_of(a)];
    const int level = meet_level(m, local(a), local(b));
    if (level < 0) return std::pair{T::Machine, 0u};
    return std::pair{m.levels[static_cast<std::size_t>(level)].type,
                     local(a) / pus_below(m, level)};
}

namespace {

// The positional rule of share/doc/model.md on a symmetric level list (an
// independent twin of the library's walk over objects): going down, a level
// keeps its table value when below `bound`, the latency of the nearest level
// above with more PUs; otherwise it takes the midpoint of the bound and the
// largest latency below it. A level of one object per parent has its
// parent's PUs: the bound passes through it. Level -1 is the Machine.
double positional(const MachineSpec& m, int level, double bound, std::vector<double>& out) {
    const double own =
        m.latencies[level < 0 ? T::Machine : m.levels[static_cast<std::size_t>(level)].type];
    const bool fits = own < bound;
    const double mine = fits ? own : bound;
    double below = 0;
    if (static_cast<std::size_t>(level + 1) < m.levels.size()) {
        const bool same_pus = m.levels[static_cast<std::size_t>(level + 1)].count == 1;
        below = positional(m, level + 1, same_pus ? bound : mine, out);
    }
    const double d = fits ? own : std::max(below, (bound + below) / 2);
    out[static_cast<std::size_t>(level + 1)] = d;
    return d;
}

} // namespace

double Oracle::distance(std::uint32_t a, std::uint32_t b) const {
    if (a == b) return 0;
    const std::uint32_t ma = machine_of(a), mb = machine_of(b);
    if (ma != mb) return vertex_latency(ma, mb);
    const MachineSpec& m = spec_.machines[ma];
    std::vector<double> by_level(m.levels.size() + 1);
    positional(m, -1, std::numeric_limits<double>::infinity(), by_level);
    return by_level[static_cast<std::size_t>(meet_level(m, local(a), local(b)) + 1)];
}

double Oracle::hops(std::uint32_t a, std::uint32_t b) const {
    return vertex_hops(machine_of(a), machine_of(b));
}

double Oracle::link_latency(std::uint32_t u, std::uint32_t v) const {
    return direct_[u * n_ + v];
}

} // namespace nettopo::test
