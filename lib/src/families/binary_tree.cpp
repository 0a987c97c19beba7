// The original Net Topo's "fat-tree": a complete binary tree of `levels`
// levels, in heap order (router i has children 2i+1 and 2i+2). Kept so the
// thesis' tree M (7 levels, 127 machines) and tree G (10 levels, 1,023) can be
// regenerated exactly; it is not a fat-tree (see make_fat_tree for one).
#include "families/family_limits.hpp"
#include "families/router_graph.hpp"

#include <bit>

namespace nettopo {
namespace {

class BinaryTree final : public detail::RouterGraph {
public:
    explicit BinaryTree(std::uint32_t levels) : levels_(levels) {}
    std::uint64_t num_routers() const override { return (std::uint64_t{1} << levels_) - 1; }
    std::uint64_t num_links() const override { return num_routers() - 1; }
    std::uint32_t degree(std::uint32_t r) const override {
        const bool leaf = r >= (std::uint64_t{1} << (levels_ - 1)) - 1;
        return (r > 0) + (leaf ? 0 : 2);
    }
    // In 1-based heap numbering a node's ancestors are its prefixes in binary:
    // lift the deeper node to the other's depth, then both climb the length of
    // the part where they differ.
    std::uint32_t hops(std::uint32_t a, std::uint32_t b) const override {
        std::uint64_t u = std::uint64_t{a} + 1, v = std::uint64_t{b} + 1;
        const int du = std::bit_width(u), dv = std::bit_width(v);
        if (du < dv) std::swap(u, v);
        const auto lift = static_cast<std::uint32_t>(du > dv ? du - dv : dv - du);
        const auto climb = static_cast<std::uint32_t>(std::bit_width((u >> lift) ^ v));
        return lift + 2 * climb;
    }
    std::uint32_t diameter() const override { return 2 * (levels_ - 1); }
    void for_each_link(const LinkFn& fn) const override {
        const auto n = static_cast<std::uint32_t>(num_routers());
        for (std::uint32_t r = 1; r < n; ++r) fn((r - 1) / 2, r, LinkClass::SwitchSwitch);
    }

private:
    std::uint32_t levels_;
};

} // namespace

std::unique_ptr<Family> make_binary_tree(std::uint32_t levels, std::uint32_t concentration) {
    std::string spec = detail::direct_spec(fmt::format("tree --levels {}", levels), concentration);
    detail::require_at_least("tree", "--levels", levels, 1);
    if (levels > 31)
        throw UsageError(
            fmt::format("{}: 2^{}-1 machines, beyond nettopo's 32-bit ids", spec, levels));
    return detail::attach_machines(std::make_unique<BinaryTree>(levels), spec, concentration);
}

} // namespace nettopo
