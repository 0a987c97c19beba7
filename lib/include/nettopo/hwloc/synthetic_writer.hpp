/// \file
/// A machine tree as an hwloc synthetic description, the string `lstopo -i`,
/// `hwloc-calc -i` and nettopo's own `-i` read ("Package:2 L3Cache:1(size=...)
/// Core:4 PU:2"). The reverse of tree_from_synthetic (hwloc_source.hpp).
/// \threads A pure function of its tree: safe from several threads at once.
/// \cost O(objects); throws std::bad_alloc besides what it says.
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <string>

namespace nettopo {

/// One token per level below the Machine, "Type:count", in hwloc's spelling
/// (Package, Die, Group, L3Cache, L1dCache, L1iCache, Core, PU; nettopo's L1
/// is written as a data cache, L2..L5 as unified caches), as `lstopo --of
/// synthetic` writes them. Attributes, where the synthetic syntax has them:
///  - a cache level's "(size=BYTES)": the size of its first cache (hwloc's
///    export does the same: a description has one size per level), left out
///    when unknown;
///  - NUMA nodes as hwloc 2's memory tokens after the level they hang from
///    ("[NUMANode(memory=BYTES)]", before the first level for the Machine's),
///    one per NUMA node of each object of that level, memory= that of the
///    level's first object's NUMA node;
///  - "indexes=" (OS indexes in logical order) on the PU level, and for all
///    NUMA nodes on the first NUMA token (where hwloc reads them), when they
///    are not 0, 1, 2, ...
/// Throws InputError when no synthetic description gives this tree: objects
/// of one level with different numbers of children, or children on different
/// levels (a hybrid CPU whose P-cores have an L2 of their own and E-cores share
/// one), different numbers of NUMA nodes on the objects of one level, or
/// memory-side caches (hwloc's synthetic export does not handle them). The
/// message names the first object that breaks the symmetry.
std::string synthetic_description(const MachineTree& tree);

} // namespace nettopo
