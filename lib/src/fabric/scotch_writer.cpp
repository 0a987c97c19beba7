// A cluster as a Scotch "deco 0" target architecture.
//
// Scotch's decomposition-defined architecture (Scotch user's guide, "Target
// files"; libscotch/arch_deco.c, archDecoArchLoad): after "deco" and the
// flavour 0 come the number of terminals and the largest terminal domain
// number, one "label weight number" triple per terminal, then the lower
// triangle of the terminal distance matrix, row by row in terminal order,
// each distance at least 1. Domain numbers are those of a binary
// decomposition: domain d has the subdomains 2d and 2d+1, the whole machine
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

#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <iterator>
#include <string>
#include <vector>

namespace nettopo {

namespace {

// A latency as a Scotch distance: whole nanoseconds, at least 1.
std::int64_t scotch_distance(double ns) {
    return std::max<std::int64_t>(1, std::llround(ns));
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
    const std::uint32_t n = cluster.num_pes();
    if (n > max_scotch_target_pes)
        throw InputError(fmt::format(
            "the cluster has {} PEs: a Scotch target holds the distance between every two of its "
            "terminals, so nettopo writes one for at most {} PEs",
            n, max_scotch_target_pes));
    QueryEngine engine(cluster);
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
