// The serial verifier beside the fast kernels (gapbs' habit): every LCA
// variant against AscendLca, the obvious parent walk, on every pair of PUs of
// whatever tree the caller brings.
#include "nettopo/tree/lca.hpp"

#include <fmt/format.h>
#include <optional>

namespace nettopo {

LcaVerification verify_lca(const MachineTree& tree) {
    LcaVerification v;
    const AscendLca ascend(tree);
    const OndulLca ondul(tree);
    const CombinLca combin(tree);
    std::optional<MatrixLca> matrix;
    if (tree.num_objects() <= MatrixLca::max_objects) matrix.emplace(tree);
    auto compare = [&](const char* name, std::uint32_t a, std::uint32_t b, ObjectId got,
                       ObjectId want) {
        if (got == want) return;
        if (v.mismatches++ == 0)
            v.first_mismatch = fmt::format("{}: PU {}, PU {}: object {} instead of {}", name, a, b,
                                           got.value, want.value);
    };
    const std::uint32_t n = tree.num_pus();
    for (std::uint32_t a = 0; a < n; ++a)
        for (std::uint32_t b = a; b < n; ++b) {
            ++v.pairs;
            const ObjectId want = ascend.query(a, b);
            compare("ondul", a, b, ondul.query(a, b), want);
            compare("combin", a, b, combin.query(a, b), want);
            compare("combin (b, a)", b, a, combin.query(b, a), want);
            if (matrix) compare("matrix", a, b, matrix->query(a, b), want);
        }
    return v;
}

} // namespace nettopo
