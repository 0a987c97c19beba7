// The tools' rule for building a distance index or searching (index_choice.hpp).
#include "nettopo/query/index_choice.hpp"

#include "nettopo/support/error.hpp"
#include "query/closed_form_index.hpp"
#include "query/folded_core.hpp"
#include "query/general_index.hpp"

namespace nettopo {

IndexUse parse_index_use(std::string_view text) {
    if (text == "auto") return IndexUse::Auto;
    if (text == "always") return IndexUse::Always;
    if (text == "never") return IndexUse::Never;
    throw ValueError(std::string(text), "expected auto, always or never");
}

namespace {

// Work of one search over a graph, in visited vertices and links.
double search_work(const Network& net) {
    return static_cast<double>(net.num_vertices()) + 2.0 * static_cast<double>(net.num_links());
}

} // namespace

std::unique_ptr<DistanceIndex> index_for_batch(const Cluster& cluster, IndexUse use,
                                               std::optional<std::uint64_t> questions,
                                               const DistanceIndexOptions& options) {
    if (use == IndexUse::Never || cluster.num_machines() < 2) return nullptr;
    if (auto closed = closed_form_index(cluster, options)) return closed;
    if (use == IndexUse::Auto && !questions) return nullptr;
    // Folded once: the rule looks at the core, the index is built over it.
    detail::FoldedCore core = detail::fold_network(cluster.network());
    const double build =
        general_index_build_searches(core, options.memory_budget_bytes) * search_work(core.core);
    if (use == IndexUse::Auto &&
        static_cast<double>(*questions) * search_work(cluster.network()) < build)
        return nullptr;
    DistanceIndexOptions general = options;
    general.kind = DistanceIndexKind::Auto;
    return make_general_index(std::move(core), general);
}

BatchIndex choose_batch_index(const Cluster& cluster, IndexUse use,
                              std::optional<std::uint64_t> questions, const DistanceIndex* kept,
                              const DistanceIndexOptions& options) {
    if (kept && use != IndexUse::Never) return {nullptr, kept};
    BatchIndex batch{index_for_batch(cluster, use, questions, options), nullptr};
    batch.index = batch.owned.get();
    return batch;
}

} // namespace nettopo
