// Plans and builds the general distance index (see general_index.hpp).
#include "query/index/general_index.hpp"

#include "nettopo/support/error.hpp"
#include "query/index/dense_table.hpp"
#include "query/index/pruned_labels.hpp"
#include "query/index/row_cache.hpp"
#include "query/index/terminal_table.hpp"

#include <cmath>
#include <fmt/format.h>

namespace nettopo::detail {

namespace {

using Kind = DistanceIndexKind;

[[noreturn]] void too_small(std::string_view what, std::string_view needs, std::size_t budget,
                            const FoldedCore& f) {
    throw UsageError(fmt::format("{} of this cluster ({}) needs {}; the memory budget is {} ({} "
                                 "bytes): raise it or choose another kind",
                                 what, describe_core(f.num_core(), f.folded, f.complex), needs,
                                 format_bytes(budget), budget));
}

std::string exactly(std::size_t bytes) {
    return fmt::format("{} ({} bytes)", format_bytes(bytes), bytes);
}

// The full table at its narrowest: 8-bit hops, latency from them.
std::size_t narrowest_dense_bytes(const FoldedCore& f) {
    return f.machine_bytes() + pairs_of(f.num_core());
}

// The plans after the dense table, in order; `forced` restricts them.
GeneralPlan plan_after_dense(const FoldedCore& f, Kind forced, std::size_t budget) {
    const auto all = static_cast<double>(f.num_core());
    if ((forced == Kind::Auto || forced == Kind::DenseTable || forced == Kind::TerminalTable) &&
        f.uniform_ps) {
        // Queries ask only for the terminals' rows and columns; its searches
        // go 256 sources at a time, four words a vertex: about one search's
        // work per 64 sources on the 10^6-machine fat-tree.
        const auto t = static_cast<std::uint32_t>(core_terminals(f).size());
        const std::size_t need = terminal_table_min_bytes(f, t);
        if (need <= budget) return {Kind::TerminalTable, need, std::ceil(t / 64.0), std::nullopt};
        if (forced == Kind::TerminalTable)
            too_small("a table of the terminals", exactly(need), budget, f);
    }
    if (forced == Kind::TerminalTable)
        throw UsageError("a table of the terminals needs a core whose links have one latency");
    if (forced == Kind::DenseTable)
        too_small("a dense table", exactly(dense_table_bytes(f, core_bounds(f.core))), budget, f);
    // Labels: at most the budget, at most one pruned search per core vertex.
    if (forced == Kind::Auto || forced == Kind::Labels) return {Kind::Labels, budget, all, {}};
    const std::size_t need = row_cache_min_bytes(f);
    if (need > budget) too_small("a row cache of one row", exactly(need), budget, f);
    return {Kind::RowCache, budget, 0, std::nullopt};
}

} // namespace

GeneralPlan plan_general_index(const FoldedCore& f, Kind forced, std::size_t budget) {
    if (forced == Kind::ClosedForm)
        throw UsageError("the general distance index does not build closed forms");
    if (forced == Kind::Search) throw UsageError("the general distance index does not search");
    if ((forced == Kind::Auto || forced == Kind::DenseTable) && narrowest_dense_bytes(f) <= budget)
        return {Kind::DenseTable, narrowest_dense_bytes(f), static_cast<double>(f.num_core()),
                std::nullopt};
    return plan_after_dense(f, forced, budget);
}

void settle_general_plan(const FoldedCore& f, Kind forced, std::size_t budget, GeneralPlan& plan) {
    if (plan.kind != Kind::DenseTable || plan.bounds) return;
    const CoreBounds bounds = core_bounds(f.core);
    const std::size_t need = dense_table_bytes(f, bounds);
    if (need <= budget) {
        plan.memory_bytes = need;
        plan.bounds = bounds;
        return;
    }
    if (forced == Kind::DenseTable && !f.uniform_ps)
        too_small("a dense table", exactly(need), budget, f);
    plan = plan_after_dense(f, forced, budget);
}

std::unique_ptr<DistanceIndex> build_general_index(FoldedCore f, const GeneralPlan& plan,
                                                   const DistancePolicy& policy) {
    // Whatever happens, erase what the fill or the labels drew.
    struct Finish {
        Progress* progress;
        ~Finish() {
            if (progress) progress->finish();
        }
    } finish{policy.progress};
    const std::size_t budget = policy.memory_budget_bytes;
    const Kind forced = policy.kind;
    switch (plan.kind) {
    case Kind::DenseTable:
        if (!plan.bounds) throw UsageError("internal: a dense table planned without its bounds");
        return make_dense_table(std::move(f), *plan.bounds, policy.threads, policy.progress);
    case Kind::TerminalTable:
        if (auto table = make_terminal_table(f, budget, policy.threads, policy.progress))
            return table;
        // More distinct hop counts than 8-bit codes hold.
        if (forced == Kind::DenseTable || forced == Kind::TerminalTable)
            throw UsageError("a table of the terminals cannot code this core's hop counts (more "
                             "than 255 distinct)");
        [[fallthrough]];
    case Kind::Labels:
        if (forced == Kind::Auto || forced == Kind::Labels) {
            LabelsOutcome labels = make_labels(f, budget, policy.progress);
            if (labels.index) return std::move(labels.index);
            if (forced == Kind::Labels)
                too_small("pruned landmark labels",
                          fmt::format("more than {} (stopped after {} of {} roots)",
                                      exactly(labels.bytes), labels.roots_done, f.num_core()),
                          budget, f);
        }
        [[fallthrough]];
    default:
        break;
    }
    const std::size_t need = row_cache_min_bytes(f);
    if (need > budget) too_small("a row cache of one row", exactly(need), budget, f);
    return make_row_cache(std::move(f), budget);
}

std::unique_ptr<DistanceIndex> make_general_index(const Cluster& cluster,
                                                  const DistancePolicy& policy) {
    FoldedCore f = fold_network(cluster.network());
    GeneralPlan plan = plan_general_index(f, policy.kind, policy.memory_budget_bytes);
    settle_general_plan(f, policy.kind, policy.memory_budget_bytes, plan);
    return build_general_index(std::move(f), plan, policy);
}

} // namespace nettopo::detail
