// The tree of an LCA benchmark loaded into hwloc, so hwloc's own
// hwloc_get_common_ancestor_obj can be timed on it.
#pragma once

#include "nettopo/machine_tree.hpp"

#include <hwloc.h>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nettopo::detail {

// hwloc synthetic description of a tree whose every level has one type and
// one degree ("group:2 group:1 pu:2"); nullopt for any other tree.
std::optional<std::string> hwloc_synthetic_of(const MachineTree& tree);

struct HwlocLcaTopology {
    struct Deleter {
        void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
    };
    std::unique_ptr<hwloc_topology, Deleter> topology;
    // PU logical index -> the hwloc object handed to hwloc's call (a PU; a
    // memory object would be climbed to its CPU-side parent first).
    std::vector<hwloc_obj_t> pus;
};

// Loads `xml_file`, or the synthetic description of `tree` when it is empty,
// with every Group kept. nullopt with `why` set when the tree has no
// synthetic form; InputError when hwloc refuses the input or builds a
// different number of PUs.
std::optional<HwlocLcaTopology> load_hwloc_for_lca(const MachineTree& tree,
                                                   const std::string& xml_file, std::string& why);

} // namespace nettopo::detail
