// Slim Fly (Besta & Hoefler, SC 2014) on the McKay-Miller-Siran graphs: for a
// prime power q = 4w + delta (delta in {-1, 0, 1}), 2q^2 routers (s, x, y),
// s in {0, 1}, x and y in GF(q), router radix k' = (3q - delta)/2, diameter 2.
//   (0,x,y) ~ (0,x,y')  when y - y' is in X,
//   (1,m,c) ~ (1,m,c')  when c - c' is in X',
//   (0,x,y) ~ (1,m,c)   when y = m*x + c,
// with X, X' the generator sets of the paper, built from a primitive element.
// Router (s, x, y) has index s*q^2 + x*q + y. Adjacency is a table lookup,
// so the hop count is O(1): 0, 1 or 2 between routers.
#include "families/family_limits.hpp"
#include "families/galois_field.hpp"
#include "families/router_graph.hpp"

#include <algorithm>
#include <cmath>

namespace nettopo {
namespace {

class SlimFly final : public detail::RouterGraph {
public:
    SlimFly(std::uint32_t q, detail::PrimePower pp) : q_(q), field_(pp) {
        in_x_.assign(q, 0);
        in_x_prime_.assign(q, 0);
        const std::uint32_t delta_mod = q % 4; // 1: delta = 1, 0: delta = 0, 3: delta = -1
        auto mark = [&](std::vector<std::uint8_t>& set, std::uint32_t from, std::uint32_t to) {
            for (std::uint32_t e = from; e <= to; e += 2) set[field_.power(e)] = 1;
        };
        if (delta_mod == 1) {
            mark(in_x_, 0, q - 3);
            mark(in_x_prime_, 1, q - 2);
        } else if (delta_mod == 0) {
            mark(in_x_, 0, q - 2);
            mark(in_x_prime_, 1, q - 1);
        } else {
            const std::uint32_t w = (q + 1) / 4;
            mark(in_x_, 0, 2 * w - 2);
            mark(in_x_, 2 * w - 1, 4 * w - 3);
            mark(in_x_prime_, 1, 2 * w - 1);
            mark(in_x_prime_, 2 * w, 4 * w - 2);
        }
        for (std::uint32_t v = 0; v < q; ++v) {
            if (in_x_[v]) x_.push_back(v);
            if (in_x_prime_[v]) x_prime_.push_back(v);
        }
    }

    std::uint32_t radix() const { return static_cast<std::uint32_t>(x_.size()) + q_; }
    std::uint64_t num_routers() const override { return 2ull * q_ * q_; }
    std::uint64_t num_links() const override { return std::uint64_t{q_} * q_ * radix(); }
    std::uint32_t degree(std::uint32_t) const override { return radix(); }
    std::uint32_t diameter() const override { return 2; }

    std::uint32_t hops(std::uint32_t a, std::uint32_t b) const override {
        if (a == b) return 0;
        return adjacent(a, b) ? 1 : 2;
    }

    void for_each_link(const LinkFn& fn) const override {
        const std::uint32_t qq = q_ * q_;
        for (std::uint32_t x = 0; x < q_; ++x)
            for (std::uint32_t y = 0; y < q_; ++y) {
                for (std::uint32_t d : x_) {
                    const std::uint32_t y2 = field_.add(y, d);
                    if (y < y2) fn(x * q_ + y, x * q_ + y2, LinkClass::SwitchSwitch);
                }
                for (std::uint32_t d : x_prime_) {
                    const std::uint32_t y2 = field_.add(y, d);
                    if (y < y2) fn(qq + x * q_ + y, qq + x * q_ + y2, LinkClass::SwitchSwitch);
                }
                for (std::uint32_t m = 0; m < q_; ++m) {
                    const std::uint32_t c = field_.sub(y, field_.mul(m, x));
                    fn(x * q_ + y, qq + m * q_ + c, LinkClass::SwitchSwitch);
                }
            }
    }

    // Its usual picture: the groups (s, x), q routers each on a small
    // circle, in two columns, subgraph 0 on the left and 1 on the right, so
    // that the links between the subgraphs cross between the columns;
    // machines outside their group's circle.
    Layout layout() const override {
        Layout l;
        const std::vector<PlanePoint> one_group = detail::circle_points(q_, 1);
        double radius = 0;
        for (const PlanePoint& p : one_group) radius = std::max(radius, std::hypot(p.x, p.y));
        const double down = 2 * radius + 1.6, across = 2 * down + 2 * radius;
        for (std::uint32_t s = 0; s < 2; ++s)
            for (std::uint32_t x = 0; x < q_; ++x)
                for (const PlanePoint& p : one_group) {
                    l.routers.push_back({s * across + p.x, x * down + p.y});
                    l.outward.push_back(p);
                }
        return l;
    }

private:
    bool adjacent(std::uint32_t a, std::uint32_t b) const {
        const std::uint32_t qq = q_ * q_;
        if (a > b) std::swap(a, b);
        const std::uint32_t sa = a / qq, xa = a % qq / q_, ya = a % q_;
        const std::uint32_t sb = b / qq, xb = b % qq / q_, yb = b % q_;
        if (sa != sb) return ya == field_.add(field_.mul(xb, xa), yb); // y = m*x + c
        if (xa != xb) return false;
        return (sa == 0 ? in_x_ : in_x_prime_)[field_.sub(ya, yb)] != 0;
    }

    std::uint32_t q_;
    detail::GaloisField field_;
    std::vector<std::uint8_t> in_x_, in_x_prime_;
    std::vector<std::uint32_t> x_, x_prime_;
};

} // namespace

std::unique_ptr<Family> make_slimfly(std::uint32_t q, std::uint32_t p) {
    const auto pp = detail::prime_power(q);
    if (!pp)
        throw UsageError(fmt::format("slimfly --q {}: q must be a prime power (3, 4, 5, 7, 8, "
                                     "9, 11, 13, ...)",
                                     q));
    if (q % 4 == 2)
        throw UsageError(fmt::format("slimfly --q {}: q = 2 has no McKay-Miller-Siran graph; "
                                     "use q >= 3",
                                     q));
    const std::uint32_t delta_mod = q % 4;
    const std::uint64_t radix =
        (3 * std::uint64_t{q} - (delta_mod == 1 ? 1 : 0) + (delta_mod == 3 ? 1 : 0)) / 2;
    // q^2 * k' links must fit the ids: refuse before building GF(q)'s tables.
    if (std::uint64_t{q} * q * radix > detail::max_links)
        throw UsageError(fmt::format("slimfly --q {}: {} links, beyond nettopo's 32-bit ids", q,
                                     std::uint64_t{q} * q * radix));
    if (p == 0) p = static_cast<std::uint32_t>((radix + 1) / 2);
    std::string spec = fmt::format("slimfly --q {} --p {}", q, p);
    return detail::attach_machines(std::make_unique<SlimFly>(q, *pp), spec, p);
}

} // namespace nettopo
