// What the benchmark runs share: how a measurement starts, random pairs
// drawn with the run's seed, and the check of an index against searches.
#pragma once

#include "nettopo-bench/bench_runs.hpp"

#include <random>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace nettopo::bench {

Measurement start(const Input& in, std::string operation, std::uint64_t items, std::string note);
DistancePolicy index_options(const RunOptions& o);
unsigned thread_count(const RunOptions& o);

// `count` pairs of distinct machines (of any two PEs when `pes`), drawn with o.seed.
std::vector<std::pair<std::uint32_t, std::uint32_t>>
random_pairs(std::uint32_t population, std::uint32_t count, std::uint64_t seed);

// How many full searches a run affords on a graph of `vertices`: about
// `visits` vertex visits in all, at least `least` (unless `most` is less), at
// most `most`.
std::uint64_t affordable_searches(std::uint64_t vertices, std::uint64_t visits, std::uint64_t least,
                                  std::uint64_t most);

// `count` distinct values of 0..population-1 (count <= population), drawn with `seed`.
std::vector<std::uint32_t> distinct_sample(std::uint32_t population, std::uint32_t count,
                                           std::uint64_t seed);

// Sources for a check against full searches: every machine of a small
// cluster, a seeded sample of a large one (a full search each).
std::vector<MachineId> verify_sources(const Cluster& c, const RunOptions& o);

// Compares the index with NetworkSearch (BFS hops, Dijkstra picoseconds)
// from every source to every machine; throws VerifyError on the first
// difference, naming the input, the operation and the pair.
void verify_index(const Input& in, const DistanceIndex& index, std::span<const MachineId> sources,
                  std::string_view operation);

} // namespace nettopo::bench
