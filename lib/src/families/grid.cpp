// Mesh and torus of any number of dimensions. Router r has coordinates in
// mixed radix, dimension 0 varying fastest: r = x0 + d0*(x1 + d1*(x2 + ...)).
// A torus dimension of size 2 has one link per pair, not two parallel ones;
// a dimension of size 1 has none.
#include "families/family_limits.hpp"
#include "families/router_graph.hpp"

#include <algorithm>
#include <cmath>
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

    // Dimension 0 across, 1 down, 2 in depth (an oblique projection: each
    // layer a little up and to the right of the one before, its routers
    // between those of the first, the grid spaced so that they fit); every
    // further dimension repeats the drawing so far, odd ones to the right
    // and even ones below, each copy 1.5 steps from the last and shifted a
    // little the other way, so that links between copies do not run along
    // a line of routers.
    Layout layout() const override {
        constexpr PlanePoint depth{0.42, -0.3};
        const double step = dims_.size() > 2 ? std::max(1.0, (dims_[2] - 1) * 0.52 + 0.6) : 1.0;
        std::vector<PlanePoint> stride(dims_.size());
        double width = 0, height = 0; // of the drawing of the dimensions so far
        for (std::size_t i = 0; i < dims_.size(); ++i) {
            if (i < 3)
                stride[i] = i == 0 ? PlanePoint{step, 0} : i == 1 ? PlanePoint{0, step} : depth;
            else
                stride[i] =
                    i % 2 == 1 ? PlanePoint{width + 1.5, 0.35} : PlanePoint{0.35, height + 1.5};
            width += (dims_[i] - 1) * std::abs(stride[i].x);
            height += (dims_[i] - 1) * std::abs(stride[i].y);
        }
        Layout l;
        l.routers.resize(static_cast<std::size_t>(routers_));
        std::vector<std::uint32_t> x(dims_.size(), 0);
        for (PlanePoint& p : l.routers) {
            for (std::size_t i = 0; i < dims_.size(); ++i) {
                p.x += x[i] * stride[i].x;
                p.y += x[i] * stride[i].y;
            }
            for (std::size_t i = 0; i < dims_.size() && ++x[i] == dims_[i]; ++i) x[i] = 0;
        }
        return l;
    }

    // A torus link whose ends are the two ends of a line.
    bool wraps_around(std::uint32_t a, std::uint32_t b) const override {
        if (!torus_) return false;
        for (std::uint32_t d : dims_) {
            const std::uint32_t xa = a % d, xb = b % d;
            a /= d;
            b /= d;
            if (xa != xb) return d >= 3 && (xa > xb ? xa - xb : xb - xa) == d - 1 && a == b;
        }
        return false;
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
