// The tree of an LCA benchmark loaded into hwloc, so hwloc's own
// hwloc_get_common_ancestor_obj can be timed on it.
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <hwloc.h>
#include <memory>
#include <string>
#include <vector>

namespace nettopo::detail {

// The tree as an hwloc v2 XML export: PU os indexes = logical indexes, one
// NUMA node at the root (the tree's memory objects are left out), Groups
// marked dont_merge.
std::string hwloc_xml_of(const MachineTree& tree);

struct HwlocLcaTopology {
    struct Deleter {
        void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
    };
    std::unique_ptr<hwloc_topology, Deleter> topology;
    // PU logical index -> the hwloc object handed to hwloc's call (a PU; a
    // memory object would be climbed to its CPU-side parent first).
    std::vector<hwloc_obj_t> pus;
};

// Loads `xml_file`, or hwloc_xml_of(tree) when it is empty, with every
// Group kept. InputError when hwloc refuses the input or builds a different
// number of PUs.
HwlocLcaTopology load_hwloc_for_lca(const MachineTree& tree, const std::string& xml_file);

} // namespace nettopo::detail
