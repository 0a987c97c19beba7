// Workload specs (balance/workload.hpp): "lb_test:tasks=...,pattern=..." or
// a preset name. Oracles: a refusal is a nettopo::Error (UsageError naming
// the key); a spec read with a small task count makes a Workload whose
// loads and initial mapping have one entry per task.
#include "fuzz_target.hpp"
#include "nettopo/balance/workload.hpp"

using namespace nettopo;
using namespace nettopo::fuzz;

NETTOPO_FUZZ_TARGET(workload_spec) {
    LbTestParams params;
    if (!accepted([&] { params = parse_workload_spec(text_of(data, size)); }, Refusal::any_error))
        return;
    // Bounded work: the workload is built only for small specs.
    if (params.tasks > 4096 || params.iterations > 4096) return;
    std::optional<Workload> workload;
    if (!accepted([&] { workload.emplace(params); }, Refusal::any_error)) return;
    const auto loads = must("Workload::loads", [&] { return workload->loads(0); });
    if (loads.size() != params.tasks) fail("Workload::loads: not one load per task");
    const auto mapping =
        must("Workload::initial_mapping", [&] { return workload->initial_mapping(8); });
    if (mapping.size() != params.tasks) fail("Workload::initial_mapping: not one PE per task");
    for (const PeId pe : mapping)
        if (pe.value >= 8) fail("Workload::initial_mapping: a PE out of range");
}
