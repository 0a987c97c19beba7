/// \file
/// What a whole cluster is, in numbers: counts, machine types, node level,
/// degree range, components, diameter, and the distribution of hop counts
/// between machines. The tools print it (tools/common/cluster_printer.hpp).
/// \threads Both calls may be made from several threads at once on one const
/// cluster.
/// \cost Each call states its time. Both throw std::bad_alloc;
/// machine_hop_distribution also what plan_distances and build_distances
/// throw for `use` (distance_plan.hpp).
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_plan.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nettopo {

/// A cluster in numbers (summarize).
struct ClusterSummary {
    std::string name;         ///< the cluster's name
    std::uint32_t pes;        ///< PEs
    std::uint32_t machines;   ///< machines
    std::uint32_t nodes;      ///< nodes
    std::uint32_t switches;   ///< switches
    std::uint32_t types;      ///< machine types
    std::uint64_t links;      ///< network links
    std::uint32_t end_hosts;  ///< machines that do not forward traffic
    std::uint32_t min_degree; ///< smallest degree over all network vertices
    std::uint32_t max_degree; ///< largest degree over all network vertices
    std::uint32_t components; ///< joined by cables (connected_components)
    /// Whether every machine reaches every other by a path that respects
    /// forwarding: false with several components, and also with one when
    /// every path between two machines passes through an end host.
    bool machines_reach_each_other = true;
    /// Largest hop count between two machines that reach each other. Exact while a
    /// BFS from every machine stays under exact_diameter_budget steps, else a
    /// lower bound from a double sweep.
    std::optional<std::uint32_t> diameter_hops;
    bool diameter_exact = true; ///< false: diameter_hops is a lower bound
    /// One CPU kind of a machine type (MachineTree::cpu_kinds) and its PUs.
    struct KindInfo {
        CpuKind kind;                          ///< efficiency and infos
        std::vector<std::uint32_t> pus;        ///< logical indexes, ascending
        std::vector<std::uint32_t> os_indexes; ///< theirs; empty when unknown
    };
    /// One machine type, in numbers.
    struct TypeInfo {
        std::string description;         ///< MachineType::description
        std::string node_level;          ///< the node level's name, and how it was chosen
        std::uint32_t machines;          ///< machines of the type
        std::uint32_t pes_per_machine;   ///< PEs of one of them
        std::uint32_t nodes_per_machine; ///< nodes of one of them
        std::vector<KindInfo> cpu_kinds; ///< in the tree's order; empty without kinds
    };
    std::vector<TypeInfo> machine_types; ///< in TypeId order
};

/// Steps (BFS edge visits from every machine) summarize spends on an exact
/// diameter before it settles for a double sweep's lower bound.
inline constexpr std::uint64_t exact_diameter_budget = 200'000'000;

/// Ordered pairs of distinct machines by hop count, from BFS runs started at
/// every machine (or at max_sources of them, evenly spread, on large clusters).
struct HopDistribution {
    std::vector<std::uint64_t> pairs_at_hops; ///< index: hop count
    std::uint64_t unreachable_pairs = 0;      ///< ordered pairs with no path
    std::uint32_t sources = 0;                ///< machines the rows were taken from
    bool all_sources = true;                  ///< whether every machine was a source
};
/// The rows come from a distance index when plan_distances (distance_plan.hpp)
/// finds `use` and this many sources pay for it, else from one search each.
inline constexpr std::uint32_t hop_distribution_sources = 4096;
/// The hop distribution from at most `max_sources` machines: O(sources x
/// (V + E)) through searches, or the index's build plus O(sources x M).
HopDistribution machine_hop_distribution(const Cluster& cluster,
                                         std::uint32_t max_sources = hop_distribution_sources,
                                         IndexUse use = IndexUse::Auto);

/// `known`: a hop distribution already computed from every machine, whose
/// largest hop count is the diameter (saves searching the network again).
/// O(V + E) for the counts, degrees and components, plus the diameter: a
/// BFS from every machine within exact_diameter_budget steps, else a double
/// sweep (a few BFS).
ClusterSummary summarize(const Cluster& cluster, const HopDistribution* known = nullptr);

} // namespace nettopo
