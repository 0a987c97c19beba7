/// \file
/// The PEs nearest a device (a GPU, an adapter): "which cores for the rank
/// that uses GPU 2" (share/doc/gpu-nodes.md, "Nearest").
/// \threads As QueryEngine: one engine per thread.
/// \cost The device's machine's PEs are ordered in O(P log P + P x NUMA
/// nodes); beyond them, one QueryEngine::nearest, or with adapters one
/// adapter-level latency per machine (a search per distinct leaf). Throws
/// std::bad_alloc only.
#pragma once

#include "nettopo/model/devices.hpp"
#include "nettopo/model/job_view.hpp"
#include "nettopo/query/query_engine.hpp"

#include <cstdint>
#include <vector>

namespace nettopo {

/// The `k` PEs nearest device `d`: its local PEs first (at 0), then the other
/// PEs of its machine by device_latency, then PEs of other machines by their
/// network distance from it; ties by PE id. When the cluster keeps its
/// hosts' adapters and one leads out of the device (adapter_distance.hpp's
/// device_end), that distance is from the device's own adapter (a host on
/// its rail's leaf before one on another rail's); else from its machine.
std::vector<NearPe> nearest_to_device(QueryEngine& engine, MachineDevice d, std::uint32_t k);

/// The same among the PEs of a job's allocation (cluster PEs returned): the
/// device's machine's PEs first when the allocation holds it, as above; then
/// the allocation's other PEs as nearest_in_view orders them from the
/// device's first local PE (ties by view PE id). A device outside the
/// allocation has only the second part. One engine distance per allocation
/// machine at most.
std::vector<NearPe> nearest_to_device_in_view(QueryEngine& engine, const JobView& view,
                                              MachineDevice d, std::uint32_t k);

} // namespace nettopo
