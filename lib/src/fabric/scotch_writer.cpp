// A cluster as a Scotch target architecture: "tleaf" when its PEs form a
// uniform hierarchy, else "deco 0".
//
// Scotch's tree-leaf architecture (arch_tleaf.c): "tleaf L s0 c0 s1 c1 ..."
// is a tree whose level i objects have s_i children; two terminals whose
// deepest common object is at level i are c_i + c_(i+1) + ... + c_(L-1)
// apart (checked with atst: "tleaf 3 2 100 2 10 2 1" has distances 1, 11
// and 111). Terminals are numbered in leaf order, level 0 most significant.
// So a cluster is a tleaf when its distances are a function of the level of
// a uniform hierarchy over PE ids: one machine type; machines 0..M-1 split
// into groups of s_1 | s_2 | ... | M consecutive machines (a leaf switch's,
// a pod's) with a distance D_k between machines whose smallest common group
// has size s_k, D_1 < D_2 < ...; inside a machine the same over its PUs
// (a symmetric tree whose level latencies grow upwards), every distance
// inside a machine below D_1. The hierarchy is read from the distances of
// machine 0 (of PU 0) to the others and then checked on every pair, so a
// single odd cable sends the cluster to deco; the check costs M^2/2 + P^2/2
// lookups (in the family's closed form, or the general index when it pays:
// 6.5 s for 8192 machines of a fat-tree), which bounds it to
// max_scotch_tleaf_machines machines.
//
// Scotch's decomposition-defined architecture (Scotch user's guide, "Target
// files"; libscotch/arch_deco.c, archDecoArchLoad): after "deco" and the
// flavour 0 come the number of terminals and the largest terminal domain
// number, one "label weight number" triple per terminal, then the lower
// triangle of the terminal distance matrix, row by row in terminal order,
// each distance at least 1. Domain numbers are those of a binary
// decomposition: domain d has the subdomains 2d and 2d+1, the whole target
// is 1; Scotch allocates a table of MAX(MAX-1)/2 distances between domains,
// so MAX must stay small, which balanced halves guarantee (MAX < 2^(D+1) for
// N <= 2^D terminals).
//
// Terminals are PEs, numbered as everywhere in nettopo; Scotch computes the
// distance of two larger domains as the mean of their subdomains', which is
// why the halves should follow the hierarchy: each range of PEs is cut where
// the latency between the two PEs on either side of the cut is largest (a
// machine boundary under another switch before one under the same switch,
// before a package boundary inside a machine), among the cuts that leave
// neither half larger than the next power of two down; ties go to the cut
// nearest the middle, then the first.
#include "nettopo/fabric/scotch_writer.hpp"

#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/error.hpp"
#include "query/index/dense_table.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nettopo {

namespace {

// A latency as a Scotch distance: whole nanoseconds, at least 1.
std::int64_t scotch_distance(double ns) {
    return std::max<std::int64_t>(1, std::llround(ns));
}

// A uniform hierarchy over 0..n-1: groups of group[0] < group[1] < ... =
// n consecutive items, each size dividing the next, and distance[k] between
// two items whose smallest common group is group[k], increasing with k.
struct Hierarchy {
    std::vector<std::uint64_t> group;
    std::vector<std::int64_t> distance;
};

// The hierarchy the distances d(a, b) (a < b) follow, read from d(0, .) and
// checked on every pair, row by row; nullopt when they follow none (or some
// pair is not connected: d returns nullopt). `checking` is called once row 0
// has given a candidate, before the n^2/2 pairs are asked.
template <class Distance, class Checking>
std::optional<Hierarchy> uniform_hierarchy(std::uint64_t n, Distance&& d, Checking&& checking) {
    Hierarchy h;
    if (n == 1) return h;
    std::vector<std::uint64_t> starts; // where each distance of d(0, .) starts
    for (std::uint64_t j = 1; j < n; ++j) {
        const std::optional<std::int64_t> v = d(0, j);
        if (!v) return std::nullopt;
        if (h.distance.empty() || *v != h.distance.back()) {
            if (!h.distance.empty() && *v < h.distance.back()) return std::nullopt;
            h.distance.push_back(*v);
            starts.push_back(j);
        }
    }
    for (std::size_t k = 0; k < starts.size(); ++k) {
        h.group.push_back(k + 1 < starts.size() ? starts[k + 1] : n);
        if (k > 0 && h.group[k] % h.group[k - 1] != 0) return std::nullopt;
    }
    checking();
    for (std::uint64_t a = 0; a < n; ++a)
        for (std::uint64_t b = a + 1; b < n; ++b) {
            std::size_t k = 0;
            while (a / h.group[k] != b / h.group[k]) ++k;
            const std::optional<std::int64_t> v = d(a, b);
            if (!v || *v != h.distance[k]) return std::nullopt;
        }
    return h;
}

// The front door's rule for the questions of every pair of n things.
DistancePolicy all_pairs_policy(std::uint64_t n) {
    DistancePolicy policy;
    policy.questions = detail::pairs_of(n);
    return policy;
}

// "tleaf L s0 c0 ...", top level first, or nullopt (see the file comment).
std::optional<std::string> tleaf_target(const Cluster& cluster) {
    if (cluster.num_types() != 1 || cluster.num_pes() < 2 ||
        cluster.num_machines() > max_scotch_tleaf_machines)
        return std::nullopt;
    const MachineType& type = cluster.type(TypeId(0));
    if (type.num_pus() > max_scotch_tleaf_machines) return std::nullopt;
    // Row 0 by one search; the M^2/2 pairs of the check by the family's
    // closed form or the general index when it pays (distance_plan.hpp).
    const std::uint64_t m = cluster.num_machines();
    QueryEngine engine(cluster, nullptr);
    const auto machines = uniform_hierarchy(
        m,
        [&](std::uint64_t a, std::uint64_t b) {
            const auto pe = [&](std::uint64_t i) {
                return cluster.pes_of_machine(MachineId(static_cast<std::uint32_t>(i)))[0];
            };
            const std::optional<double> ns = engine.distance(pe(a), pe(b));
            return ns ? std::optional<std::int64_t>(scotch_distance(*ns)) : std::nullopt;
        },
        [&] { engine = QueryEngine(cluster, all_pairs_policy(m)); });
    if (!machines) return std::nullopt;
    const auto pus = uniform_hierarchy(
        type.num_pus(),
        [&](std::uint64_t a, std::uint64_t b) {
            return std::optional<std::int64_t>(scotch_distance(type.latency_between(
                static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b))));
        },
        [] {});
    if (!pus) return std::nullopt;
    // Levels from the top: machine groups, then PU groups; distances must
    // fall on the way down (a machine closer than its own insides is no tree).
    std::vector<std::uint64_t> sizes;
    std::vector<std::int64_t> distances;
    const auto add_levels = [&](const Hierarchy& h) {
        for (std::size_t k = h.group.size(); k-- > 0;) {
            sizes.push_back(h.group[k] / (k > 0 ? h.group[k - 1] : 1));
            distances.push_back(h.distance[k]);
        }
    };
    add_levels(*machines);
    add_levels(*pus);
    std::string text = fmt::format("tleaf {}", sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const std::int64_t below = i + 1 < distances.size() ? distances[i + 1] : 0;
        if (distances[i] <= below) return std::nullopt;
        text += fmt::format(" {} {}", sizes[i], distances[i] - below);
    }
    return text + '\n';
}

