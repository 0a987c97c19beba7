// A cluster: machines (each an instance of a shared machine type), switches,
// and the network joining them. Immutable once built (see ClusterBuilder);
// every query here is O(1) or O(log R), R = number of runs of consecutive
// machines of one type (1 for a homogeneous cluster), and thread-safe.
#pragma once

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

// A contiguous range of PEs (the PEs of a machine or of a node are always contiguous).
struct PeRange {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
    PeId operator[](std::uint32_t i) const { return PeId(first + i); }
    bool contains(PeId p) const { return p.value >= first && p.value - first < count; }
};

// The thesis' proximity levels.
enum class Proximity : int { OtherMachine = 0, SameMachine = 1, SameNode = 2, SamePe = 3 };

struct Ancestor {
    MachineId machine;
    ObjectId object; // inside the machine's type tree
    ObjectType type;
    std::uint32_t logical_index; // in its level inside the machine, as lstopo numbers it
    std::uint32_t depth;         // of its level, as hwloc-info numbers levels (0: Machine)
};

class Cluster {
public:
    const std::string& name() const { return name_; }
    // Throws InputError when `name` breaks the rule of support/detail/name_rules.hpp.
    void set_name(std::string name);
    // The spec of the generated family this cluster was built from
    // ("torus --dims 8x8"; family_from_spec reads it back), empty when none.
    // A record, not a promise: a hand-edited archive keeps it, so users of
    // its formulas check the network still is the family's.
    const std::string& family() const { return family_; }

    std::uint32_t num_pes() const { return runs_.back().first_pe; }
    std::uint32_t num_machines() const { return network_.num_machines(); }
    std::uint32_t num_nodes() const { return runs_.back().first_node; }
    std::uint32_t num_switches() const { return network_.num_switches(); }
    std::size_t num_net_links() const { return network_.num_links(); }
    std::uint32_t num_types() const { return static_cast<std::uint32_t>(types_.size()); }

    const MachineType& type(TypeId t) const { return types_[t.value]; }
    TypeId type_of(MachineId m) const { return run_of_machine(m).type; }
    const MachineType& machine_type(MachineId m) const { return type(type_of(m)); }
    const Network& network() const { return network_; }

    std::string_view machine_name(MachineId m) const { return machine_names_[m.value]; }
    std::string_view switch_name(SwitchId s) const { return switch_names_[s.value]; }
    const NameTable& machine_names() const { return machine_names_; }
    const NameTable& switch_names() const { return switch_names_; }
    std::string_view vertex_name(VertexId v) const;
    std::optional<MachineId> find_machine(std::string_view name) const;
    std::optional<SwitchId> find_switch(std::string_view name) const;
    std::optional<VertexId> find_vertex(std::string_view name) const;
    VertexId vertex(MachineId m) const { return VertexId(m.value); }
    VertexId vertex(SwitchId s) const { return VertexId(num_machines() + s.value); }
    SwitchId switch_of_vertex(VertexId v) const { return SwitchId(v.value - num_machines()); }

    MachineId machine_of(PeId p) const;
    NodeId node_of(PeId p) const;
    MachineId machine_of_node(NodeId n) const;
    // Logical index of the PE's PU inside its machine.
    std::uint32_t local_pu(PeId p) const;
    PeRange pes_of_machine(MachineId m) const;
    PeRange pes_of_node(NodeId n) const;
    NodeId first_node(MachineId m) const;
    // The other PEs sharing the PE's machine / node (the thesis' on_same_*).
    std::vector<PeId> on_same_machine(PeId p) const;
    std::vector<PeId> on_same_node(PeId p) const;

    // Inline: the hottest query of placement loops (a few ns).
    Proximity proximity(PeId a, PeId b) const;
    // The deepest object containing both PEs; nullopt for PEs of two machines.
    std::optional<Ancestor> common_ancestor(PeId a, PeId b) const;
    // Latency between two PEs of one machine (precondition: same machine).
    double intra_machine_latency(PeId a, PeId b) const;

    // Range checks for values coming from users; throw UsageError.
    PeId require_pe(std::uint64_t index) const;
    NodeId require_node(std::uint64_t index) const;
    MachineId require_machine(std::string_view name) const;
    VertexId require_vertex(std::string_view name) const;

    // Runs of consecutive machines of one type: what the archive writes and
    // what the PE -> machine lookup searches.
    struct Run {
        std::uint32_t first_machine, first_pe, first_node;
        TypeId type;
    };
    std::span<const Run> runs() const { return {runs_.data(), runs_.size() - 1}; }

    // A cluster from parts held before (binary images, formats/image.hpp),
    // without the builder's sorting and checks of names and connectivity.
    // `runs` give first_machine and type (first_pe and first_node are
    // recomputed). Checks what could make a query read out of range
    // (ValueError naming the first problem): runs in order over the
    // machines, known types, name tables of the right sizes, PE and node
    // counts that fit 32 bits.
    static Cluster from_parts(std::string name, std::string family, std::vector<MachineType> types,
                              std::span<const Run> runs, NameTable machine_names,
                              NameTable switch_names, Network network);

private:
    friend class ClusterBuilder;
    Cluster() = default; // only the builder makes one, with its runs
    // Two PEs seen from a's machine: its run and type, both PUs' indexes in
    // it, and whether b is in it. What proximity and common_ancestor share.
    struct PePair {
        const Run& run;
        const MachineType& type;
        std::uint32_t pu_a, pu_b; // pu_b is meaningless unless same_machine
        bool same_machine;
    };
    PePair pe_pair(PeId a, PeId b) const;
    const Run& run_of_machine(MachineId m) const;
    const Run& run_of_pe(PeId p) const;
    const Run& run_of_node(NodeId n) const;

    std::string name_;
    std::string family_;
    std::vector<MachineType> types_;
    std::vector<Run> runs_; // plus a sentinel holding the totals
    NameTable machine_names_;
    NameTable switch_names_;
    Network network_;
};

// "12 machines, 1 switch, 11 links, 12 PEs, 12 nodes", for messages and headers.
std::string cluster_counts(const Cluster& cluster);

// A homogeneous cluster (one run) needs no run lookup. PE b's index inside
// a's machine wraps past num_pus when b is before that machine, so one
// comparison tells "same machine".
inline Cluster::PePair Cluster::pe_pair(PeId a, PeId b) const {
    const Run& r = runs_.size() == 2 ? runs_.front() : run_of_pe(a);
    const MachineType& t = types_[r.type.value];
    const std::uint32_t pu_a = t.pu_of_offset(a.value - r.first_pe);
    const std::uint32_t pu_b = b.value - (a.value - pu_a);
    return {r, t, pu_a, pu_b, pu_b < t.num_pus()};
}

// Computed without a branch on the answer.
inline Proximity Cluster::proximity(PeId a, PeId b) const {
    const PePair p = pe_pair(a, b);
    const std::uint32_t pu_b_or_a = p.same_machine ? p.pu_b : p.pu_a; // a valid index either way
    const int closeness =
        1 + (p.type.node_of_pu(p.pu_a) == p.type.node_of_pu(pu_b_or_a)) + (p.pu_a == p.pu_b);
    return static_cast<Proximity>(p.same_machine ? closeness : 0);
}

} // namespace nettopo
