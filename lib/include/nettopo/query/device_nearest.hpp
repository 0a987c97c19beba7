/// \file
/// The PEs nearest a device (a GPU, an adapter): "which cores for the rank
/// that uses GPU 2" (share/doc/gpu-nodes.md, "Nearest").
/// \threads As QueryEngine: one engine per thread.
/// \cost The device's machine's PEs are ordered in O(P log P + P x NUMA
/// nodes); beyond them, one QueryEngine::nearest. Throws std::bad_alloc only.
#pragma once

#include "nettopo/model/devices.hpp"
#include "nettopo/query/query_engine.hpp"

#include <cstdint>
#include <vector>

namespace nettopo {

/// The `k` PEs nearest device `d`: its local PEs first (at 0), then the other
/// PEs of its machine by device_latency, then PEs of other machines by their
/// network distance from it; ties by PE id.
std::vector<NearPe> nearest_to_device(QueryEngine& engine, MachineDevice d, std::uint32_t k);

} // namespace nettopo
