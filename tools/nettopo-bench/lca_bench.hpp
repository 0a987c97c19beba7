// The CombinACMP thesis' benchmark (seed 001, chapter 5) over any machine
// tree: every pair of PUs, shuffled with a fixed seed, queried round after
// round by each algorithm, the found ancestor read each time; algorithms
// interleaved so machine noise hits all alike; hwloc's own call timed on the
// same tree, and the loop alone ("overhead").
#pragma once

#include "nettopo-bench/bench.hpp"
#include "nettopo/tree/machine_tree.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nettopo {

// The algorithms bench_lca knows, in its default order.
inline const std::vector<std::string> lca_bench_algorithms = {"ascend", "ondul", "matrix",
                                                              "combin", "hwloc", "overhead"};

struct LcaBenchOptions {
    std::uint32_t warmup = 1000;  // rounds over the pair list before timing, per algorithm
    std::uint32_t rounds = 10000; // timed rounds per algorithm, split over `outer`
    std::uint32_t outer = 10;     // repetitions, each running every algorithm rounds/outer rounds
    std::uint64_t seed = 1;       // of the pair shuffle
    std::vector<std::string> algorithms = lca_bench_algorithms;
    // The hwloc XML file the tree was loaded from: the hwloc variant loads it.
    // Empty: the tree is written as an hwloc XML export (Groups kept, one
    // NUMA node at the root) and hwloc loads that.
    std::string hwloc_xml;
    // A disagreement with Ascend (hwloc's included) throws bench::VerifyError
    // instead of being noted.
    bool verify = false;
};

// One Measurement per requested algorithm ("lca combin", ...), ns_per_item
// holding one value per outer repetition (nanoseconds per query, loop
// included); a skipped algorithm (matrix on a tree too large for it) has no
// values and says why in its note.
// Each algorithm is first checked against Ascend on every pair; mismatches
// are reported in the note. Throws UsageError for an unknown algorithm or
// zero rounds, InputError when hwloc cannot load the XML file.
std::vector<bench::Measurement> bench_lca(const MachineTree& tree, std::string input,
                                          const LcaBenchOptions& options = {});

} // namespace nettopo
