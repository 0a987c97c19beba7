// Picks the distance index: the family's closed form when the cluster still
// is the family it was generated as, else the general index sized to the
// budget. The closed form asks the general index only for what it cannot
// answer itself (latencies of families whose fastest path is not their
// shortest one).
#include "nettopo/query/distance_index.hpp"

#include "nettopo/support/error.hpp"
#include "query/closed_form_index.hpp"
#include "query/general_index.hpp"
#include "query/searched_distances.hpp"

#include <fmt/format.h>

namespace nettopo {

std::unique_ptr<DistanceIndex> closed_form_index(const Cluster& cluster,
                                                 const DistanceIndexOptions& options) {
    DistanceIndexOptions general = options;
    general.kind = DistanceIndexKind::Auto;
    return make_closed_form_index(
        cluster, [&cluster, general] { return make_general_index(cluster, general); });
}

std::unique_ptr<DistanceIndex> build_distance_index(const Cluster& cluster,
                                                    const DistanceIndexOptions& options) {
    if (options.kind == DistanceIndexKind::Search) return detail::make_searched_distances(cluster);
    const bool closed = options.kind == DistanceIndexKind::ClosedForm;
    if (options.kind == DistanceIndexKind::Auto || closed) {
        if (auto index = closed_form_index(cluster, options)) return index;
        if (closed)
            throw UsageError(
                cluster.family().empty()
                    ? fmt::format("'{}' has no closed form: it was not generated from a family",
                                  cluster.name())
                    : fmt::format("'{}' has no closed form: its network (its links, or which "
                                  "machines forward) is no longer the '{}' it was generated as",
                                  cluster.name(), cluster.family()));
    }
    return make_general_index(cluster, options);
}

} // namespace nettopo
