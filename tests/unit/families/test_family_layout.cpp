// Family::layout and Family::wraps_around (family.hpp): the drawing of a
// family has one point per vertex, no two vertices at one point, a mesh or
// torus is its grid (checked against coordinates computed here from the
// router numbering, not from the layout code), and the links that wrap
// around are exactly a torus' links between the two ends of a line.
#include "nettopo/families/family.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

using namespace nettopo;

namespace {

struct Links final : FamilySink {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> list;
    void machines(std::string_view, std::uint32_t) override {}
    void switches(std::string_view, std::uint32_t) override {}
    void link(std::uint32_t a, std::uint32_t b, LinkClass) override { list.emplace_back(a, b); }
};

Links links_of(const Family& f) {
    Links l;
    f.emit(l);
    return l;
}

double distance(PlanePoint a, PlanePoint b) {
    return std::hypot(a.x - b.x, a.y - b.y);
}

// No two vertices closer than `apart` grid steps: nothing drawn on anything else.
void check_apart(const std::vector<PlanePoint>& points, double apart) {
    double closest = 1e9;
    for (std::size_t i = 0; i < points.size(); ++i)
        for (std::size_t j = i + 1; j < points.size(); ++j)
            closest = std::min(closest, distance(points[i], points[j]));
    CHECK(closest >= apart);
}

} // namespace

TEST_CASE("Family layouts: a point per vertex, apart, for every family that has one",
          "[families][layout]") {
    const std::vector<std::string> drawn = {
        "mesh --dims 5",
        "mesh --dims 4x3",
        "mesh --dims 3x3 --concentration 2",
        "torus --dims 4x4x3",
        "torus --dims 3x2x2x2",
        "torus --dims 3x3 --concentration 8",
        "hypercube --dim 3",
        "hypercube --dim 6",
        "hypercube --dim 4 --concentration 3",
        "ring --machines 7",
        "ring --machines 8 --concentration 2",
        "complete --machines 6",
        "dragonfly --p 2",
        "dragonfly --p 1 --a 1 --h 1 --g 2",
        "slimfly --q 3",
        "slimfly --q 4 --p 1",
    };
    for (const std::string& spec : drawn) {
        INFO(spec);
        const auto f = family_from_spec(spec);
        const std::vector<PlanePoint> points = f->layout();
        REQUIRE(points.size() == f->num_vertices());
        check_apart(points, 0.4);
    }
    for (const char* spec : {"fat-tree --k 4 --n 2", "fat-tree --xgft \"2;4,4;1,4\"",
                             "tree --levels 4", "butterfly --k 2 --n 3"}) {
        INFO(spec);
        CHECK(family_from_spec(spec)->layout().empty()); // drawn in layers
    }
}

TEST_CASE("Family layouts: a 2D mesh or torus is its grid, routers numbered x first",
          "[families][layout]") {
    // Router r of an X x Y grid: x = r mod X, y = r div X; one step apart.
    for (const char* spec : {"mesh --dims 5x3", "torus --dims 4x6"}) {
        INFO(spec);
        const auto f = family_from_spec(spec);
        const std::uint32_t X = std::string_view(spec).ends_with("5x3") ? 5 : 4;
        const std::vector<PlanePoint> p = f->layout();
        for (std::uint32_t r = 0; r < p.size(); ++r) {
            CHECK(p[r].x == Approx(p[0].x + r % X));
            CHECK(p[r].y == Approx(p[0].y + r / X));
        }
    }
    // With machines: the switches form the grid (any spacing), each machine
    // nearer its own switch than any other.
    const auto f = family_from_spec("mesh --dims 3x3 --concentration 2");
    const std::vector<PlanePoint> p = f->layout();
    const std::uint32_t m = 18;
    const double step = p[m + 1].x - p[m].x;
    CHECK(step > 1);
    for (std::uint32_t r = 0; r < 9; ++r) {
        CHECK(p[m + r].x == Approx(p[m].x + step * (r % 3)));
        CHECK(p[m + r].y == Approx(p[m].y + step * (r / 3)));
    }
    for (std::uint32_t i = 0; i < m; ++i) {
        double nearest = 1e9;
        std::uint32_t at = 0;
        for (std::uint32_t r = 0; r < 9; ++r)
            if (distance(p[i], p[m + r]) < nearest) {
                nearest = distance(p[i], p[m + r]);
                at = r;
            }
        CHECK(at == i / 2);
    }
}

TEST_CASE("Family layouts: the links that wrap around are a torus' line closers",
          "[families][layout]") {
    // X x Y torus, sizes >= 3: a link wraps iff its ends are the two ends of
    // a row (|dx| = X-1) or of a column (|dy| = Y-1).
    for (auto [X, Y] : {std::pair{4u, 4u}, std::pair{3u, 5u}, std::pair{5u, 2u}}) {
        const auto f = make_torus({X, Y});
        std::size_t wraps = 0;
        for (auto [a, b] : links_of(*f).list) {
            const auto dx = static_cast<std::uint32_t>(std::abs(int(a % X) - int(b % X)));
            const auto dy = static_cast<std::uint32_t>(std::abs(int(a / X) - int(b / X)));
            const bool expected = (X >= 3 && dx == X - 1) || (Y >= 3 && dy == Y - 1);
            INFO(X << "x" << Y << " link " << a << "-" << b);
            CHECK(f->wraps_around(a, b) == expected);
            CHECK(f->wraps_around(b, a) == expected);
            wraps += expected;
        }
        // One wrap-around link per line of a dimension of 3 or more.
        CHECK(wraps == (X >= 3 ? Y : 0) + (Y >= 3 ? X : 0));
    }
    // With machines: only router links wrap; a mesh, hypercube, ring never.
    const auto c = make_torus({4}, 2);
    std::size_t wraps = 0;
    for (auto [a, b] : links_of(*c).list) wraps += c->wraps_around(a, b);
    CHECK(wraps == 1);
    CHECK(c->wraps_around(8, 11)); // switches r0 and r3 after the 8 machines
    for (const char* spec : {"mesh --dims 4x4", "hypercube --dim 3", "ring --machines 6"}) {
        const auto f = family_from_spec(spec);
        for (auto [a, b] : links_of(*f).list) CHECK_FALSE(f->wraps_around(a, b));
    }
}
