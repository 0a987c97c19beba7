/// \file
/// Binding a GPU job: N ranks, each with G GPUs of one host, the PUs local
/// to those GPUs and the host's nearest network adapters ("which cores and
/// which NIC for the rank on GPU 2"). The rules, which
/// share/doc/gpu-nodes.md ("Binding a job") states with examples:
///
/// - Hosts are filled in allocation order: a host with g GPUs takes
///   floor(g / G) ranks (block distribution, as Slurm's --ntasks-per-gpu
///   jobs and most GPU launch scripts number them).
/// - A host's GPUs are grouped G by G in the order of their locality (the
///   first PU local to them), so that the GPUs of one rank share a locality
///   where the host allows it; the groups then take ranks in the order of
///   their lowest GPU, so with G = 1 the host's i-th rank has gpu i.
/// - A rank's home is the PUs local to its GPUs. Ranks with the same home
///   share it: the home's PUs not given to an earlier home are cut into
///   contiguous runs of whole cores, as equal as the core count allows (of
///   PUs when there are fewer cores than ranks; several ranks on a PU when
///   there are fewer PUs). PUs local to no GPU of the job stay unused.
/// - A rank's adapters are the M nearest to its GPUs among the host's fabric
///   adapters (OpenFabrics devices and Slingshot's hsn/hsi/cxi interfaces;
///   every adapter when the host has none of those): by the device matrix's
///   class (PIX before PXB, PHB, NODE, SYS) to its nearest GPU, then by the
///   latency from the GPU's PUs to the adapter's, then by how many ranks of
///   the host already use it, then in the host's device order. M defaults to
///   1 on a host that has an adapter.
///
/// \threads A pure function of a const cluster: safe from several threads.
/// \cost O(N x (G + M x A)) for N ranks and A adapters a host, plus, once
/// per machine type and rank count, O(R^2 x P + D log D) for its R ranks, P
/// PUs and D devices (R <= D). Throws UsageError as stated below,
/// std::bad_alloc otherwise.
#pragma once

#include "nettopo/model/devices.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace nettopo {

/// What distribute_gpus is asked for.
struct GpuBindRequest {
    std::uint64_t ranks = 0;                    ///< N, at least 1
    std::uint32_t gpus_per_rank = 1;            ///< G, at least 1
    std::optional<std::uint32_t> nics_per_rank; ///< M; unset: 1 where a host has an adapter
};

/// One rank's share of its host.
struct GpuRank {
    MachineId machine;               ///< its host
    std::vector<std::uint32_t> pus;  ///< its PUs: logical indexes inside the host, ascending
    std::vector<std::uint32_t> gpus; ///< its GPUs: indexes into the host type's devices()
    std::vector<std::uint32_t> nics; ///< its adapters, nearest first (same indexes)
};

/// The binding of `request.ranks` ranks over `allocation` (machines in the
/// allocation's order, each once). Throws UsageError for 0 ranks or 0 GPUs a
/// rank, more than max_distributed_ranks, an empty allocation or a machine
/// given twice, when the allocation's hosts cannot hold N ranks of G GPUs
/// (the message counts them), and when a used host has fewer adapters than
/// an explicit M.
std::vector<GpuRank> distribute_gpus(const Cluster& cluster, std::span<const MachineId> allocation,
                                     const GpuBindRequest& request);

/// Whether a network adapter carries a fabric (OpenFabrics, or a Slingshot
/// interface named hsn*, hsi* or cxi*) rather than plain Ethernet: the
/// adapters distribute_gpus prefers. O(length of its names).
bool is_fabric_adapter(const IoDevice& nic);

} // namespace nettopo
