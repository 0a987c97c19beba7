// What the fabric targets (ibnetdiscover, Slurm) check of a Fabric.
#pragma once

#include "nettopo/fabric/fabric.hpp"
#include "nettopo/model/cluster.hpp"

#include <optional>

namespace nettopo::fuzz {

// fabric.hpp's promises: names unique and single tokens, links between two
// distinct nodes, at most one per pair, multiplicity >= 1. Fails otherwise.
void check_fabric(const Fabric& fabric);

// The fabric assembled with one-PU machines for its hosts (disconnected
// allowed): nullopt when assembling refuses it (a nettopo::Error: no host,
// ...), which is not the reader's business.
std::optional<Cluster> assembled(const Fabric& fabric);

} // namespace nettopo::fuzz
