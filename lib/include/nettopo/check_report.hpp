// The validation report of an assembled cluster (nettopo-discover --check),
// for CI topology checks: counts, connectivity, the hop-count distribution
// between machines, and every problem found while joining the sources.
#pragma once

#include "nettopo/assemble.hpp"
#include "nettopo/report.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace nettopo {

// Ordered pairs of distinct machines by hop count, from BFS runs started at
// every machine (or at max_sources of them, evenly spread, on large clusters).
struct HopDistribution {
    std::vector<std::uint64_t> pairs_at_hops; // index: hop count
    std::uint64_t unreachable_pairs = 0;
    std::uint32_t sources = 0;
    bool all_sources = true;
};
HopDistribution machine_hop_distribution(const Cluster& cluster, std::uint32_t max_sources = 4096);

struct CheckReport {
    ClusterSummary summary;
    HopDistribution hops;
    std::vector<std::string> problems; // one line each
    std::vector<std::string> notes;    // worth knowing, not a problem
    bool ok() const { return problems.empty(); }
};

// A network of several components is a problem unless `allow_disconnected`.
CheckReport check_assembly(const Assembly& assembly, bool allow_disconnected);
void write_check_text(const CheckReport& report, std::ostream& out);
void write_check_json(const CheckReport& report, std::ostream& out);

} // namespace nettopo
