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

bool general_index_pays(const Cluster& cluster, std::uint64_t questions) {
    const detail::FoldedCore core = detail::fold_network(cluster.network());
    const double build = static_cast<double>(core.num_core()) * search_work(core.core);
    return static_cast<double>(questions) * search_work(cluster.network()) >= build;
}

} // namespace

std::unique_ptr<DistanceIndex> index_for_batch(const Cluster& cluster, IndexUse use,
                                               std::optional<std::uint64_t> questions,
                                               const DistanceIndexOptions& options) {
    if (use == IndexUse::Never || cluster.num_machines() < 2) return nullptr;
    DistanceIndexOptions general = options;
    general.kind = DistanceIndexKind::Auto;
    auto closed = make_closed_form_index(
        cluster, [&cluster, general] { return make_general_index(cluster, general); });
    if (closed) return closed;
    if (use == IndexUse::Always || (questions && general_index_pays(cluster, *questions)))
        return make_general_index(cluster, general);
    return nullptr;
}

} // namespace nettopo
