// A random cluster description full of name runs, for the round-trip tests of
// the description writer and of the archive: both fold numbered machine names
// into runs, and this is the input that tempts them to fold what they must not.
//
// The text holds, in this order, machines node001..node120 (ids 0..119); names
// that look numbered but do not continue a run, or continue one in a way the
// reader's ranges cannot write (a, n07, n8, x10, x010, w5, w7, w6, b[1, c]1,
// 11, h10123456789012345670, ...), mostly of one common type so that folding
// them is tempting; a suffixed range p[7-9]-ib; switches leaf0..leaf9, spine
// and sw[0]. Every machine links to a leaf, every leaf to the spine, so the
// network is connected. Latencies and bandwidths include awkward numbers
// (1e-300, 0.30000000000000004, 1e20, ...) that must survive exactly.
#pragma once

#include <random>
#include <string>

namespace nettopo::test {

struct RangedOptions {
    // How node001..node120 are declared. false: one `machine` line each, the
    // type changing at random places (about every 30 machines). true:
    // `machines node[...]` ranges, either one range of a single type over all
    // 120 or two ranges split at a random place, so that the longest runs are
    // common.
    bool node_ranges = false;
};

std::string ranged_description(std::mt19937_64& rng, const RangedOptions& options = {});

} // namespace nettopo::test
