// The validation report of an assembled cluster, for CI topology checks:
// counts, connectivity, the hop-count distribution between machines, and
// every problem found while joining the sources.
#pragma once

#include "nettopo/assemble/assemble.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/summary.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nettopo {

struct CheckReport {
    ClusterSummary summary;
    HopDistribution hops;
    // Problems: what did not match between the sources (as data, with their
    // remedies), then what is wrong with the result, one line each.
    std::vector<AssemblyIssue> issues;
    std::vector<std::string> problems;
    // Worth knowing, not a problem: the fabric hosts given the default machine,
    // and the assembly's notes (Assembly::notes).
    std::vector<std::string> defaulted_hosts;
    std::vector<AssemblyIssue> notes = {};
    // The fabric's rails; their problems count as the report's.
    Rails rails = {};
    // With an accept list (accept_list.hpp): the problem items it accepted,
    // and its patterns that accepted none. Neither is a problem.
    bool accepting = false;
    std::vector<std::string> accepted = {};
    std::vector<std::string> unused_accepts = {};
    std::size_t num_problems() const {
        return issues.size() + problems.size() + rails.problems.size();
    }
    bool ok() const { return num_problems() == 0; }
};

// A network of several components is a problem unless `allow_disconnected`.
// `index`: how the hop distribution is computed (machine_hop_distribution);
// the report is the same either way.
CheckReport check_assembly(const Assembly& assembly, bool allow_disconnected,
                           IndexUse index = IndexUse::Auto);

} // namespace nettopo
