/// \file
/// The launch files of a GPU job's binding (query/gpu_binding.hpp): what a
/// rank's wrapper sources, Slurm's --gpu-bind and --cpu-bind forms, and an
/// Open MPI rankfile of CPU sets. share/doc/gpu-nodes.md ("Binding a job")
/// shows them on the shared exports.
///
/// GPUs are named to their runtime by their index among the host's GPUs of
/// the same vendor in PCI bus order (partitions of one PCI device in their
/// own order): NVIDIA's with CUDA_DEVICE_ORDER=PCI_BUS_ID set beside
/// CUDA_VISIBLE_DEVICES (CUDA's default order is fastest first), Intel's
/// with ZE_ENABLE_PCI_ID_DEVICE_ORDER=1 beside ZE_AFFINITY_MASK, AMD's in
/// ROCR_VISIBLE_DEVICES (ROCr and rocm-smi enumerate in PCI order). Slurm's
/// GPU indexes follow the same order where gres.conf is auto-detected
/// (AutoDetect=nvml/rsmi/oneapi sort by PCI bus id). The vendor is the PCI
/// vendor id, else the runtime names (cuda/nvml, rsmi, ze).
///
/// \threads Pure functions of their arguments: safe from several threads.
/// \cost O(the text written) plus O(D log D) per host for its D devices.
/// They throw std::bad_alloc only, besides what a function says.
#pragma once

#include "nettopo/balance/mapping_io.hpp"
#include "nettopo/query/gpu_binding.hpp"

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>

namespace nettopo {

/// The rank's PUs as a CPU list of OS indexes ("42-55,154-167": its
/// NETTOPO_CPUSET, the cpuset distribute --gpus-per-rank prints); a PU whose
/// source gave no OS index is written by its logical index.
std::string rank_cpu_list(const Cluster& cluster, const GpuRank& rank);

/// The index by which GPU `device` of `tree` is named to its runtime (above).
std::uint32_t gpu_runtime_index(const MachineTree& tree, std::uint32_t device);

/// A POSIX shell file that a rank's wrapper sources: it reads the rank from
/// OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK or SLURM_PROCID and exports
/// NETTOPO_HOST, NETTOPO_CPUSET (OS indexes, for taskset -c), NETTOPO_GPUS,
/// NETTOPO_NICS, the vendor's visible-devices variables, UCX_NET_DEVICES and
/// NCCL_IB_HCA (OpenFabrics adapters, first port) or NCCL_SOCKET_IFNAME
/// (other adapters); an unknown rank is an error. `command` is recorded in
/// its first comment line.
std::string gpu_env_script(const Cluster& cluster, std::span<const GpuRank> ranks,
                           std::string_view command);

/// What srun needs for a GPU binding, beside SlurmLaunch's hostfile.
struct SlurmGpuLaunch {
    std::string hostfile; ///< one host per rank, for --distribution=arbitrary
    std::string cpu_bind; ///< "mask_cpu:0x3fff,..." when one list serves every node
    std::string gpu_bind; ///< "map_gpu:0,1" (one GPU a rank) or "mask_gpu:0x3,0xc"
    std::string notes;    ///< why one list cannot serve every node, if so, and each node's
};

/// Slurm's forms of the binding: a node's i-th local task takes the i-th
/// entry of each list (OS CPU indexes in the masks).
SlurmGpuLaunch slurm_gpu_launch(const Cluster& cluster, std::span<const GpuRank> ranks);

/// An Open MPI rankfile: "rank N=HOST slot=LIST", LIST the rank's PUs as
/// ranges of logical indexes, or of OS indexes with RankfileSlots::physical
/// (ValueError for a PU without one).
void write_gpu_rankfile(std::ostream& out, const Cluster& cluster, std::span<const GpuRank> ranks,
                        RankfileSlots slots);

} // namespace nettopo