class Bisection {
public:
    // gap[p]: latency between PEs p-1 and p (gap[0] unused).
    explicit Bisection(std::vector<double> gap) : gap_(std::move(gap)), domain_(gap_.size(), 0) {}

    // Numbers the terminals of [lo, hi) below domain `d`.
    void number(std::uint32_t lo, std::uint32_t hi, std::uint64_t d) {
        const std::uint32_t n = hi - lo;
        if (n == 1) {
            domain_[lo] = d;
            return;
        }
        const std::uint32_t half = std::bit_ceil(n) / 2; // neither side larger
        const std::uint32_t first = std::max(lo + 1, hi - half);
        const std::uint32_t last = std::min(hi - 1, lo + half);
        std::uint32_t cut = first;
        const auto off_middle = [&](std::uint32_t p) {
            const std::int64_t twice = 2 * std::int64_t(p) - lo - hi;
            return twice < 0 ? -twice : twice;
        };
        for (std::uint32_t p = first + 1; p <= last; ++p)
            if (gap_[p] > gap_[cut] || (gap_[p] == gap_[cut] && off_middle(p) < off_middle(cut)))
                cut = p;
        number(lo, cut, 2 * d);
        number(cut, hi, 2 * d + 1);
    }

    const std::vector<std::uint64_t>& domains() const { return domain_; }

private:
    std::vector<double> gap_;
    std::vector<std::uint64_t> domain_;
};

} // namespace

void write_scotch_target(const Cluster& cluster, std::ostream& out) {
    if (const std::optional<std::string> tleaf = tleaf_target(cluster)) {
        out << *tleaf;
        return;
    }
    const std::uint32_t n = cluster.num_pes();
    if (n > max_scotch_target_pes)
        throw InputError(fmt::format(
            "the cluster has {} PEs and is no uniform hierarchy (a Scotch tleaf): a "
            "decomposition-defined Scotch target holds the distance between every two of its "
            "terminals, so nettopo writes one for at most {} PEs",
            n, max_scotch_target_pes));
    QueryEngine engine(cluster, all_pairs_policy(n));
    const auto distance = [&](std::uint32_t a, std::uint32_t b) {
        const std::optional<double> d = engine.distance(PeId(a), PeId(b));
        if (!d)
            throw InputError(fmt::format(
                "PEs {} and {} (machines '{}' and '{}') are not connected: a Scotch target needs "
                "a distance between every two PEs",
                b, a, cluster.machine_name(cluster.machine_of(PeId(b))),
                cluster.machine_name(cluster.machine_of(PeId(a)))));
        return *d;
    };

    // The distance matrix first: an unconnected pair throws before any text.
    std::string text;
    std::vector<double> gap(n, 0);
    std::string rows;
    for (std::uint32_t i = 1; i < n; ++i) {
        for (std::uint32_t j = 0; j < i; ++j) {
            const double d = distance(i, j);
            if (j == i - 1) gap[i] = d;
            if (j > 0) rows += ' ';
            fmt::format_to(std::back_inserter(rows), "{}", scotch_distance(d));
        }
        rows += '\n';
    }
    Bisection bisection(std::move(gap));
    bisection.number(0, n, 1);
    const auto& domains = bisection.domains();
    const std::uint64_t max_domain = *std::max_element(domains.begin(), domains.end());

    fmt::format_to(std::back_inserter(text), "deco\n0\n{} {}\n", n, max_domain);
    for (std::uint32_t p = 0; p < n; ++p)
        fmt::format_to(std::back_inserter(text), "{} 1 {}\n", p, domains[p]);
    out << text << rows;
}

} // namespace nettopo
