// The registry of families: the one place a family's name, description,
// parameters and factory are written down (family_registry.hpp).
#include "nettopo/families/detail/family_registry.hpp"

#include "nettopo/support/error.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace nettopo {
namespace {

using enum ParamKind;
using enum ParamUse;

// The parameters of a direct network: what sizes it, then its concentration.
constexpr std::array<FamilyParam, 2> with_concentration(FamilyParam size) {
    return {size,
            {"--concentration", Count, Default,
             "Machines per router; 0: the routers are the machines", 0}};
}

// Each family: its examples, its parameters, then its entry in `registry`.
constexpr std::array<std::string_view, 2> fat_tree_examples{"fat-tree --k 4 --n 3",
                                                            "fat-tree --xgft \"2;16,8;1,8\""};
constexpr std::array<FamilyParam, 3> fat_tree_params{{
    {"--k", Count, Required, "Arity: children and parents per switch", 0, 1},
    {"--n", Count, Required, "Levels of switches", 0, 1},
    {"--xgft", Xgft, Required, "XGFT(h; m1..mh; w1..wh) as \"h;m1,..,mh;w1,..,wh\"", 0, 2},
}};
std::unique_ptr<Family> fat_tree(const FamilyValues& v) {
    if (!v.given("--xgft")) return make_fat_tree(v.count("--k"), v.count("--n"));
    XgftParams x = v.xgft("--xgft");
    return make_xgft(std::move(x.m), std::move(x.w));
}

constexpr std::array<std::string_view, 1> tree_examples{"tree --levels 7"};
constexpr auto tree_params =
    with_concentration({"--levels", Count, Required, "Levels (2^L - 1 vertices)"});
std::unique_ptr<Family> tree(const FamilyValues& v) {
    return make_binary_tree(v.count("--levels"), v.count("--concentration"));
}

constexpr std::array<std::string_view, 1> mesh_examples{"mesh --dims 16x16"};
constexpr auto mesh_params =
    with_concentration({"--dims", Dims, Required, "Sizes, e.g. 16x16 or 4x4x4x4x2"});
std::unique_ptr<Family> mesh(const FamilyValues& v) {
    return make_mesh(v.dims("--dims"), v.count("--concentration"));
}

constexpr std::array<std::string_view, 1> torus_examples{"torus --dims 8x8x8"};
constexpr auto torus_params =
    with_concentration({"--dims", Dims, Required, "Sizes, e.g. 8x8x8 or 4x4x4x4x2"});
std::unique_ptr<Family> torus(const FamilyValues& v) {
    return make_torus(v.dims("--dims"), v.count("--concentration"));
}

constexpr std::array<std::string_view, 1> hypercube_examples{"hypercube --dim 10"};
constexpr auto hypercube_params = with_concentration({"--dim", Count, Required, "Dimension"});
std::unique_ptr<Family> hypercube(const FamilyValues& v) {
    return make_hypercube(v.count("--dim"), v.count("--concentration"));
}

constexpr std::array<std::string_view, 1> dragonfly_examples{"dragonfly --p 4 --a 8 --h 4"};
constexpr std::array<FamilyParam, 4> dragonfly_params{{
    {"--p", Count, Required, "Machines per router"},
    {"--a", Count, Derived, "Routers per group (default 2p)"},
    {"--h", Count, Derived, "Global links per router (default p)"},
    {"--g", Count, Derived, "Groups, more than h (default a*h+1)"},
}};
std::unique_ptr<Family> dragonfly(const FamilyValues& v) {
    return make_dragonfly(v.count("--p"), v.count("--a"), v.count("--h"), v.count("--g"));
}

constexpr std::array<std::string_view, 1> butterfly_examples{"butterfly --k 4 --n 3"};
constexpr std::array<FamilyParam, 2> butterfly_params{{
    {"--k", Count, Required, "Arity of the switches"},
    {"--n", Count, Required, "Stages"},
}};
std::unique_ptr<Family> butterfly(const FamilyValues& v) {
    return make_butterfly(v.count("--k"), v.count("--n"));
}

constexpr std::array<std::string_view, 1> slimfly_examples{"slimfly --q 5"};
constexpr std::array<FamilyParam, 2> slimfly_params{{
    {"--q", Count, Required, "Prime power q"},
    {"--p", Count, Derived,
     "Machines per router (default ceil(k'/2), k' = (3q-delta)/2 the router-to-router degree, "
     "q = 4w+delta)"},
}};
std::unique_ptr<Family> slimfly(const FamilyValues& v) {
    return make_slimfly(v.count("--q"), v.count("--p"));
}

constexpr std::array<std::string_view, 1> complete_examples{"complete --machines 8"};
// complete and ring: N vertices.
constexpr auto vertices_params = with_concentration(
    {"--machines", Count, Required,
     "Vertices: machines, or with --concentration C switches of C machines each"});
std::unique_ptr<Family> complete(const FamilyValues& v) {
    return make_complete(v.count("--machines"), v.count("--concentration"));
}

constexpr std::array<std::string_view, 1> ring_examples{"ring --machines 16"};
std::unique_ptr<Family> ring(const FamilyValues& v) {
    return make_ring(v.count("--machines"), v.count("--concentration"));
}

// rail-optimized: the DGX SuperPOD reference architectures' scalable units
// (32 hosts, 8 rails; spines half the leaves, as their tables count them).
constexpr std::array<std::string_view, 2> rail_optimized_examples{
    "rail-optimized --units 4", "rail-optimized --units 2 --hosts-per-unit 4 --rails 2"};
constexpr std::array<FamilyParam, 4> rail_optimized_params{{
    {"--units", Count, Required, "Scalable units"},
    {"--hosts-per-unit", Count, Default, "Hosts of a unit (default 32)", 32},
    {"--rails", Count, Default, "Adapters of a host, one leaf each per unit (default 8)", 8},
    {"--spines", Count, Derived, "Spines, each cabled to every leaf (default half the leaves)"},
}};
std::unique_ptr<Family> rail_optimized(const FamilyValues& v) {
    const std::uint32_t units = v.count("--units"), rails = v.count("--rails");
    const std::uint64_t half_the_leaves =
        std::max<std::uint64_t>(1, std::uint64_t{units} * rails / 2);
    if (!v.given("--spines") && half_the_leaves > std::numeric_limits<std::uint32_t>::max())
        throw UsageError(fmt::format("rail-optimized: {} units x {} rails: more leaves than "
                                     "nettopo's 32-bit ids",
                                     units, rails));
    const std::uint32_t spines =
        v.given("--spines") ? v.count("--spines") : static_cast<std::uint32_t>(half_the_leaves);
    return make_rail_optimized(units, v.count("--hosts-per-unit"), rails, spines);
}

constexpr std::array<FamilyEntry, 11> registry{{
    {"fat-tree", "k-ary n-tree (k^n machines, n levels of k^(n-1) switches) or XGFT.",
     fat_tree_examples, fat_tree_params, fat_tree},
    {"tree",
     "Complete binary tree (the original Net Topo's \"fat-tree\"), of machines or, with "
     "--concentration, of switches.",
     tree_examples, tree_params, tree},
    {"mesh", "Mesh of any number of dimensions.", mesh_examples, mesh_params, mesh},
    {"torus", "Torus of any number of dimensions.", torus_examples, torus_params, torus},
    {"hypercube", "Hypercube of dimension d (2^d vertices).", hypercube_examples, hypercube_params,
     hypercube},
    {"dragonfly",
     "Dragonfly (Kim et al. 2008): p machines per router, a routers per group, h global links "
     "per router, g groups (h < g <= a*h+1).",
     dragonfly_examples, dragonfly_params, dragonfly},
    {"butterfly", "k-ary n-fly: k^n machines, n stages of k^(n-1) switches.", butterfly_examples,
     butterfly_params, butterfly},
    {"slimfly", "Slim Fly on MMS graphs (q a prime power, 2q^2 routers, diameter 2).",
     slimfly_examples, slimfly_params, slimfly},
    {"complete", "Complete graph: every pair of vertices linked.", complete_examples,
     vertices_params, complete},
    {"ring", "Ring.", ring_examples, vertices_params, ring},
    {"rail-optimized",
     "Rail-optimized GPU fabric (DGX SuperPOD): units of hosts whose adapter r is cabled to the "
     "unit's rail-r leaf, every leaf to every spine.",
     rail_optimized_examples, rail_optimized_params, rail_optimized},
}};

static_assert(
    std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(Count), ParamValue>,
                   std::uint32_t> &&
        std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(Dims), ParamValue>,
                       std::vector<std::uint32_t>> &&
        std::is_same_v<std::variant_alternative_t<static_cast<std::size_t>(Xgft), ParamValue>,
                       XgftParams>,
    "ParamValue follows ParamKind's order");

constexpr std::string_view kind_name(ParamKind kind) {
    switch (kind) {
    case Count:
        return "a count";
    case Dims:
        return "sizes";
    case Xgft:
        return "an XGFT";
    }
    return "?";
}

} // namespace

