// The latency of two PUs of one machine type, per place where they meet:
// the rule of share/doc/model.md ("Intra-machine latencies") computed once
// per type, so that MachineType::latency_between stays a few loads.
#pragma once

#include "nettopo/model/machine_type.hpp"

#include <cstdint>
#include <vector>

namespace nettopo::detail {

inline constexpr std::uint32_t no_numa_node = 0xffffffffu;

struct MeetLatencies {
    // Per object: the latency of two PUs whose deepest common object it is.
    std::vector<double> per_object;
    // Filled only when the tree carries NUMA distances between NUMA nodes
    // that hold PUs: each PU's NUMA node (logical index, no_numa_node when
    // none is local to it), and the latency across each pair of NUMA nodes
    // (row-major, numa_count^2).
    std::vector<std::uint32_t> numa_of_pu;
    std::vector<double> across_numa;
    std::uint32_t numa_count = 0;
};

// O(objects + NUMA nodes^2 x height); allocates; throws only std::bad_alloc.
MeetLatencies meet_latencies(const MachineTree& tree, const LevelLatencies& table);

} // namespace nettopo::detail
