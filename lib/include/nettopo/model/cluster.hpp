/// \file
/// A cluster: machines (each an instance of a shared machine type), switches,
/// and the network joining them. Immutable once built (see ClusterBuilder);
/// every query here is O(1) or O(log R), R = number of runs of consecutive
/// machines of one type (1 for a homogeneous cluster).
/// \threads Const calls may be made from several threads at once; the free
/// functions are safe from several threads on a shared const Cluster.
#pragma once

#include "nettopo/model/attachment.hpp"
#include "nettopo/model/machine_type.hpp"
#include "nettopo/model/name_table.hpp"
#include "nettopo/model/network.hpp"
#include "nettopo/support/ids.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// A contiguous range of PEs (the PEs of a machine or of a node are always contiguous).
/// \cost A value: O(1) calls, no allocation, nothing thrown.
struct PeRange {
    std::uint32_t first = 0; ///< the first PE's index
    std::uint32_t count = 0; ///< how many PEs
    /// The `i`-th PE of the range (precondition: `i < count`).
    PeId operator[](std::uint32_t i) const { return PeId(first + i); }
    /// Whether `p` is in the range.
    bool contains(PeId p) const { return p.value >= first && p.value - first < count; }
};

/// The thesis' proximity levels.
enum class Proximity : int {
    OtherMachine = 0, ///< two machines
    SameMachine = 1,  ///< one machine, two nodes
    SameNode = 2,     ///< one node, two PEs
    SamePe = 3,       ///< the same PE
};

/// The deepest object of a machine's tree containing two PEs (Cluster::common_ancestor).
struct Ancestor {
    MachineId machine;           ///< the machine holding both PEs
    ObjectId object;             ///< inside the machine's type tree
    ObjectType type;             ///< the object's type (Core, L3, Package, Machine, ...)
    std::uint32_t logical_index; ///< in its level inside the machine, as lstopo numbers it
    std::uint32_t depth;         ///< of its level, as hwloc-info numbers levels (0: Machine)
};

/// A whole cluster: its machine types, the runs of machines of each type, the names
/// of machines and switches, and the network (see the file's comment).
///
/// Made by ClusterBuilder, load_cluster, generate or assemble; immutable after.
/// \threads Every const call may be made from several threads on one Cluster
/// at once (nothing is cached or locked); set_name is the one mutation and
/// needs the object to itself.
/// \cost Queries: O(1) on a homogeneous cluster, O(log R) for R runs of
/// machines; they do not allocate unless they return a container or a string.
/// The queries taking ids have as precondition ids in range (checked by the
/// require_* calls, which throw UsageError); apart from these and set_name,
/// nothing here throws but std::bad_alloc.
class Cluster {
public:
    /// The cluster's name (archive attribute, description `cluster` line).
    const std::string& name() const { return name_; }
    /// Renames the cluster. Throws InputError when `name` breaks the rule of
    /// names (UTF-8 without control characters, at most 255 bytes). Not
    /// thread-safe: the one mutation of a Cluster.
    void set_name(std::string name);
    /// The spec of the generated family this cluster was built from
    /// ("torus --dims 8x8"; family_from_spec reads it back), empty when none.
    /// A record, not a promise: a hand-edited archive keeps it, so users of
    /// its formulas check the network still is the family's.
    const std::string& family() const { return family_; }

    /// Number of PEs (PUs of all machines). O(1).
    std::uint32_t num_pes() const { return runs_.back().first_pe; }
    /// Number of machines (hosts). O(1).
    std::uint32_t num_machines() const { return network_.num_machines(); }
    /// Number of nodes (objects of each machine type's node level). O(1).
    std::uint32_t num_nodes() const { return runs_.back().first_node; }
    /// Number of switches. O(1).
    std::uint32_t num_switches() const { return network_.num_switches(); }
    /// Number of network links (a link with several cables counts once). O(1).
    std::size_t num_net_links() const { return network_.num_links(); }
    /// Number of machine types. O(1).
    std::uint32_t num_types() const { return static_cast<std::uint32_t>(types_.size()); }

    /// Machine type `t` (precondition: `t` < num_types()). O(1).
    const MachineType& type(TypeId t) const { return types_[t.value]; }
    /// The type of machine `m`. O(log R).
    TypeId type_of(MachineId m) const { return run_of_machine(m).type; }
    /// The machine type of machine `m`. O(log R).
    const MachineType& machine_type(MachineId m) const { return type(type_of(m)); }
    /// The network of machines and switches. O(1).
    const Network& network() const { return network_; }

