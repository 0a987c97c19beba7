// The measurements of nettopo-bench, one function per operation of the
// thesis' experiments (init, save, load, fill, proximity, distance II,
// hops II) plus single random queries. Each returns Measurements (median and
// extremes come from bench::summarize) and, when asked, checks the fast path
// it timed against its slow twin on the same items.
#pragma once

#include "nettopo-bench/bench.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_plan.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nettopo::bench {

struct RunOptions {
    std::uint32_t repetitions = 10;
    std::uint64_t seed = 1;
    std::uint32_t queries = 100000; // random pairs per repetition of the per-call runs
    std::uint32_t sources = 64;     // origins of the distance II / hops II sets
    unsigned threads = 0;           // for fill; 0: all cores
    std::size_t memory_budget_bytes = DistancePolicy{}.memory_budget_bytes;
    bool verify = false; // check every timed answer against the slow twin
};

// A benchmark input: a cluster, its name, and the family it was generated
// from when it was (init re-generates it).
struct Input {
    std::string name;
    std::shared_ptr<const Cluster> cluster;
    std::shared_ptr<const Family> family; // null for a loaded archive
    bool preset = false;                  // one-PU machines and unit links, as the thesis
};
// Each input's machine types get `latencies` over their tables (--latency TYPE=NS).
Input preset_input(const std::string& preset, const LevelLatencyOverrides& latencies = {});
// A nettopo-gen family text.
Input family_input(const std::string& spec, const LevelLatencyOverrides& latencies = {});
// A user's file; hwloc parses in a child process (ChildProcessSandbox).
Input file_input(const std::string& path, bool allow_disconnected = false,
                 const LevelLatencyOverrides& latencies = {});

std::vector<Measurement> run_init(const Input& in, const RunOptions& o);
std::vector<Measurement> run_save(const Input& in, const RunOptions& o);
std::vector<Measurement> run_load(const Input& in, const RunOptions& o);
std::vector<Measurement> run_fill(const Input& in, const RunOptions& o);
std::vector<Measurement> run_proximity(const Input& in, const RunOptions& o);
std::vector<Measurement> run_distance(const Input& in, const RunOptions& o);
std::vector<Measurement> run_hops(const Input& in, const RunOptions& o);
// Boost.Graph's Dijkstra and BFS on the same graph against the index; empty
// with a note when nettopo was built without Boost.Graph.
std::vector<Measurement> run_peer(const Input& in, const RunOptions& o);
bool peer_available();

} // namespace nettopo::bench
