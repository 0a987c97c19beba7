// Hypercube of dimension d: 2^d routers, joined when their indexes differ in
// one bit; the hop count is the Hamming distance.
#include "families/family_limits.hpp"
#include "families/router_graph.hpp"

#include <bit>

namespace nettopo {
namespace {

class Hypercube final : public detail::RouterGraph {
public:
    explicit Hypercube(std::uint32_t dim) : dim_(dim) {}
    std::uint64_t num_routers() const override { return std::uint64_t{1} << dim_; }
    std::uint64_t num_links() const override { return num_routers() / 2 * dim_; }
    std::uint32_t degree(std::uint32_t) const override { return dim_; }
    std::uint32_t hops(std::uint32_t a, std::uint32_t b) const override {
        return static_cast<std::uint32_t>(std::popcount(a ^ b));
    }
    std::uint32_t diameter() const override { return dim_; }
    void for_each_link(const LinkFn& fn) const override {
        const auto n = static_cast<std::uint32_t>(num_routers());
        for (std::uint32_t r = 0; r < n; ++r)
            for (std::uint32_t i = 0; i < dim_; ++i)
                if (!(r >> i & 1)) fn(r, r | std::uint32_t{1} << i, LinkClass::SwitchSwitch);
    }

private:
    std::uint32_t dim_;
};

} // namespace

std::unique_ptr<Family> make_hypercube(std::uint32_t dim, std::uint32_t concentration) {
    std::string spec = detail::direct_spec(fmt::format("hypercube --dim {}", dim), concentration);
    detail::require_at_least("hypercube", "--dim", dim, 1);
    // 2^31 routers already pass the 32-bit vertex ids.
    if (dim > 30)
        throw UsageError(fmt::format("{}: 2^{} routers, beyond nettopo's 32-bit ids", spec, dim));
    return detail::attach_machines(std::make_unique<Hypercube>(dim), spec, concentration);
}

} // namespace nettopo
