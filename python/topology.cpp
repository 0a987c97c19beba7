#include "topology.hpp"

#include "nettopo/formats/load.hpp"

#include <algorithm>
#include <utility>

namespace nettopo::python {

namespace {
// The library's message for an id past the end, or one for a negative id
// (which the library's unsigned ids cannot hold).
template <class Index, class Require> auto checked(Index index, const char* what, Require require) {
    if (std::cmp_less(index, 0))
        throw IdError(std::string(what) + " " + std::to_string(index) +
                      " does not exist: ids start at 0");
    try {
        return require(static_cast<std::uint64_t>(index));
    } catch (const UsageError& e) {
        throw IdError(e.what());
    }
}
} // namespace

PeId checked_pe(const Cluster& cluster, std::int64_t index) {
    return checked(index, "PE", [&](std::uint64_t i) { return cluster.require_pe(i); });
}

PeId checked_pe(const Cluster& cluster, std::uint64_t index) {
    return checked(index, "PE", [&](std::uint64_t i) { return cluster.require_pe(i); });
}

NodeId checked_node(const Cluster& cluster, std::int64_t index) {
    return checked(index, "node", [&](std::uint64_t i) { return cluster.require_node(i); });
}

std::uint32_t capped_k(std::int64_t k, std::uint32_t pes) {
    if (k < 0) throw UsageError("k must not be negative, got " + std::to_string(k));
    return static_cast<std::uint32_t>(std::min<std::int64_t>(k, pes));
}

Topology::Topology(const std::string& path, const LoadOptions& options)
    : source_(path), cluster_(load_cluster(path, options)), engine_(cluster_) {}

const DistanceIndex& Topology::index() {
    const std::lock_guard lock(index_mutex_);
    if (!index_) index_ = build_distance_index(cluster_);
    return *index_;
}

} // namespace nettopo::python
