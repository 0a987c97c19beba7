// A user's latencies over a machine type's table (machine_type.hpp,
// LevelLatencyOverrides): applied by every reader and builder to each type
// it makes, before the type orders its table by the tree's positions.
#include "nettopo/model/machine_type.hpp"
#include "nettopo/support/error.hpp"

#include <cmath>
#include <fmt/format.h>

namespace nettopo {

void LevelLatencyOverrides::set(ObjectType t, double latency_ns) {
    // PUs never meet at a memory object: a value there would be read by
    // nothing, and the archive has no attribute for it.
    if (is_memory(t))
        throw UsageError(fmt::format("{} is a memory object, never where two PUs meet: it has "
                                     "no latency of its own",
                                     to_string(t)));
    if (!std::isfinite(latency_ns) || latency_ns < 0)
        throw UsageError(
            fmt::format("latency {} of {}: expected a number >= 0 (ns)", latency_ns, to_string(t)));
    ns[static_cast<std::size_t>(t)] = latency_ns + 0.0; // one zero: -0 would print apart
}

bool LevelLatencyOverrides::empty() const {
    for (const auto& v : ns)
        if (v) return false;
    return true;
}

LevelLatencies LevelLatencyOverrides::applied_to(LevelLatencies table) const {
    for (std::size_t i = 0; i < object_type_count; ++i)
        if (ns[i]) table.ns[i] = *ns[i];
    return table;
}

MachineType with_latency_overrides(const MachineType& type,
                                   const LevelLatencyOverrides& overrides) {
    return MachineType(type.description(), type.tree(), type.requested_node_level(),
                       overrides.applied_to(type.latencies()));
}

} // namespace nettopo
