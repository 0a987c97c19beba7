// Chooses and builds the general distance index (see general_index.hpp).
#include "query/general_index.hpp"

#include "nettopo/support/error.hpp"
#include "query/dense_table.hpp"
#include "query/folded_core.hpp"
#include "query/pruned_labels.hpp"
#include "query/row_cache.hpp"
#include "query/terminal_table.hpp"

#include <cmath>
#include <fmt/format.h>
#include <optional>

namespace nettopo {

using namespace detail;

namespace {

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

std::unique_ptr<DistanceIndex> choose_and_build(FoldedCore f, const DistanceIndexOptions& options) {
    const DistanceIndexKind kind = options.kind;
    if (kind == DistanceIndexKind::ClosedForm)
        throw UsageError("the general distance index does not build closed forms");
    if (kind == DistanceIndexKind::Search)
        throw UsageError("the general distance index does not search");
    const std::size_t budget = options.memory_budget_bytes;

    if (kind == DistanceIndexKind::Auto || kind == DistanceIndexKind::DenseTable) {
        // The core's bounds (a search and a Dijkstra of the core) only when
        // the narrowest full table (8-bit hops, one latency) could fit.
        const std::uint64_t n = f.num_core();
        std::optional<std::size_t> need;
        if (f.machine_bytes() + n * (n - (n > 0)) / 2 <= budget) {
            const CoreBounds bounds = core_bounds(f.core);
            need = dense_table_bytes(f, bounds);
            if (*need <= budget)
                return make_dense_table(std::move(f), bounds, options.threads, options.progress);
        }
        // Queries ask only for the terminals' rows and columns.
        if (auto table = make_terminal_table(f, budget, options.threads, options.progress))
            return table;
        if (kind == DistanceIndexKind::DenseTable)
            too_small("a dense table",
                      exactly(need ? *need : dense_table_bytes(f, core_bounds(f.core))), budget, f);
    }
    if (kind == DistanceIndexKind::Auto || kind == DistanceIndexKind::Labels) {
        LabelsOutcome labels = make_labels(f, budget, options.progress);
        if (labels.index) return std::move(labels.index);
        if (kind == DistanceIndexKind::Labels)
            too_small("pruned landmark labels",
                      fmt::format("more than {} (stopped after {} of {} roots)",
                                  exactly(labels.bytes), labels.roots_done, f.num_core()),
                      budget, f);
    }
    const std::size_t need = row_cache_min_bytes(f);
    if (need > budget) too_small("a row cache of one row", exactly(need), budget, f);
    return make_row_cache(std::move(f), budget);
}

} // namespace

std::unique_ptr<DistanceIndex> make_general_index(FoldedCore folded,
                                                  const DistanceIndexOptions& options) {
    // Whatever happens, erase what the fill or the labels drew.
    struct Finish {
        Progress* progress;
        ~Finish() {
            if (progress) progress->finish();
        }
    } finish{options.progress};
    return choose_and_build(std::move(folded), options);
}

double general_index_build_searches(const FoldedCore& f, std::size_t budget) {
    const auto all = static_cast<double>(f.num_core());
    if (!f.uniform_ps) return all;
    // The full table at its narrowest: 8-bit hops, latency from them.
    const std::uint64_t n = f.num_core();
    if (f.machine_bytes() + n * (n - (n > 0)) / 2 <= budget) return all;
    const auto t = static_cast<std::uint32_t>(core_terminals(f).size());
    if (terminal_table_min_bytes(f, t) > budget) return all;
    return std::ceil(t / 64.0);
}

std::unique_ptr<DistanceIndex> make_general_index(const Cluster& cluster,
                                                  const DistanceIndexOptions& options) {
    return make_general_index(fold_network(cluster.network()), options);
}

} // namespace nettopo
