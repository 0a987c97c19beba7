#include "nettopo/assemble/check_report.hpp"

#include <fmt/format.h>

namespace nettopo {

CheckReport check_assembly(const Assembly& assembly, bool allow_disconnected) {
    HopDistribution hops = machine_hop_distribution(assembly.cluster);
    CheckReport r{summarize(assembly.cluster, &hops), std::move(hops), {}, {}};
    for (const AssemblyIssue& issue : assembly.issues) r.problems.push_back(issue.summary());
    if (r.summary.components > 1 && !allow_disconnected)
        r.problems.push_back(fmt::format("the network has {} connected components; hosts in "
                                         "different ones cannot reach each other",
                                         r.summary.components));
    if (!assembly.defaulted_hosts.empty()) {
        AssemblyIssue defaulted{"host", "in the fabric given --default-machine",
                                assembly.defaulted_hosts};
        r.notes.push_back(defaulted.summary());
    }
    return r;
}

} // namespace nettopo
