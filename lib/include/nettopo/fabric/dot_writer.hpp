// Graphviz DOT drawing of a cluster's network: switches and machines, links
// labelled with latency (and multiplicity when > 1), machines of one type
// drawn alike, and the machines under one switch collapsed into a single box
// with a count when there are more than a threshold, so large clusters stay
// readable. lstopo draws one machine; this draws the cluster.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <ostream>

namespace nettopo {

struct DotOptions {
    // Machines hanging off one switch (linked to it and nothing else) are
    // drawn as one box "N x <type>" beyond this many; 0 never collapses.
    std::uint32_t collapse_above = 8;
};

void write_dot(const Cluster& cluster, std::ostream& out, const DotOptions& options = {});

} // namespace nettopo
