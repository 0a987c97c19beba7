/// \file
/// Machine-to-machine hop counts and latencies without a search per query:
/// the thesis' open problem (its full machine x machine memo took 6.2 s and
/// 20 MB for 1,023 machines, and grows with the square).
///
/// The kinds, fastest first:
/// - a closed form, when the cluster is a generated family whose record it
///   carries and whose links are still exactly the family's (O(1), no
///   per-pair memory);
/// - the general index, over the graph with degree-1 machines folded onto
///   their neighbour (host distance = core distance + the two host links): a
///   dense table of the core while it fits the memory budget, else of the
///   core's terminals alone when every core link has one latency, pruned
///   landmark labels beyond it, and a bounded cache of single-source rows
///   when even the labels would not fit;
/// - Search: no index, a NetworkSearch per question behind this interface.
/// Which one answers is decided in one place, plan_distances
/// (distance_plan.hpp). Every kind answers exactly what NetworkSearch answers
/// (BFS hops, Dijkstra latency in integer picoseconds); check_distance_index
/// is the slow twin each is held to.
///
/// Every DistanceIndex's queries are const and may be called from several
/// threads at once (the row cache and the search lock themselves).
/// \threads The free functions may be called from several threads at once
/// (on a shared const cluster and index).
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace nettopo {

class ArrayWriter; // support/detail/array_file.hpp: the library's own file records

/// One vocabulary for what answers distances: the plan's kind, an index's
/// kind(), the kind kept in an image (the numbers are written in kept
/// indexes: append only).
enum class DistanceIndexKind : std::uint8_t {
    Auto,          ///< the fastest kind that fits the budget (a request, never an index's kind)
    ClosedForm,    ///< refused (UsageError) when the cluster carries no usable family
    DenseTable,    ///< all pairs of the folded core (forced: or of its terminals)
    Labels,        ///< pruned landmark labelling of the folded core
    RowCache,      ///< single-source rows computed on demand, at most a budget's worth kept
    Search,        ///< no index: a NetworkSearch per question
    TerminalTable, ///< all pairs of the folded core's terminals (one core latency)
};

/// "closed form", "dense table", ...: the words of reports. O(1), throws nothing.
const char* kind_name(DistanceIndexKind kind);

/// Machine-to-machine hops and latencies of one cluster (see the file's
/// comment), made by build_distances or read from an image.
/// \threads Every const call may be made from several threads at once.
/// \cost hops and latency_ps: O(1) for a closed form or a table, a merge of
/// two labels (O(label size)) for labels, one search for a row not cached or
/// for Search. They allocate nothing (but a row cache's new row) and throw
/// nothing but std::bad_alloc. kind() and memory_bytes() are O(1) and
/// description() builds a string (std::bad_alloc at worst); write_kept is
/// linear in the index and throws Error when the output fails. The cluster
/// it was built for must outlive it.
class DistanceIndex {
public:
    static constexpr std::uint32_t unreachable_hops = 0xffffffffu; ///< hops() when unreachable
    static constexpr std::int64_t unreachable_ps = -1; ///< latency_ps() when unreachable

    virtual ~DistanceIndex() = default; ///< frees the index

    /// What was built, for reports: "closed form (torus --dims 32x32x32)",
    /// "dense table: 25 switches, 276 machines folded", ...
    virtual std::string description() const = 0;
    /// What kind of index this is.
    virtual DistanceIndexKind kind() const = 0;
    /// Memory the index holds, in bytes.
    virtual std::size_t memory_bytes() const = 0;

    /// Fewest links between two machines (0 for the same machine).
    virtual std::uint32_t hops(MachineId a, MachineId b) const = 0;
    /// Smallest total link latency in picoseconds, as NetworkSearch adds it.
    virtual std::int64_t latency_ps(MachineId a, MachineId b) const = 0;

    /// Whether the index can be kept in a file (kept_index.hpp): not a row
    /// cache, which fills itself on demand (keeping it would save nothing).
    virtual bool can_keep() const { return false; }
    /// Writes what reading the index back needs; only when can_keep().
    virtual void write_kept(ArrayWriter& out) const { (void)out; }
};

/// The slow twin: compares an index with NetworkSearch (BFS hop counts,
/// Dijkstra picoseconds) from each source to every machine; the first
/// difference, or nullopt when they agree. One full search per source.
struct IndexMismatch {
    MachineId from;            ///< the source
    MachineId to;              ///< the machine reached
    bool hops;                 ///< false: the latency differs
    std::int64_t index_value;  ///< the index's answer (unreachable as in DistanceIndex)
    std::int64_t search_value; ///< the search's answer
};
/// Runs the comparison of IndexMismatch's comment from each of `sources`.
/// O(sources x (V + E) log V); throws only std::bad_alloc.
std::optional<IndexMismatch> check_distance_index(const Cluster& cluster,
                                                  const DistanceIndex& index,
                                                  std::span<const MachineId> sources);

} // namespace nettopo
