// The pair and batch logic of nettopo-query's sub-commands (query_run.hpp).
#include "nettopo-query/query_run.hpp"

#include "common/common_options.hpp"
#include "nettopo/query/distribute.hpp"
#include "nettopo/support/error.hpp"

#include <iostream>

namespace nettopo {

DistancePolicy distance_policy(const Options& o, const LoadedTopology& topology,
                               std::optional<std::uint64_t> questions) {
    DistancePolicy policy;
    policy.use = parse_index_use(o.index_use);
    policy.questions = questions;
    policy.kept = topology.kept_index;
    return policy;
}

void Run::plan(std::optional<std::uint64_t> questions) {
    engine = QueryEngine(cluster, distance_policy(o, *topology, questions));
}

void Run::for_pairs(const std::function<void(PeId, PeId)>& f, bool distances) {
    if (o.pairs.empty()) {
        if (o.pes.size() != 2) throw UsageError("expected two PE indexes, or --pairs FILE");
        if (distances) plan(1);
        f(pair_pe(0), pair_pe(1));
        return;
    }
    if (!o.pes.empty()) throw UsageError("give either two PE indexes or --pairs, not both");
    if (o.pairs == "-" && o.input == "-")
        throw UsageError("-i - and --pairs - cannot both read standard input");
    if (o.pairs == "-") { // answer as each line arrives: usable as a co-process
        if (distances) plan(std::nullopt);
        for_each_pe_pair(std::cin, "<stdin>", naming, [&](PeId a, PeId b) {
            f(a, b);
            std::cout.flush();
        });
    } else {
        const auto pairs = read_pe_pairs_file(o.pairs, naming);
        if (distances) plan(pairs.size());
        for (auto [a, b] : pairs) f(a, b);
    }
}

std::vector<MachineId> allocation_of(const Run& r) {
    if (r.view) return {r.view->machines().begin(), r.view->machines().end()};
    return all_machines(r.cluster);
}

std::vector<MachineId> Run::devices_machines() const {
    if (!o.name.empty()) return naming.require_machines(o.name);
    std::vector<MachineId> machines;
    for (std::uint32_t m = 0; m < cluster.num_machines(); ++m)
        if (!naming.view() || naming.view()->contains(MachineId(m)))
            machines.push_back(MachineId(m));
    return machines;
}

} // namespace nettopo