const FamilyParam* FamilyEntry::param(std::string_view param_name) const {
    const auto it = std::find_if(params.begin(), params.end(),
                                 [&](const FamilyParam& p) { return p.name == param_name; });
    return it == params.end() ? nullptr : &*it;
}

std::uint8_t FamilyEntry::forms() const {
    std::uint8_t n = 0;
    for (const FamilyParam& p : params) n = std::max(n, p.alternative);
    return n;
}

std::string FamilyEntry::form_params(std::uint8_t form) const {
    std::string names;
    for (const FamilyParam& p : params)
        if (p.alternative == form) names += (names.empty() ? "" : " and ") + std::string(p.name);
    return names;
}

std::span<const FamilyEntry> family_registry() {
    return registry;
}

const FamilyEntry* find_family(std::string_view name) {
    const auto it = std::find_if(registry.begin(), registry.end(),
                                 [&](const FamilyEntry& f) { return f.name == name; });
    return it == registry.end() ? nullptr : &*it;
}

std::string family_names() {
    std::string names;
    for (const FamilyEntry& f : registry)
        names += (names.empty() ? "" : ", ") + std::string(f.name);
    return names;
}

FamilyValues::FamilyValues(const FamilyEntry& family)
    : family_(&family), values_(family.params.size()) {}

