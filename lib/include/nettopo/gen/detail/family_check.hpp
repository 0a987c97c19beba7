// The slow, obvious twin of a Family's closed forms: compares them with the
// cluster actually built (counts, every vertex's degree, hop counts against
// BFS), so the formulas are checked on whatever parameters a user brings,
// not only in the unit tests. `nettopo-gen --verify` runs it.
#pragma once

#include "nettopo/families/family.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/model/progress.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nettopo {

struct FamilyCheckOptions {
    // BFS sources (machines, drawn with `seed`); all machines when there are
    // no more than this many, which also makes the diameter check exact.
    std::uint32_t sources = 16;
    std::uint64_t seed = 1;
    Progress* progress = nullptr;
};

struct FamilyCheck {
    std::uint32_t sources = 0;         // BFS runs
    std::uint64_t pairs = 0;           // machine pairs compared
    std::uint32_t max_bfs_hops = 0;    // largest BFS hop count seen between machines
    bool all_sources = false;          // every machine was a source: max_bfs_hops is the diameter
    std::vector<std::string> problems; // the first few, described; empty when all agree
    std::uint64_t num_problems = 0;
    bool ok() const { return num_problems == 0; }
};

// For HopRule::Shortest families hop counts must equal BFS; for
// MinimalRouting they must be at least BFS.
FamilyCheck check_family(const Family& family, const Cluster& cluster,
                         const FamilyCheckOptions& options = {});

} // namespace nettopo
