#include "nettopo/assemble/detail/check_report.hpp"

#include <fmt/format.h>

namespace nettopo {

CheckReport check_assembly(const Assembly& assembly, bool allow_disconnected, IndexUse index) {
    HopDistribution hops =
        machine_hop_distribution(assembly.cluster, hop_distribution_sources, index);
    CheckReport r{summarize(assembly.cluster, &hops), std::move(hops), assembly.issues, {},
                  assembly.defaulted_hosts,           assembly.notes,  assembly.rails};
    r.issues.insert(r.issues.end(), assembly.fabric_problems.begin(),
                    assembly.fabric_problems.end());
    if (r.summary.components > 1 && !allow_disconnected)
        r.problems.push_back(fmt::format("the network has {} connected components; hosts in "
                                         "different ones cannot reach each other",
                                         r.summary.components));
    else if (!r.summary.machines_reach_each_other && !allow_disconnected)
        if (const auto pair = unreachable_machines(assembly.cluster.network()))
            r.problems.push_back(fmt::format(
                "'{}' cannot reach '{}': every path between them passes through a host, and "
                "hosts do not forward traffic",
                assembly.cluster.vertex_name(pair->a), assembly.cluster.vertex_name(pair->b)));
    return r;
}

} // namespace nettopo
