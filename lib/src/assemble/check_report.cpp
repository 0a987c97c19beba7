#include "nettopo/assemble/check_report.hpp"

#include <fmt/format.h>

namespace nettopo {

CheckReport check_assembly(const Assembly& assembly, bool allow_disconnected) {
    HopDistribution hops = machine_hop_distribution(assembly.cluster);
    CheckReport r{summarize(assembly.cluster, &hops), std::move(hops), assembly.issues, {},
                  assembly.defaulted_hosts,           assembly.notes};
    if (r.summary.components > 1 && !allow_disconnected)
        r.problems.push_back(fmt::format("the network has {} connected components; hosts in "
                                         "different ones cannot reach each other",
                                         r.summary.components));
    return r;
}

} // namespace nettopo
