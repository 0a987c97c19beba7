// One loaded topology as the Python module holds it: the cluster, the
// search engine of one-off queries (as nettopo-query answers them) and, built
// on first use, the distance index that answers pair queries in bulk.
#pragma once

#include "nettopo/formats/description.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/error.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace nettopo::python {

// A PE or node id past the end (or negative): Python's IndexError.
class IdError : public UsageError {
public:
    using UsageError::UsageError;
};

// Ids from users, checked with the library's messages; throw IdError.
PeId checked_pe(const Cluster& cluster, std::int64_t index);
PeId checked_pe(const Cluster& cluster, std::uint64_t index);
NodeId checked_node(const Cluster& cluster, std::int64_t index);

// The k of a nearest query, no more than the `pes` there are to return (as
// nettopo-query asks); UsageError for a negative k.
std::uint32_t capped_k(std::int64_t k, std::uint32_t pes);

class Topology {
public:
    // load_cluster: an archive, a description or an hwloc XML export.
    // Throws InputError naming the file.
    Topology(const std::string& path, const LoadOptions& options);
    Topology(const Topology&) = delete; // the engine points into the cluster
    Topology& operator=(const Topology&) = delete;

    const Cluster& cluster() const { return cluster_; }
    const std::string& source() const { return source_; }

    // QueryEngine's default policy (a closed form at once, else searches
    // until an index pays). Not thread-safe: the module calls it with the GIL
    // held.
    QueryEngine& engine() { return engine_; }

    // Built on the first call (all cores, the library's default memory
    // budget), then shared; thread-safe.
    const DistanceIndex& index();

private:
    std::string source_;
    Cluster cluster_;
    QueryEngine engine_;
    std::mutex index_mutex_;
    std::unique_ptr<const DistanceIndex> index_;
};

} // namespace nettopo::python
