/// \file
/// What differs between the cluster one expects and the cluster one has, with
/// machines and switches matched by name: the question of a CI check ("is
/// today's cluster still the one we expect?"), answered as data, one
/// difference per fact a person can act on.
///
/// A machine or switch present in one cluster only is one difference; the
/// links to it are not reported again (its neighbours are listed with it). A
/// link is matched by the names of its two ends; its number of cables
/// (multiplicity), its bandwidth and its latency are compared separately. A
/// machine present in both whose type differs (tree, node level in use or
/// latencies) is one difference, whatever else about it changed. Names are compared as
/// they are: a machine and a switch of the same name do not match, and the
/// clusters' own names, run order and type descriptions do not count.
///
/// \threads The functions only read their arguments: safe from several
/// threads at once on shared const clusters. A ClusterDiff is a value.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/tree/object_type.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nettopo {

/// The kinds of difference diff_clusters reports, in its order.
enum class DifferenceKind : std::uint8_t {
    switch_missing,    ///< in the expected cluster only
    switch_added,      ///< in the actual cluster only
    machine_missing,   ///< in the expected cluster only
    machine_added,     ///< in the actual cluster only
    link_missing,      ///< both ends in both clusters, the link in the expected one only
    link_added,        ///< both ends in both clusters, the link in the actual one only
    cables_changed,    ///< another multiplicity: a trunk lost or gained cables
    bandwidth_changed, ///< another bandwidth (Gbit/s per cable; 0: unknown)
    latency_changed,   ///< another latency (compared in picoseconds, as searches add them)
    machine_changed,   ///< another machine type
    /// An adapter port of a machine in both clusters, cabled to another
    /// vertex (compared only when both clusters keep attachments; ports are
    /// matched by GUID and port number, else by device name and port).
    adapter_moved,
    adapter_missing, ///< an adapter port in the expected cluster only (machine in both)
    adapter_added,   ///< an adapter port in the actual cluster only (machine in both)
};
/// Number of DifferenceKind values.
inline constexpr std::size_t difference_kind_count =
    static_cast<std::size_t>(DifferenceKind::adapter_added) + 1;

/// What a machine type is made of, in the numbers people check on a host.
struct MachineCounts {
    std::uint32_t packages = 0;            ///< Package objects
    std::uint32_t cores = 0;               ///< Core objects
    std::uint32_t pus = 0;                 ///< PUs (hardware threads)
    std::uint32_t numa_nodes = 0;          ///< NUMA nodes
    std::uint64_t memory_bytes = 0;        ///< sum of the NUMA nodes' local memory; 0: unknown
    std::uint32_t nodes = 0;               ///< nettopo's nodes (PUs grouped at the node level)
    ObjectType node_type = ObjectType::PU; ///< the type of the node level
    bool operator==(const MachineCounts&) const = default; ///< all counts equal
};
/// The counts of `type`. O(objects of its tree); throws nothing.
MachineCounts machine_counts(const MachineType& type);

/// How the types of one machine differ: both sides' counts, and what else
/// differs when the trees have the same shape (same objects, same nesting).
struct MachineChange {
    MachineCounts expected;   ///< the expected machine's counts
    MachineCounts actual;     ///< the actual machine's counts
    bool layout = false;      ///< other objects or nesting
    bool os_indexes = false;  ///< same shape, other OS indexes
    bool cache_sizes = false; ///< same shape, other cache sizes (memory-side caches included)
    bool numa_memory = false; ///< same shape, other local memory of some NUMA node
    bool latencies = false;   ///< other latencies between the levels
    /// Same shape, other CPU kinds (MachineTree::cpu_kinds: their
    /// efficiencies or infos, or which PUs are of which kind).
    bool cpu_kinds = false;
};

/// One difference between two clusters.
struct ClusterDifference {
    DifferenceKind kind; ///< what differs
    /// A machine or switch; a link's first end: a machine before a switch,
    /// else the first in natural name order.
    std::string name;
    std::string peer; ///< a link's other end; empty for a machine or a switch
    /// Links: cables (missing: expected's count, actual 0; added: the reverse;
    /// cables_changed: both), bandwidth in Gbit/s or latency in ns.
    double expected = 0;
    double actual = 0; ///< as `expected`, the actual cluster's value
    /// A machine or switch missing or added: its neighbours in the cluster
    /// that has it, in natural name order.
    std::vector<std::string> neighbors;
    MachineChange machine; ///< machine_changed only
    /// Adapters: `name` is "HOST:DEVICE", `peer` the vertex it is cabled to
    /// (moved: in the actual cluster), `was` where the expected cluster
    /// cables it (moved only), `port` its port number (0: unknown).
    std::string was = {};
    std::uint32_t port = 0; ///< an adapter's port number (adapter kinds only)
};

/// What diff_clusters found.
struct ClusterDiff {
    /// By kind (in DifferenceKind order), then name and peer in natural order.
    std::vector<ClusterDifference> differences;
    /// How many differences of each kind (indexed by DifferenceKind).
    std::array<std::size_t, difference_kind_count> count_by_kind{};
    /// Whether no difference was found. O(1), throws nothing.
    bool identical() const { return differences.empty(); }
    /// How many differences of kind `k`. O(1), throws nothing.
    std::size_t count(DifferenceKind k) const { return count_by_kind[static_cast<std::size_t>(k)]; }
};

/// Compares `actual` with `expected`. Cost: O(V + L log d) for V machines and
/// switches, L links and d the largest degree, plus the sort of the
/// differences; each pair of distinct machine types is compared once. Memory:
/// two vertex maps, plus the differences. Throws only std::bad_alloc.
ClusterDiff diff_clusters(const Cluster& expected, const Cluster& actual);

} // namespace nettopo
