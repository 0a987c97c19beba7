// What a whole cluster is, in numbers: counts, machine types, node level,
// degree range, components, diameter, and the distribution of hop counts
// between machines. The tools print it (tools/common/cluster_printer.hpp).
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_plan.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nettopo {

struct ClusterSummary {
    std::string name;
    std::uint32_t pes, machines, nodes, switches, types;
    std::uint64_t links;
    std::uint32_t end_hosts;              // machines that do not forward traffic
    std::uint32_t min_degree, max_degree; // over all network vertices
    std::uint32_t components;             // joined by cables (connected_components)
    // Whether every machine reaches every other by a path that respects
    // forwarding: false with several components, and also with one when
    // every path between two machines passes through an end host.
    bool machines_reach_each_other = true;
    // Largest hop count between two machines that reach each other. Exact while a
    // BFS from every machine stays under exact_diameter_budget steps, else a
    // lower bound from a double sweep.
    std::optional<std::uint32_t> diameter_hops;
    bool diameter_exact = true;
    struct TypeInfo {
        std::string description;
        std::string node_level;
        std::uint32_t machines, pes_per_machine, nodes_per_machine;
    };
    std::vector<TypeInfo> machine_types;
};

inline constexpr std::uint64_t exact_diameter_budget = 200'000'000;

// Ordered pairs of distinct machines by hop count, from BFS runs started at
// every machine (or at max_sources of them, evenly spread, on large clusters).
struct HopDistribution {
    std::vector<std::uint64_t> pairs_at_hops; // index: hop count
    std::uint64_t unreachable_pairs = 0;
    std::uint32_t sources = 0;
    bool all_sources = true;
};
// The rows come from a distance index when plan_distances (distance_plan.hpp)
// finds `use` and this many sources pay for it, else from one search each.
inline constexpr std::uint32_t hop_distribution_sources = 4096;
HopDistribution machine_hop_distribution(const Cluster& cluster,
                                         std::uint32_t max_sources = hop_distribution_sources,
                                         IndexUse use = IndexUse::Auto);

// `known`: a hop distribution already computed from every machine, whose
// largest hop count is the diameter (saves searching the network again).
ClusterSummary summarize(const Cluster& cluster, const HopDistribution* known = nullptr);

} // namespace nettopo
