/// \file
/// A machine type: one tree shared by every identical host, the node level
/// chosen inside it, and the latencies between PUs that meet at each level.
#pragma once

#include "nettopo/tree/lca.hpp"
#include "nettopo/tree/machine_tree.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// Latency in nanoseconds between two PUs whose deepest common object has the
/// given type. Defaults (documented in share/doc/model.md) are orders of
/// magnitude of a current x86 server, not measurements of any one.
/// \cost A value: O(1) calls, no allocation, nothing thrown.
/// \threads Const calls from several threads at once are safe; the
/// non-const operator[] writes, so needs the object to itself.
struct LevelLatencies {
    std::array<double, object_type_count> ns{}; ///< indexed by ObjectType

    /// The defaults of share/doc/model.md.
    static LevelLatencies defaults();
    /// The latency of level `t`.
    double operator[](ObjectType t) const { return ns[static_cast<std::size_t>(t)]; }
    /// The latency of level `t`, to set it.
    double& operator[](ObjectType t) { return ns[static_cast<std::size_t>(t)]; }
    bool operator==(const LevelLatencies&) const = default; ///< all levels equal
};

/// Latencies set over a machine type's table by the user (a tool's
/// `--latency L3=30`): the levels set replace the table's values, the others
/// keep theirs. The readers and builders that take one (LoadOptions,
/// AssembleOptions, GenerateOptions) apply it to every machine type they
/// make, last (over a description's `lat.TYPE=NS`), and before the type
/// orders its table by the tree's positions: an override is a table value
/// like any other, so an archive written afterwards records it.
///
/// One value per object type: nested Group levels (hwloc's Group0, Group1)
/// share the one Group entry, as LevelLatencies and the archive's
/// `<latencies>` do. NUMANode and MemCache have none (memory objects, never
/// where two PUs meet).
/// \cost A value: O(object types) calls, no allocation. set() throws as it says.
/// \threads Const calls from several threads at once are safe; set() needs
/// the object to itself.
struct LevelLatencyOverrides {
    /// Indexed by ObjectType; unset: the table's value stays.
    std::array<std::optional<double>, object_type_count> ns{};

    /// Sets level `t` to `latency_ns`. UsageError when `t` is a memory type
    /// (NUMANode, MemCache) or `latency_ns` is not a finite number >= 0.
    void set(ObjectType t, double latency_ns);
    /// Whether no level is set.
    bool empty() const;
    /// `table` with the levels set here replaced.
    LevelLatencies applied_to(LevelLatencies table) const;
    bool operator==(const LevelLatencyOverrides&) const = default; ///< same levels, same values
};

/// Which objects group PUs into nodes. Unset means automatic: the deepest data
/// cache shared by more than one core, else the core itself. NUMANode means
/// "the PUs local to one NUMA node".
struct NodeLevel {
    std::optional<ObjectType> type;                    ///< unset: automatic
    bool operator==(const NodeLevel&) const = default; ///< same request
};

/// Reads a node level as users write it ("auto", "l3", "core", "numa", ...);
/// nullopt if the text names none. One rule for every reader and tool.
/// O(length); throws only std::bad_alloc (parse_object_type's copy).
/// \threads A pure function of `text`: safe from several threads at once.
std::optional<NodeLevel> node_level_from(std::string_view text);
/// The words node_level_from reads, for messages.
inline constexpr std::string_view node_level_choices =
    "auto, l1..l5, core, package, die, group, numa, pu or machine";

/// One machine type (see the file's comment), shared by every machine of it.
/// \threads Immutable once made: const calls from several threads at once are safe.
/// \cost Every query is O(1) and allocates nothing but signature(); the
/// queries throw nothing but std::bad_alloc. Making one is about linear in
/// the tree (it builds the CombinLca, whose cost CombinLca states, the node
/// tables, O(objects + PUs x height), and the latency per object); it throws
/// as the constructor says.
class MachineType {
public:
    /// A type from a tree: resolves the node level `requested` in it (the
    /// automatic choice when unset, a fallback for PUs below no object of
    /// that level) and builds its tables. Throws InputError (naming no file)
    /// when the level leaves a node's PUs in pieces (nodes must be PU ranges),
    /// or std::bad_alloc.
    MachineType(std::string description, MachineTree tree, NodeLevel requested,
                LevelLatencies latencies);

