// OndulACMP (seed 001, Algorithm 2): hwloc's hwloc_get_common_ancestor_obj
// loop. Lift whichever object is deeper; if both are at one depth and still
// differ, lift both; repeat until they meet. Written for hwloc's trees, where
// siblings can sit at different depths; O(height) with more work per step
// than AscendLca.
#include "nettopo/tree/lca.hpp"

namespace nettopo {

ObjectId OndulLca::query(std::uint32_t pu_a, std::uint32_t pu_b) const {
    const auto objs = tree_->objects();
    ObjectId a = tree_->pu(pu_a), b = tree_->pu(pu_b);
    while (a != b) {
        while (objs[a.value].depth > objs[b.value].depth) a = objs[a.value].parent;
        while (objs[b.value].depth > objs[a.value].depth) b = objs[b.value].parent;
        if (a != b && objs[a.value].depth == objs[b.value].depth) {
            a = objs[a.value].parent;
            b = objs[b.value].parent;
        }
    }
    return a;
}

} // namespace nettopo
