/// \file
/// A job's view of a cluster: the machines of its allocation, in the
/// allocation's order, with their PEs and nodes numbered within it. View PE
/// ids run 0..N-1: the first machine's PEs in logical order, then the
/// second's, and so on; view node ids likewise. This is how a job numbers
/// its ranks' PUs, whichever cluster-wide ids the machines have.
///
/// The mapping is flat arrays: view -> cluster in O(1); cluster -> view in
/// O(1) after the cluster's own PE -> machine lookup (O(log R)). Memory: one
/// 32-bit entry per view PE, per view node and per cluster machine.
/// Immutable once built; it refers to the cluster, which must outlive it.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// A job's view of a cluster (see the file's comment).
/// \threads Immutable once built: const calls from several threads at once
/// are safe. The cluster must outlive the view.
/// \cost Every call is O(1) but view_pe and view_node (O(log R), the
/// cluster's PE -> machine lookup); none allocates or throws.
class JobView {
public:
    /// These machines in this order. InputError when one is named twice or
    /// does not exist. O(cluster machines + view PEs + view nodes); allocates
    /// the arrays.
    JobView(const Cluster& cluster, std::vector<MachineId> machines);

    /// The cluster viewed.
    const Cluster& cluster() const { return *cluster_; }
    /// Machines of the allocation.
    std::uint32_t num_machines() const { return static_cast<std::uint32_t>(machines_.size()); }
    /// PEs of the allocation (view PE ids 0..num_pes()-1).
    std::uint32_t num_pes() const { return first_pe_.back(); }
    /// Nodes of the allocation (view node ids 0..num_nodes()-1).
    std::uint32_t num_nodes() const { return first_node_.back(); }

    /// The allocation's machines, in its order.
    std::span<const MachineId> machines() const { return machines_; }
    /// The allocation's `i`-th machine (precondition: `i` < num_machines()).
    MachineId machine(std::uint32_t i) const { return machines_[i]; }
    /// The position of a cluster machine in the allocation; nullopt outside it.
    std::optional<std::uint32_t> position(MachineId m) const {
        const std::uint32_t i = position_[m.value];
        if (i == outside) return std::nullopt;
        return i;
    }
    /// Whether cluster machine `m` is in the allocation.
    bool contains(MachineId m) const { return position_[m.value] != outside; }

    /// View PE <-> cluster PE (precondition: view_pe < num_pes()).
    PeId cluster_pe(std::uint32_t view_pe) const { return PeId(pe_[view_pe]); }
    /// The view PE of cluster PE `p`; nullopt outside the allocation.
    std::optional<std::uint32_t> view_pe(PeId p) const;
    /// The view PEs of the allocation's i-th machine.
    PeRange view_pes(std::uint32_t i) const {
        return {first_pe_[i], first_pe_[i + 1] - first_pe_[i]};
    }

    /// View node <-> cluster node, as for PEs.
    NodeId cluster_node(std::uint32_t view_node) const { return NodeId(node_[view_node]); }
    /// The view node of cluster node `n`; nullopt outside the allocation.
    std::optional<std::uint32_t> view_node(NodeId n) const;
    /// The view nodes of the allocation's i-th machine (a range of node ids).
    PeRange view_nodes(std::uint32_t i) const {
        return {first_node_[i], first_node_[i + 1] - first_node_[i]};
    }

private:
    static constexpr std::uint32_t outside = 0xffffffffu;
    const Cluster* cluster_;
    std::vector<MachineId> machines_;
    std::vector<std::uint32_t> position_;   ///< per cluster machine: its position or `outside`
    std::vector<std::uint32_t> first_pe_;   ///< per allocation machine, plus the total
    std::vector<std::uint32_t> first_node_; ///< likewise for nodes
    std::vector<std::uint32_t> pe_;         ///< view PE -> cluster PE
    std::vector<std::uint32_t> node_;       ///< view node -> cluster node
};

/// The cluster's machines with these names, for a JobView. A name not found
/// matches a machine named by its short name (the part before the first
/// '.'): job launchers may write fully qualified names. A name given again
/// is dropped (the first position kept). InputError naming the names not
/// in the cluster (a few of them and how many more), prefixed with `source`,
/// and what the cluster has instead (model/detail/name_hint.hpp). When `source` is
/// a file, `lines` holds the line of each name (else it is empty), and the
/// error names the first name missing with its line:
/// "hosts.txt:3: host 'node0l3' is not in the cluster; did you mean node013?".
/// O(names x log machines); allocates.
/// \threads Only reads `cluster`: safe from several threads at once.
std::vector<MachineId> machines_named(const Cluster& cluster, std::span<const std::string> names,
                                      const std::string& source,
                                      std::span<const std::size_t> lines = {});

/// The cluster's machines a Slurm hostlist names ("node[01-04,07]",
/// support/hostlist.hpp), in its order, for a JobView: machines_named over
/// its expansion. InputError prefixed with `source` (where the hostlist was
/// given, e.g. "--nodes") for a malformed expression, one that names no host,
/// or names not in the cluster. O(names x log machines); allocates.
/// \threads Only reads `cluster`: safe from several threads at once.
std::vector<MachineId> machines_of_hostlist(const Cluster& cluster, std::string_view hostlist,
                                            const std::string& source);

} // namespace nettopo
