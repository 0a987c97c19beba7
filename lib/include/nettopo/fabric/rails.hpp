/// \file
/// The rails of a fabric whose hosts have several adapters: on a GPU cluster
/// each host's adapter N is cabled to a leaf switch of rail N, so that a job
/// keeps its traffic on one rail, and a cable in another rail's leaf is a
/// fault sites hunt for. Rails are inferred from the fabric alone (the
/// adapters' device names and where they are cabled), never declared.
///
/// The rule (share/doc/clusters.md, "Rails"):
///  - an adapter's index is its device name's (adapter_index: mlx5_N and
///    HCA-(N+1) are both N); adapters whose name gives none take no part;
///  - **rail hosts** have adapters of at least two indexes on at least two
///    switches; the others (one adapter, or all on one switch: service and
///    storage hosts) are counted, not judged;
///  - a **leaf** is a switch a rail host's adapter is cabled to; it
///    **serves** index N when at least 2 of its rail-host adapters, and at
///    least a quarter of them, have index N (a leaf where no index reaches
///    that serves its most frequent ones);
///  - problems: an adapter on a leaf that does not serve its index (a
///    swapped cable shows as two); a leaf serving several indexes whose
///    hosts bring one each while keeping one rail per leaf on their other
///    leaves (at least three quarters of their adapters there), unless half
///    of its hosts put two of its indexes on it themselves (a design: the
///    fire-cs7500 dump's 4-adapter hosts); a rail host with fewer adapters
///    than most of the (at least two) rail hosts sharing a leaf with it,
///    without an index that more than half of them have.
///
/// \threads Reentrant: no global state.
/// \cost O(adapters log adapters + rail hosts x their leaves' hosts);
/// throws std::bad_alloc only.
#pragma once

#include "nettopo/fabric/fabric.hpp"
#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nettopo {

/// A leaf switch and the adapter indexes of the rail hosts cabled to it.
struct RailLeaf {
    std::string name; ///< the switch's name in the fabric
    /// (index, adapters of that index cabled to it), by index.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> adapters;
    std::vector<std::uint32_t> serves; ///< the indexes it serves (the rule), increasing
};

/// One rail: an adapter index and the leaves that serve it.
struct Rail {
    std::uint32_t index = 0;  ///< the adapters' index (mlx5_N, HCA-(N+1))
    std::uint32_t leaves = 0; ///< leaves serving it
    std::uint32_t hosts = 0;  ///< rail hosts with an adapter of this index
};

/// One departure from the fabric's own rail design.
struct RailProblem {
    /// What departs from the design.
    enum class Kind {
        wrong_leaf,   ///< an adapter on a leaf that does not serve its index
        missing_rail, ///< a rail host without an adapter its neighbours have
        mixed_leaf,   ///< a leaf serving several indexes, in a one-rail-per-leaf design
    };
    Kind kind = Kind::wrong_leaf;      ///< which of the three
    std::string host;                  ///< empty for mixed_leaf
    std::string adapter;               ///< the device name, wrong_leaf only
    std::string leaf;                  ///< the leaf concerned (missing_rail: empty)
    std::uint32_t index = 0;           ///< the adapter's, or the missing one (mixed_leaf: 0)
    std::vector<std::uint32_t> serves; ///< what the leaf serves (wrong_leaf, mixed_leaf)
    std::string text;                  ///< one line naming all of the above
};

/// What infer_rails finds.
struct Rails {
    std::vector<Rail> rails;              ///< by index; empty: no rail host
    std::vector<RailLeaf> leaves;         ///< by name, natural order
    std::uint32_t rail_hosts = 0;         ///< hosts judged by the rule
    std::uint32_t other_hosts = 0;        ///< hosts with adapters the rule does not judge
    std::uint32_t single_rail_leaves = 0; ///< leaves serving one index
    std::vector<RailProblem> problems;    ///< wrong leaves, mixed leaves, missing rails
    /// "4, 12-13 leaves each; 48 of 50 leaves serve one rail; 230 hosts on
    /// rails, 38 others" (the rails' count first), or "none" when empty.
    std::string summary() const;
};

/// The rails of `fabric` (see the file's comment). A fabric without
/// adapters (Slurm's) has none.
Rails infer_rails(const Fabric& fabric);

/// The rails of a cluster's attachments (Cluster::attachments, as an
/// archive keeps them): the same rule as for a fabric, each machine's
/// attachments being its adapters (one per device name, its cabled ports).
/// None for a cluster without attachments. O(attachments log attachments).
Rails infer_rails(const Cluster& cluster);

} // namespace nettopo
