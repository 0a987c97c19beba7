// The one front door to distances (distance_plan.hpp): the plan and its
// build. The closed form is built while planning (its check is its build);
// the general index's plan keeps the folded network it looked at, so the
// build does not fold it again.
#include "nettopo/query/distance_plan.hpp"

#include "nettopo/support/error.hpp"
#include "query/index/closed_form_index.hpp"
#include "query/index/folded_core.hpp"
#include "query/index/general_index.hpp"
#include "query/search/slow_twin.hpp"

#include <fmt/format.h>

namespace nettopo {

namespace detail {

struct PlanState {
    std::unique_ptr<DistanceIndex> built; // a closed form, built by its check
    std::optional<FoldedCore> folded;     // the general index's, when planned
    GeneralPlan general;
    DistancePolicy policy;
};

} // namespace detail

using Kind = DistanceIndexKind;

const char* kind_name(Kind kind) {
    switch (kind) {
    case Kind::Auto:
        return "auto";
    case Kind::ClosedForm:
        return "closed form";
    case Kind::DenseTable:
        return "dense table";
    case Kind::Labels:
        return "pruned landmark labels";
    case Kind::RowCache:
        return "row cache";
    case Kind::Search:
        return "search";
    case Kind::TerminalTable:
        return "terminal table";
    }
    return "unknown";
}

DistancePlan::DistancePlan() = default;
DistancePlan::DistancePlan(DistancePlan&&) noexcept = default;
DistancePlan& DistancePlan::operator=(DistancePlan&&) noexcept = default;
DistancePlan::~DistancePlan() = default;

namespace {

// Work of one search over a graph, in visited vertices and links.
double search_work(const Network& net) {
    return static_cast<double>(net.num_vertices()) + 2.0 * static_cast<double>(net.num_links());
}

[[noreturn]] void no_closed_form(const Cluster& cluster) {
    throw UsageError(
        cluster.family().empty()
            ? fmt::format("'{}' has no closed form: it was not generated from a family",
                          cluster.name())
            : fmt::format("'{}' has no closed form: its network (its links, or which "
                          "machines forward) is no longer the '{}' it was generated as",
                          cluster.name(), cluster.family()));
}

} // namespace

DistancePlan plan_distances(const Cluster& cluster, const DistancePolicy& policy) {
    DistancePlan plan;
    plan.state_ = std::make_unique<detail::PlanState>();
    detail::PlanState& state = *plan.state_;
    state.policy = policy;
    state.policy.kept = nullptr; // the plan holds it once, below
    const Kind forced = policy.kind;
    const auto search = [&](std::string reason) -> DistancePlan {
        plan.kind_ = Kind::Search;
        plan.reason_ = std::move(reason);
        return std::move(plan);
    };

    if (forced == Kind::Search) return search("a search per question, as asked");
    if (policy.kept && policy.use != IndexUse::Never &&
        (forced == Kind::Auto || forced == policy.kept->kind())) {
        plan.kind_ = policy.kept->kind();
        plan.memory_bytes_ = policy.kept->memory_bytes();
        plan.reason_ = "kept with the cluster: " + policy.kept->description();
        state.policy.kept = policy.kept;
        return plan;
    }
    if (forced == Kind::Auto && policy.use == IndexUse::Never)
        return search("a search per question, as asked");

    if (forced == Kind::Auto || forced == Kind::ClosedForm) {
        DistancePolicy general = policy;
        general.kind = Kind::Auto;
        state.built = make_closed_form_index(
            cluster, [&cluster, general] { return detail::make_general_index(cluster, general); });
        if (state.built) {
            plan.kind_ = Kind::ClosedForm;
            plan.memory_bytes_ = state.built->memory_bytes();
            plan.reason_ = state.built->description();
            return plan;
        }
        if (forced == Kind::ClosedForm) no_closed_form(cluster);
    }
    if (forced == Kind::Auto && policy.use == IndexUse::Auto && !policy.questions)
        return search("the number of questions is not known: a search per question");

    state.folded = detail::fold_network(cluster.network());
    const detail::FoldedCore& f = *state.folded;
    state.general = detail::plan_general_index(f, forced, policy.memory_budget_bytes);
    const double per_search = search_work(cluster.network());
    const auto build_searches = [&] {
        return state.general.core_searches * search_work(f.core) / per_search;
    };
    if (forced == Kind::Auto && policy.use == IndexUse::Auto &&
        static_cast<double>(*policy.questions) < build_searches()) {
        state.folded.reset();
        return search(fmt::format("{} questions cost less than building the index (about {:.0f} "
                                  "searches)",
                                  *policy.questions, build_searches()));
    }
    detail::settle_general_plan(f, forced, policy.memory_budget_bytes, state.general);
    plan.kind_ = state.general.kind;
    plan.memory_bytes_ = state.general.memory_bytes;
    plan.build_searches_ = build_searches();
    plan.reason_ = fmt::format("{} of the folded core ({})", kind_name(plan.kind_),
                               detail::describe_core(f.num_core(), f.folded, f.complex));
    return plan;
}

namespace detail {

std::unique_ptr<DistanceIndex> carry_out(const Cluster& cluster, PlanState& state, Kind kind) {
    if (state.built) return std::move(state.built);
    if (kind == Kind::Search) return make_searched_distances(cluster);
    if (!state.folded) throw UsageError("internal: a distance plan without its folded network");
    auto index = build_general_index(std::move(*state.folded), state.general, state.policy);
    state.folded.reset();
    return index;
}

} // namespace detail

std::shared_ptr<const DistanceIndex> build_distances(const Cluster& cluster, DistancePlan plan) {
    if (!plan.state_) throw UsageError("this distance plan was already carried out");
    if (plan.state_->policy.kept) return plan.state_->policy.kept;
    return detail::carry_out(cluster, *plan.state_, plan.kind_);
}

std::unique_ptr<DistanceIndex> build_distance_index(const Cluster& cluster, DistancePolicy policy) {
    policy.use = IndexUse::Always;
    policy.kept = nullptr;
    DistancePlan plan = plan_distances(cluster, policy);
    return detail::carry_out(cluster, *plan.state_, plan.kind());
}

} // namespace nettopo
