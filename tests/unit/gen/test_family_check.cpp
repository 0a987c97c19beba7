// check_family (nettopo-gen --verify): it must pass every family as built, and
// catch a formula that is wrong in each way it checks, so that a real bug in a
// family cannot slip through it.
#include "nettopo/gen/detail/family_check.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"

#include <catch2/catch.hpp>
#include <memory>

using namespace nettopo;
using Catch::Contains;

namespace {

const MachineType& one_pu() {
    static const MachineType type("pu:1", tree_from_synthetic("pu:1"), NodeLevel{},
                                  LevelLatencies::defaults());
    return type;
}

// A real family with one formula made wrong.
class Skewed final : public Family {
public:
    enum class Fault { None, Links, Degree, OneHop, Diameter, RoutingBelowBfs };
    Skewed(std::unique_ptr<Family> real, Fault fault) : real_(std::move(real)), fault_(fault) {}
    std::string spec() const override { return real_->spec(); }
    std::uint64_t num_machines() const override { return real_->num_machines(); }
    std::uint64_t num_switches() const override { return real_->num_switches(); }
    std::uint64_t num_links() const override {
        return real_->num_links() + (fault_ == Fault::Links);
    }
    std::uint32_t degree(std::uint32_t v) const override {
        return real_->degree(v) + (fault_ == Fault::Degree && v == 3);
    }
    std::uint32_t machine_hops(std::uint32_t a, std::uint32_t b) const override {
        const std::uint32_t h = real_->machine_hops(a, b);
        if (fault_ == Fault::OneHop && a == 1 && b == 2) return h + 1;
        if (fault_ == Fault::RoutingBelowBfs && a != b) return h - 1;
        return h;
    }
    HopRule hop_rule() const override { return real_->hop_rule(); }
    std::uint32_t diameter() const override {
        return real_->diameter() + (fault_ == Fault::Diameter);
    }
    void emit(FamilySink& sink) const override { real_->emit(sink); }

private:
    std::unique_ptr<Family> real_;
    Fault fault_;
};

FamilyCheck check(const Family& f, std::uint32_t sources) {
    const Cluster c = generate(f, one_pu());
    FamilyCheckOptions o;
    o.sources = sources;
    return check_family(f, c, o);
}

} // namespace

TEST_CASE("check_family passes every family as built", "[family-check]") {
    std::vector<std::unique_ptr<Family>> families;
    families.push_back(make_fat_tree(3, 3));
    families.push_back(make_xgft({2, 3, 2}, {1, 2, 3}));
    families.push_back(make_binary_tree(5, 2));
    families.push_back(make_mesh({3, 4, 2}));
    families.push_back(make_torus({5, 2, 3}, 2));
    families.push_back(make_hypercube(6));
    families.push_back(make_dragonfly(2, 4, 2, 5));
    families.push_back(make_butterfly(3, 3));
    families.push_back(make_slimfly(5, 1));
    families.push_back(make_complete(7, 1));
    families.push_back(make_ring(9));
    for (const auto& f : families) {
        INFO(f->spec());
        const FamilyCheck all = check(*f, 100000);
        CHECK(all.ok());
        CHECK(all.all_sources);
        CHECK(all.sources == f->num_machines());
        CHECK(all.pairs == f->num_machines() * f->num_machines());
        if (f->hop_rule() == HopRule::Shortest) CHECK(all.max_bfs_hops == f->diameter());
        const FamilyCheck sampled = check(*f, 3);
        CHECK(sampled.ok());
        CHECK(sampled.sources == 3);
        CHECK_FALSE(sampled.all_sources);
    }
}

TEST_CASE("check_family reports each kind of wrong formula", "[family-check]") {
    using Fault = Skewed::Fault;
    auto faulty = [](Fault fault) { return check(Skewed(make_torus({4, 3}, 1), fault), 1000); };
    CHECK(faulty(Fault::None).ok());

    const FamilyCheck links = faulty(Fault::Links);
    REQUIRE_FALSE(links.ok());
    CHECK_THAT(links.problems.at(0), Contains("links: formula 37, built 36"));

    const FamilyCheck degree = faulty(Fault::Degree);
    REQUIRE(degree.num_problems == 1);
    CHECK_THAT(degree.problems.at(0), Contains("degree of n3: formula 2, built 1"));

    const FamilyCheck hop = faulty(Fault::OneHop);
    REQUIRE(hop.num_problems == 1);
    CHECK_THAT(hop.problems.at(0), Contains("hops n1 -> n2: formula 4, BFS 3"));

    const FamilyCheck diameter = faulty(Fault::Diameter);
    REQUIRE(diameter.num_problems == 1);
    CHECK_THAT(diameter.problems.at(0), Contains("diameter: formula 6, BFS 5"));

    // Many problems are counted, a few described.
    const FamilyCheck many = faulty(Fault::RoutingBelowBfs);
    CHECK(many.num_problems > many.problems.size());
    CHECK(many.problems.size() == 5);
}

TEST_CASE("check_family holds minimal routing to at least BFS", "[family-check]") {
    // The dragonfly's minimal routing may exceed BFS but never go below it.
    const FamilyCheck ok = check(*make_dragonfly(1, 4, 2), 1000);
    CHECK(ok.ok());
    const FamilyCheck below =
        check(Skewed(make_dragonfly(1, 4, 2), Skewed::Fault::RoutingBelowBfs), 1000);
    REQUIRE_FALSE(below.ok());
    CHECK_THAT(below.problems.at(0), Contains("BFS"));
}
