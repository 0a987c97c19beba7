// What every nettopo-query sub-command is handed: the options, the cluster
// and the job's view of it, how PEs are named, and the engine that answers.
#pragma once

#include "common/tool_support.hpp"
#include "nettopo-query/pe_naming.hpp"
#include "nettopo-query/query_options.hpp"
#include "nettopo-query/query_printer.hpp"
#include "nettopo/formats/image.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/model/job_view.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/query_engine.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace nettopo {

// Context handed to every sub-command.
struct Run {
    const Options& o;
    const Cluster& cluster;
    const LoadOptions& load;
    // The job's allocation (--nodes, --hostfile, --job), nullptr for the
    // whole cluster; its machines() are the allocation's, in its order.
    const JobView* view;
    const PeNaming& naming; // how PEs and nodes are read and printed
    QueryEngine engine;
    QueryPrinter out;
    int code = exit_ok;                       // diff: exit_differences when the clusters differ
    const LoadedTopology* topology = nullptr; // what was read: the kept index, the image
    std::optional<FileStamp> input_stamp = std::nullopt; // -i's stamp before it was read, if a file

    PeId pe() const { return naming.require_pe(o.pe); }
    // The machines an optional MACHINE|HOSTLIST argument names: every
    // machine (of the view) without it.
    std::vector<MachineId> devices_machines() const;
    PeId pair_pe(std::size_t i) const { return naming.require_pe(o.pes.at(i)); }

    // Gives the engine the policy of --index and the kept index for this
    // many questions (nullopt: not known in advance; distance_plan.hpp
    // states the rule).
    void plan(std::optional<std::uint64_t> questions);

    // Pair queries answer either the two positional PEs or every pair of --pairs;
    // those that ask the network for distances (hops, distance) first plan how.
    void for_pairs(const std::function<void(PeId, PeId)>& f, bool distances = false);
};

// --index and the index kept with the input, for `questions` questions.
DistancePolicy distance_policy(const Options& o, const LoadedTopology& topology,
                               std::optional<std::uint64_t> questions);

// The machines a job's commands see, in the allocation's order (distribute
// places ranks over them): the job's allocation (--nodes, --hostfile, --job),
// else the whole cluster.
std::vector<MachineId> allocation_of(const Run& r);

} // namespace nettopo