std::size_t FamilyValues::index(std::string_view name) const {
    const FamilyParam* p = family_->param(name);
    if (!p)
        throw std::invalid_argument(
            fmt::format("family {} has no parameter {}", family_->name, name));
    return static_cast<std::size_t>(p - family_->params.data());
}

void FamilyValues::set(std::string_view name, ParamValue value) {
    const std::size_t i = index(name);
    const ParamKind kind = family_->params[i].kind;
    if (value.index() != static_cast<std::size_t>(kind))
        throw std::invalid_argument(fmt::format("family {}: {} takes {}, not {}", family_->name,
                                                name, kind_name(kind),
                                                kind_name(static_cast<ParamKind>(value.index()))));
    values_[i] = std::move(value);
}

bool FamilyValues::given(std::string_view name) const {
    return values_[index(name)].has_value();
}

const ParamValue& FamilyValues::value(std::string_view name, ParamKind kind) const {
    const std::size_t i = index(name);
    const FamilyParam& p = family_->params[i];
    if (p.kind != kind)
        throw std::invalid_argument(fmt::format("family {}: {} takes {}, not {}", family_->name,
                                                name, kind_name(p.kind), kind_name(kind)));
    if (!values_[i]) throw UsageError(fmt::format("{}: {} is missing", family_->name, name));
    return *values_[i];
}

std::uint32_t FamilyValues::count(std::string_view name) const {
    const std::size_t i = index(name);
    const FamilyParam& p = family_->params[i];
    if (!values_[i] && p.kind == Count && p.use != Required) return p.fallback;
    return std::get<std::uint32_t>(value(name, Count));
}

const std::vector<std::uint32_t>& FamilyValues::dims(std::string_view name) const {
    return std::get<std::vector<std::uint32_t>>(value(name, Dims));
}

const XgftParams& FamilyValues::xgft(std::string_view name) const {
    return std::get<XgftParams>(value(name, Xgft));
}

} // namespace nettopo
