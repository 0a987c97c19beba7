// The validation report of an assembled cluster (nettopo-discover --check),
// for CI topology checks: counts, connectivity, the hop-count distribution
// between machines, and every problem found while joining the sources.
#pragma once

#include "nettopo/assemble/assemble.hpp"
#include "nettopo/query/summary.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nettopo {

struct CheckReport {
    ClusterSummary summary;
    HopDistribution hops;
    std::vector<std::string> problems; // one line each
    std::vector<std::string> notes;    // worth knowing, not a problem
    bool ok() const { return problems.empty(); }
};

// A network of several components is a problem unless `allow_disconnected`.
CheckReport check_assembly(const Assembly& assembly, bool allow_disconnected);

} // namespace nettopo
