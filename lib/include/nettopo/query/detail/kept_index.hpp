// A distance index kept in a file, so that a later program answers at index
// speed without building it again: the closed form (the family check's
// result, its learned class latencies), the dense table and the pruned
// labels are kept; a row cache is not (it fills itself on demand).
//
// The records (support/detail/array_file.hpp) start with the checksum of the
// network the index was built for (network_checksum): an index is read back
// only for a network with that checksum. Reading checks every offset, count
// and vertex id the index will use, so a damaged or crafted file is an
// InputError, never a read out of range.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_index.hpp"
#include "nettopo/support/detail/array_file.hpp"

#include <cstdint>
#include <memory>
#include <optional>

namespace nettopo {

// The tag of a kept index's first record (the network's checksum).
inline constexpr std::uint32_t kept_index_tag = array_tag("INET");

// Whether an index of this kind can be kept.
bool keeps(const DistanceIndex& index);
// UsageError, saying why, when it cannot.
void require_keepable(const DistanceIndex& index);

// Writes `index`, built for `cluster`; UsageError when its kind is not kept.
void write_kept_index(const DistanceIndex& index, const Cluster& cluster, ArrayWriter& out);

// The checksum of the network a kept index (the next records of `in`) was
// built for, read without reading the index.
std::uint64_t kept_index_network(ArrayReader& in);

// Reads the index that follows kept_index_network's record, for `cluster`,
// whose network's checksum the caller gives (network_checksum(), or one an
// image vouches for). InputError naming the file when the index was built
// for another network, or is damaged.
std::unique_ptr<DistanceIndex> read_kept_index(const Cluster& cluster,
                                               std::uint64_t cluster_network_checksum,
                                               std::uint64_t kept_network_checksum,
                                               ArrayReader& in);

} // namespace nettopo
