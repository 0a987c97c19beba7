/// \file
/// What a loaded cluster holds in memory: the bytes of its arrays (links,
/// adjacency, names and their index, runs, machine types), the yardstick
/// for the memory a load may take beside it (share/doc/benchmarks.md,
/// "Loading an archive: bound by parsing").
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>

namespace nettopo {

/// The bytes the cluster's arrays hold: their sizes, not the capacity an
/// allocator gave them, so the figure is the model's, whoever built it. A
/// network mapped from an image counts as its arrays too. Machine types count
/// their tree objects (their other tables are a few kilobytes).
/// \cost O(types). Throws nothing. \threads Safe on a shared const cluster.
std::uint64_t model_bytes(const Cluster& cluster);

} // namespace nettopo