    /// Name of machine `m`. O(1), no allocation (a view into the cluster).
    std::string_view machine_name(MachineId m) const { return machine_names_[m.value]; }
    /// Name of switch `s`. O(1), no allocation.
    std::string_view switch_name(SwitchId s) const { return switch_names_[s.value]; }
    /// All machine names, in machine order.
    const NameTable& machine_names() const { return machine_names_; }
    /// All switch names, in switch order.
    const NameTable& switch_names() const { return switch_names_; }
    /// Name of network vertex `v` (a machine's or a switch's). O(1).
    std::string_view vertex_name(VertexId v) const;
    /// The machine named `name`, nullopt when none. O(log machines), no allocation.
    std::optional<MachineId> find_machine(std::string_view name) const;
    /// The switch named `name`, nullopt when none. O(log switches).
    std::optional<SwitchId> find_switch(std::string_view name) const;
    /// The machine or switch named `name` (machines first), nullopt when none. O(log vertices).
    std::optional<VertexId> find_vertex(std::string_view name) const;
    /// The network vertex of machine `m` (machines come first). O(1).
    VertexId vertex(MachineId m) const { return VertexId(m.value); }
    /// The network vertex of switch `s` (after the machines). O(1).
    VertexId vertex(SwitchId s) const { return VertexId(num_machines() + s.value); }
    /// The switch of vertex `v` (precondition: `v` is a switch's vertex). O(1).
    SwitchId switch_of_vertex(VertexId v) const { return SwitchId(v.value - num_machines()); }

    /// The machine holding PE `p`. O(log R).
    MachineId machine_of(PeId p) const;
    /// The node holding PE `p`. O(log R).
    NodeId node_of(PeId p) const;
    /// The machine holding node `n`. O(log R).
    MachineId machine_of_node(NodeId n) const;
    /// Logical index of the PE's PU inside its machine. O(log R).
    std::uint32_t local_pu(PeId p) const;
    /// The PEs of machine `m`. O(log R).
    PeRange pes_of_machine(MachineId m) const;
    /// The PEs of node `n`. O(log R).
    PeRange pes_of_node(NodeId n) const;
    /// The first node of machine `m` (its nodes are consecutive). O(log R).
    NodeId first_node(MachineId m) const;
    /// The other PEs sharing the PE's machine (the thesis' on_same_machine).
    /// O(log R + PEs of the machine); allocates the vector.
    std::vector<PeId> on_same_machine(PeId p) const;
    /// The other PEs sharing the PE's node (the thesis' on_same_node).
    /// O(log R + PEs of the node); allocates the vector.
    std::vector<PeId> on_same_node(PeId p) const;

    /// How close two PEs are: same PE, same node, same machine or two machines.
    /// Inline: the hottest query of placement loops (a few ns; O(1) on a
    /// homogeneous cluster, else O(log R)); no branch on the answer.
    Proximity proximity(PeId a, PeId b) const;
    /// The deepest object containing both PEs; nullopt for PEs of two machines.
    /// O(log R) plus the machine type's common-ancestor structure (O(1) for CombinLca).
    std::optional<Ancestor> common_ancestor(PeId a, PeId b) const;
    /// Latency between two PEs of one machine, in ns, from the machine type's
    /// latencies (precondition: same machine). O(log R).
    double intra_machine_latency(PeId a, PeId b) const;
    /// The CPU kind of PE `p`'s PU (one of MachineTree::cpu_kinds of its
    /// machine's type: a hybrid CPU's performance or efficiency cores);
    /// nullptr when its machine's source gave that PU no kind. O(log R).
    const CpuKind* cpu_kind_of(PeId p) const;

    /// Machine `m`'s device identities (ClusterBuilder::set_identities: the
    /// GUIDs, UUIDs and addresses of its devices), grouped by device in the
    /// order its source gave them; empty when it gave none. O(1).
    std::span<const DeviceIdentity> identities(MachineId m) const {
        if (identity_offsets_.empty()) return {};
        return {identities_.data() + identity_offsets_[m.value],
                identities_.data() + identity_offsets_[m.value + 1]};
    }
    /// Whether some machine has identities. O(1).
    bool has_identities() const { return !identities_.empty(); }

    /// Machine `m`'s cabled adapter ports (model/attachment.hpp), in the
    /// order that file gives; empty when its source kept none (a generated
    /// family without adapters, an archive of an older version). O(1).
    std::span<const Attachment> attachments(MachineId m) const {
        if (attachment_offsets_.empty()) return {};
        return {attachments_.data() + attachment_offsets_[m.value],
                attachments_.data() + attachment_offsets_[m.value + 1]};
    }
    /// Whether some machine has attachments. O(1).
    bool has_attachments() const { return !attachments_.empty(); }

    /// PE `index`, checked: throws UsageError when the cluster has no such PE.
    /// For values coming from users. O(1).
    PeId require_pe(std::uint64_t index) const;
    /// Node `index`, checked: throws UsageError when the cluster has no such node. O(1).
    NodeId require_node(std::uint64_t index) const;
    /// The machine named `name`: throws UsageError when there is none. O(log machines).
    MachineId require_machine(std::string_view name) const;
    /// The machine or switch named `name`: throws UsageError when there is
    /// none. O(log vertices).
    VertexId require_vertex(std::string_view name) const;

