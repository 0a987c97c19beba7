// Mesh and torus of any number of dimensions. Router r has coordinates in
// mixed radix, dimension 0 varying fastest: r = x0 + d0*(x1 + d1*(x2 + ...)).
// A torus dimension of size 2 has one link per pair, not two parallel ones;
// a dimension of size 1 has none.
#include "families/family_limits.hpp"
#include "families/router_graph.hpp"

#include <algorithm>
#include <fmt/ranges.h>

namespace nettopo {
namespace {

using detail::checked_mul;

class Grid final : public detail::RouterGraph {
public:
    Grid(std::vector<std::uint32_t> dims, bool torus, const std::string& spec)
        : dims_(std::move(dims)), torus_(torus) {
        if (dims_.empty()) throw UsageError(fmt::format("{}: no dimensions", spec));
        for (std::uint32_t d : dims_)
            if (d == 0) throw UsageError(fmt::format("{}: a dimension of size 0", spec));
        for (std::uint32_t d : dims_) routers_ = checked_mul(routers_, d, spec + ": routers");
        for (std::uint32_t d : dims_)
            links_ = detail::checked_add(links_, routers_ / d * wrapped_links(d), spec + ": links",
                                         detail::max_links);
    }

    std::uint64_t num_routers() const override { return routers_; }
    std::uint64_t num_links() const override { return links_; }

    std::uint32_t degree(std::uint32_t r) const override {
        std::uint32_t deg = 0;
        for (std::uint32_t d : dims_) {
            const std::uint32_t x = r % d;
            r /= d;
            if (torus_ && d >= 3)
                deg += 2;
            else
                deg += (x > 0) + (x + 1 < d);
        }
        return deg;
    }

    std::uint32_t hops(std::uint32_t a, std::uint32_t b) const override {
        std::uint32_t sum = 0;
        for (std::uint32_t d : dims_) {
            const std::uint32_t xa = a % d, xb = b % d;
            a /= d;
            b /= d;
            const std::uint32_t delta = xa > xb ? xa - xb : xb - xa;
            sum += torus_ ? std::min(delta, d - delta) : delta;
        }
        return sum;
    }

    std::uint32_t diameter() const override {
        std::uint32_t sum = 0;
        for (std::uint32_t d : dims_) sum += torus_ ? d / 2 : d - 1;
        return sum;
    }

    void for_each_link(const LinkFn& fn) const override {
        std::vector<std::uint32_t> x(dims_.size(), 0);
        const auto n = static_cast<std::uint32_t>(routers_);
        for (std::uint32_t r = 0; r < n; ++r) {
            std::uint32_t stride = 1;
            for (std::size_t i = 0; i < dims_.size(); ++i) {
                const std::uint32_t d = dims_[i];
                if (x[i] + 1 < d)
                    fn(r, r + stride, LinkClass::SwitchSwitch);
                else if (torus_ && d >= 3)
                    fn(r - (d - 1) * stride, r, LinkClass::SwitchSwitch);
                stride *= d;
            }
            for (std::size_t i = 0; i < dims_.size() && ++x[i] == dims_[i]; ++i) x[i] = 0;
        }
    }

private:
    // Links along one line of the dimension.
    std::uint64_t wrapped_links(std::uint32_t d) const { return torus_ && d >= 3 ? d : d - 1; }

    std::vector<std::uint32_t> dims_;
    bool torus_;
    std::uint64_t routers_ = 1, links_ = 0;
};

std::unique_ptr<Family> make_grid(std::vector<std::uint32_t> dims, bool torus,
                                  std::uint32_t concentration) {
    std::string spec = detail::direct_spec(
        fmt::format("{} --dims {}", torus ? "torus" : "mesh", fmt::join(dims, "x")), concentration);
    return detail::attach_machines(std::make_unique<Grid>(std::move(dims), torus, spec), spec,
                                   concentration);
}

} // namespace

std::unique_ptr<Family> make_mesh(std::vector<std::uint32_t> dims, std::uint32_t concentration) {
    return make_grid(std::move(dims), false, concentration);
}

std::unique_ptr<Family> make_torus(std::vector<std::uint32_t> dims, std::uint32_t concentration) {
    return make_grid(std::move(dims), true, concentration);
}

} // namespace nettopo
