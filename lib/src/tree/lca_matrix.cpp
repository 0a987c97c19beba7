// MatrixACMP (seed 001, Algorithm 3): the ancestor of every pair of objects,
// by object id, in the lower triangle of an N x N table (row max(i, j),
// column min(i, j), diagonal included). O(1) per query, O(N^2) memory: the
// thesis found it fastest on small trees and slowest to scale, as the table
// leaves the caches.
#include "nettopo/support/error.hpp"
#include "nettopo/tree/lca.hpp"

#include <fmt/format.h>

namespace nettopo {

MatrixLca::MatrixLca(const MachineTree& tree) {
    const std::size_t n = tree.num_objects();
    if (n > max_objects)
        throw UsageError(fmt::format("the matrix of ancestors is for trees of at most {} objects, "
                                     "this one has {}",
                                     max_objects, n));
    pu_object_.resize(tree.num_pus());
    for (std::uint32_t p = 0; p < tree.num_pus(); ++p) pu_object_[p] = tree.pu(p).value;
    table_.resize(n * (n + 1) / 2);
    // Row i from row parent(i): below the diagonal the ancestor of (i, j) is
    // i's parent's ancestor with j, unless j is i itself (pre-order: j < i
    // means j is not below i).
    for (std::uint32_t i = 0; i < n; ++i) {
        const ObjectId p = tree.object(ObjectId(i)).parent;
        ObjectId* row = table_.data() + std::size_t(i) * (i + 1) / 2;
        for (std::uint32_t j = 0; j < i; ++j) {
            // ancestor(p, j): p < i, look it up in p's row or j's row.
            const std::uint32_t hi = std::max(p.value, j), lo = std::min(p.value, j);
            row[j] = table_[std::size_t(hi) * (hi + 1) / 2 + lo];
        }
        row[i] = ObjectId(i);
    }
}

} // namespace nettopo
