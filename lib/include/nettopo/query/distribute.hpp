/// \file
/// Spreading N processes over an allocation along the hierarchy: leaf
/// switches, hosts, then each host's tree (packages, caches, cores, PUs), as
/// hwloc-distrib does inside one machine and Open MPI's --map-by across nodes.
///
/// The hierarchy seen from the allocation: the hosts are grouped by their leaf
/// switch (the lowest-numbered switch the host is cabled to; groups in the
/// order their first host appears in the allocation, hosts in allocation
/// order inside a group). A host cabled to no switch (a direct network:
/// torus, mesh, hypercube, where hosts are the routers) is a group of its own,
/// so there the hosts are spread in allocation order, not by hop distance.
///
/// Scatter (hwloc_distrib() of hwloc 2's helper.h, generalised upwards): the
/// ranks are divided among the groups in proportion to their PU count, each
/// share among the group's hosts by their PU count, and so on down each
/// host's tree; a child of weight w after children of total weight g gets
///     ceil((g + w) N / W) - ceil(g N / W)
/// ranks of the parent's N (W: the parent's weight). A child given one rank
/// takes it on its first PU (the PU of lowest OS index below it, the PU
/// hwloc-distrib --single prints; lowest logical index when the OS indexes
/// are unknown); a PU given several ranks takes them all. Inside a host, a
/// child given no rank adds its PUs to the previous rank's set, as
/// hwloc_distrib does, so that rank moves to the child's first PU when its
/// OS index is lower (on machines with holes in their numbering only; the
/// placement then equals hwloc-distrib --single's). So ranks are as far
/// apart as the tree allows, consecutive ranks share the deepest subtree that
/// holds several, and with more ranks than PUs each PU runs floor(N/P) or
/// ceil(N/P) consecutive ranks, exactly as hwloc-distrib wraps.
///
/// A preference for a kind of CPU (CpuKindPreference, hybrid machines: see
/// CpuKind) divides the PUs into tiers: on each machine type with at least
/// two kinds hwloc ranked, tier 0 holds the PUs of the preferred kind (the
/// highest efficiency rank for performance, the lowest for efficiency), tier
/// 1 the next kind, and so on, PUs in no kind last; on the other types
/// (no kinds, as where hwloc gives one: min_cpu_kinds; or unranked) every
/// PU is in tier 0. Each tier gets
/// floor(N/P) ranks per PU of it, and the N mod P ranks left go to the
/// tiers in order, one per PU, as far as they go: so with N <= P the
/// preferred PUs are filled first, one rank each. The ranks of a tier are
/// placed by the policy over the allocation seen with that tier's PUs only,
/// tier 0's ranks first. Without a preference (or with one and no hybrid
/// machine), the placement is the one below.
///
/// Compact: the PUs in order (groups, hosts, each host's PUs in logical
/// order, i.e. closest first), the first N % P of them taking
/// floor(N/P) + 1 consecutive ranks, the others floor(N/P); with N <= P rank
/// r runs on the r-th PU.
///
/// \threads Every call here may be made from several threads at once on one
/// const cluster.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace nettopo {

/// How distribute spreads the ranks.
enum class DistributePolicy : std::uint8_t {
    Scatter, ///< as far apart as the hierarchy allows (hwloc-distrib)
    Compact, ///< PU after PU, closest first
};

/// "scatter", "compact"; ValueError otherwise. O(1).
DistributePolicy parse_distribute_policy(std::string_view text);

/// Which kind of CPU core distribute fills first on hybrid machines.
enum class CpuKindPreference : std::uint8_t {
    none,        ///< every PU alike
    performance, ///< the kind hwloc ranks highest (CpuKind::efficiency) first
    efficiency,  ///< the kind hwloc ranks lowest (the most energy-efficient) first
};

/// "performance", "efficiency"; ValueError otherwise. O(1).
CpuKindPreference parse_cpu_kind_preference(std::string_view text);

/// Whether a preference changes anything on `allocation`: some machine of
/// it has at least two CPU kinds hwloc ranked. Machine ids out of range are
/// skipped. O(allocation + the PUs of every machine type); throws only
/// std::bad_alloc.
bool has_ranked_cpu_kinds(const Cluster& cluster, std::span<const MachineId> allocation);

/// Most ranks one call places (the output has one entry per rank).
inline constexpr std::uint64_t max_distributed_ranks = 100'000'000;

/// The PE (a PU of one host; the host is cluster.machine_of) of each rank
/// 0..ranks-1 over the machines of `allocation` (its order matters, see
/// above; the whole cluster is every machine in id order). Throws UsageError
/// for 0 ranks, more than max_distributed_ranks, an empty allocation or a
/// machine given twice. O(N + the allocation's PUs + its hosts' links), plus
/// clearing one flag per cluster machine and one group id per switch; with a
/// preference, O(the allocation's PUs + the PUs of every machine type) more
/// per tier (a machine type counts once, however many machines share it).
std::vector<PeId> distribute(const Cluster& cluster, std::span<const MachineId> allocation,
                             std::uint64_t ranks, DistributePolicy policy,
                             CpuKindPreference prefer = CpuKindPreference::none);

/// The whole cluster as an allocation: every machine in id order. O(M);
/// throws only std::bad_alloc.
std::vector<MachineId> all_machines(const Cluster& cluster);

} // namespace nettopo
