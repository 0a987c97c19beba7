// Hypercube of dimension d: 2^d routers, joined when their indexes differ in
// one bit; the hop count is the Hamming distance.
#include "families/family_limits.hpp"
#include "families/router_graph.hpp"

#include <bit>
#include <cmath>

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

    // The standard projection: bits 0 and 1 a square, bit 2 its copy
    // shifted up and to the right (a cube), then each further bit a copy of
    // the drawing so far, alternately to its right and below it.
    Layout layout() const override {
        std::vector<PlanePoint> step(dim_);
        double width = 0, height = 0;
        for (std::uint32_t i = 0; i < dim_; ++i) {
            if (i < 3)
                step[i] = i == 0   ? PlanePoint{1, 0}
                          : i == 1 ? PlanePoint{0, 1}
                                   : PlanePoint{0.45, -0.4};
            else
                step[i] = i % 2 == 1 ? PlanePoint{width + 1.2, 0.2} : PlanePoint{0.2, height + 1.2};
            width += std::abs(step[i].x);
            height += std::abs(step[i].y);
        }
        Layout l;
        l.routers.resize(static_cast<std::size_t>(num_routers()));
        for (std::uint32_t r = 0; r < l.routers.size(); ++r)
            for (std::uint32_t i = 0; i < dim_; ++i)
                if (r >> i & 1) {
                    l.routers[r].x += step[i].x;
                    l.routers[r].y += step[i].y;
                }
        return l;
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