    /// Runs of consecutive machines of one type: what the archive writes and
    /// what the PE -> machine lookup searches.
    struct Run {
        std::uint32_t first_machine; ///< the run's first machine
        std::uint32_t first_pe;      ///< the first PE of that machine
        std::uint32_t first_node;    ///< the first node of that machine
        TypeId type;                 ///< the type of every machine of the run
    };
    /// The runs, in machine order (R of them). O(1), no allocation.
    std::span<const Run> runs() const { return {runs_.data(), runs_.size() - 1}; }

    /// A cluster from parts held before (binary images, formats/image.hpp),
    /// without the builder's sorting and checks of names and connectivity.
    /// `runs` give first_machine and type (first_pe and first_node are
    /// recomputed). Checks what could make a query read out of range
    /// (ValueError naming the first problem): runs in order over the
    /// machines, known types, name tables of the right sizes, PE and node
    /// counts that fit 32 bits. O(R + types), moves the parts in.
    static Cluster from_parts(std::string name, std::string family, std::vector<MachineType> types,
                              std::span<const Run> runs, NameTable machine_names,
                              NameTable switch_names, Network network);
    /// Sets the device identities of a cluster from_parts made: machine m's
    /// are identities[offsets[m] .. offsets[m + 1]) (offsets: one per machine
    /// and one more, or empty for none). ValueError for offsets of the wrong
    /// size or out of order, or a device its machine's type lacks. O(identities).
    void set_identity_parts(std::vector<std::uint64_t> offsets,
                            std::vector<DeviceIdentity> identities);
    /// Sets the attachments (model/attachment.hpp): machine m's are
    /// attachments[offsets[m] .. offsets[m + 1]) (offsets: one per machine
    /// and one more, or empty for none). ValueError naming the machine for
    /// offsets of the wrong size or out of order, a device name that breaks
    /// the rule of names, a peer that is not a vertex linked to the machine,
    /// or one device and port twice. O(attachments x machine degree).
    void set_attachment_parts(std::vector<std::uint64_t> offsets,
                              std::vector<Attachment> attachments);

private:
    friend class ClusterBuilder;
    Cluster() = default; ///< only the builder makes one, with its runs
    /// Two PEs seen from a's machine: its run and type, both PUs' indexes in
    /// it, and whether b is in it. What proximity and common_ancestor share.
    struct PePair {
        const Run& run;
        const MachineType& type;
        std::uint32_t pu_a, pu_b; ///< pu_b is meaningless unless same_machine
        bool same_machine;
    };
    PePair pe_pair(PeId a, PeId b) const;
    const Run& run_of_machine(MachineId m) const;
    const Run& run_of_pe(PeId p) const;
    const Run& run_of_node(NodeId n) const;

    std::string name_;
    std::string family_;
    std::vector<MachineType> types_;
    std::vector<Run> runs_; ///< plus a sentinel holding the totals
    NameTable machine_names_;
    NameTable switch_names_;
    Network network_;
    std::vector<std::uint64_t> identity_offsets_; ///< CSR by machine; empty when none has any
    std::vector<DeviceIdentity> identities_;
    std::vector<std::uint64_t> attachment_offsets_; ///< CSR by machine; empty when none has any
    std::vector<Attachment> attachments_;
};

/// "12 machines, 1 switch, 11 links, 12 PEs, 12 nodes", for messages and headers.
/// O(1); allocates the string, so throws only std::bad_alloc.
std::string cluster_counts(const Cluster& cluster);

/// A homogeneous cluster (one run) needs no run lookup. PE b's index inside
/// a's machine wraps past num_pus when b is before that machine, so one
/// comparison tells "same machine".
inline Cluster::PePair Cluster::pe_pair(PeId a, PeId b) const {
    const Run& r = runs_.size() == 2 ? runs_.front() : run_of_pe(a);
    const MachineType& t = types_[r.type.value];
    const std::uint32_t pu_a = t.pu_of_offset(a.value - r.first_pe);
    const std::uint32_t pu_b = b.value - (a.value - pu_a);
    return {r, t, pu_a, pu_b, pu_b < t.num_pus()};
}

/// Computed without a branch on the answer.
inline Proximity Cluster::proximity(PeId a, PeId b) const {
    const PePair p = pe_pair(a, b);
    const std::uint32_t pu_b_or_a = p.same_machine ? p.pu_b : p.pu_a; // a valid index either way
    const int closeness =
        1 + (p.type.node_of_pu(p.pu_a) == p.type.node_of_pu(pu_b_or_a)) + (p.pu_a == p.pu_b);
    return static_cast<Proximity>(p.same_machine ? closeness : 0);
}

} // namespace nettopo
