/// \file
/// Queries about a job's allocation (model/job_view.hpp) that need the
/// network: how far it spreads (the check "does my job sit under one
/// switch?") and the nearest PEs within it.
/// \threads Both calls may be made from several threads at once on one const
/// view; nearest_in_view uses the engine given, which is one thread's at a
/// time (QueryEngine).
/// \cost Each call states its time. summarize_allocation throws only
/// std::bad_alloc; nearest_in_view, what the engine's distance() throws.
#pragma once

#include "nettopo/model/job_view.hpp"
#include "nettopo/query/query_engine.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace nettopo {

/// How far an allocation spreads over the network (summarize_allocation).
struct AllocationSummary {
    std::uint32_t hosts = 0; ///< machines of the allocation
    std::uint32_t pes = 0;   ///< their PEs
    std::uint32_t nodes = 0; ///< their nodes
    /// Switches a host of the allocation is cabled to.
    std::uint32_t leaf_switches = 0;
    /// Switches on some shortest (fewest hops) path between two of its hosts,
    /// leaf switches included: 1 for a job under one switch.
    std::uint32_t switches = 0;
    /// Largest hop count between two of its hosts (0 for one host); nullopt
    /// when two of them do not reach each other.
    std::optional<std::uint32_t> max_hops;
    std::uint64_t unreachable_pairs = 0; ///< unordered host pairs with no path
    /// Units: groups of its hosts cabled to exactly the same switches. On a
    /// rail-optimized fabric, a scalable unit (every host on all the unit's
    /// rail leaves); hosts under one switch are one unit too.
    std::uint32_t units = 0;
    /// Switches a host of the allocation is cabled to (its rails, on a
    /// rail-optimized fabric): the fewest over its hosts.
    std::uint32_t min_host_leaves = 0;
    std::uint32_t max_host_leaves = 0; ///< the same: the most over its hosts
    /// The adapter indexes (rails: mlx5_N, HCA-(N+1)) of its hosts' cabled
    /// adapters (Cluster::attachments), ascending; empty when the cluster
    /// keeps none.
    std::vector<std::uint32_t> rails = {};
    /// Rails aligned: every host has adapters of the same indexes, and no
    /// switch is cabled to adapters of two indexes of its hosts (each leaf
    /// carries one of the job's rails). False without rails.
    bool rails_aligned = false;
    /// The most hops between two adapters of one index on two of its hosts
    /// (the job's traffic kept on a rail): 2 inside a unit, 4 across units
    /// of a two-tier rail-optimized fabric; nullopt without rails, with one
    /// host, or when such adapters do not reach each other.
    std::optional<std::uint32_t> same_rail_hops = std::nullopt;
};

/// One breadth-first search per host, stopped once every host is reached,
/// then one backward sweep over what it reached: O(hosts x (V + E)) at worst,
/// far less for an allocation under a few switches. Paths respect
/// forwarding (model/network.hpp).
/// With attachments, the rails: O(attachments of its hosts) plus, per rail,
/// one adapter-level question per pair of the distinct leaves its hosts use
/// (AdapterDistances: a search per leaf).
AllocationSummary summarize_allocation(const JobView& view);

/// The k PEs of the allocation closest to p (p excluded; p may be outside
/// it), by QueryEngine::distance, ties broken by view PE id; the PEs
/// returned are cluster PEs. Fewer than k when fewer are reachable. Asks
/// the engine one distance per allocation machine, then O(N log k) for the
/// allocation's N PEs; allocates O(N).
std::vector<NearPe> nearest_in_view(QueryEngine& engine, const JobView& view, PeId p,
                                    std::uint32_t k);

} // namespace nettopo