    /// Where the type came from: a synthetic description or a source file name.
    const std::string& description() const { return description_; }
    /// The machine's tree.
    const MachineTree& tree() const { return tree_; }
    /// The latencies by level, as given.
    const LevelLatencies& latencies() const { return latencies_; }
    /// The node level asked for (unset: automatic).
    const NodeLevel& requested_node_level() const { return requested_; }
    /// The level the nodes actually use (resolved from the request).
    ObjectType node_type() const { return node_type_; }

    /// PUs of one machine.
    std::uint32_t num_pus() const { return num_pus_; }
    /// Nodes of one machine.
    std::uint32_t num_nodes() const { return static_cast<std::uint32_t>(node_objects_.size()); }
    /// The node (0..num_nodes()-1) of PU `pu` (a logical index).
    std::uint32_t node_of_pu(std::uint32_t pu) const { return node_of_pu_[pu]; }
    /// The object whose PUs form the node (for NUMA nodes: the NUMA node's locality).
    ObjectId node_object(std::uint32_t node) const { return node_objects_[node]; }
    /// PUs below no object of the node level (local to no NUMA node): each
    /// core of theirs is a node (each PU without a core), a fallback that
    /// summaries report.
    std::uint32_t pus_outside_node_level() const { return pus_outside_node_level_; }

    /// Latency between two PUs (logical indexes) of one machine of this type: 0
    /// for the same PU; across two NUMA nodes of a tree that carries the
    /// machine's NUMA distances, the latency those give (share/doc/model.md,
    /// "The machine's own distances"); else that of the object where they
    /// meet, which follows the tree's positions: a deeper common object is
    /// never farther than a shallower one, whatever the types' table says.
    double latency_between(std::uint32_t pu_a, std::uint32_t pu_b) const;
    /// The deepest object holding both PUs (logical indexes), by CombinACMP:
    /// O(1), no parent walk. The same PU twice gives that PU.
    ObjectId common_ancestor(std::uint32_t pu_a, std::uint32_t pu_b) const {
        return lca_.query(pu_a, pu_b);
    }
    /// The type's common-ancestor structure.
    const CombinLca& lca() const { return lca_; }

    /// x % num_pus() for any 32-bit x by two multiplications instead of a
    /// division (Lemire, Kaser, Kurz, "Faster remainder by direct computation",
    /// 2019): the PE -> PU step of the cluster's proximity queries.
    std::uint32_t pu_of_offset(std::uint32_t x) const {
        __extension__ typedef unsigned __int128 u128;
        return static_cast<std::uint32_t>((u128(pus_magic_ * x) * num_pus()) >> 64);
    }

    /// A text equal for equal types (tree, node level, latencies): the cluster
    /// builder merges types by it. O(tree size); allocates.
    std::string signature() const;

private:
    std::string description_;
    MachineTree tree_;
    CombinLca lca_;               ///< built once from tree_
    std::uint64_t pus_magic_ = 0; ///< 2^64 / num_pus rounded up, mod 2^64
    std::uint32_t num_pus_ = 0;   ///< tree_.num_pus(), one load away for proximity
    NodeLevel requested_;
    LevelLatencies latencies_;
    ObjectType node_type_ = ObjectType::PU;
    std::vector<std::uint32_t> node_of_pu_;
    std::vector<ObjectId> node_objects_;
    std::uint32_t pus_outside_node_level_ = 0;
    std::vector<double> meet_latency_ns_;   ///< per object, increasing towards the root
    std::vector<std::uint32_t> numa_of_pu_; ///< per PU, with across_numa_ns_ only
    std::vector<double> across_numa_ns_;    ///< numa_count_^2, empty without NUMA distances
    std::uint32_t numa_count_ = 0;
};

/// `type` with `overrides` applied to its latency table (same description,
/// tree and node request), its latencies ordered by its tree again: for
/// types made before the overrides were known (a generated cluster's
/// machine). O(objects + PUs x height), as MachineType's constructor; throws
/// only std::bad_alloc (the type's node level held before).
/// \threads A pure function of its arguments: safe from several threads at once.
MachineType with_latency_overrides(const MachineType& type, const LevelLatencyOverrides& overrides);

} // namespace nettopo
