// Benchmark inputs: the thesis' presets (one-PU machines, unit links, as its
// generator made them), any nettopo-gen family, or a file.
#include "common/child_process_sandbox.hpp"
#include "common/tool_support.hpp"
#include "nettopo-bench/bench_runs.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"

namespace nettopo::bench {

Input preset_input(const std::string& preset, const LevelLatencyOverrides& latencies) {
    std::shared_ptr<const Family> family = make_preset(preset);
    GenerateOptions options;
    options.limits = limits_from_environment();
    options.name = preset;
    options.links = LinkClasses::uniform(preset_latency_ns, 0);
    options.level_latencies = latencies;
    auto cluster = std::make_shared<const Cluster>(
        generate(*family, synthetic_machine(preset_machine, {}), options));
    return {preset, std::move(cluster), std::move(family), true};
}

Input family_input(const std::string& spec, const LevelLatencyOverrides& latencies) {
    std::shared_ptr<const Family> family = family_from_spec(spec);
    GenerateOptions options;
    options.level_latencies = latencies;
    auto cluster = std::make_shared<const Cluster>(
        generate(*family, synthetic_machine(default_machine, {}), options));
    return {family->spec(), std::move(cluster), std::move(family), false};
}

Input file_input(const std::string& path, bool allow_disconnected,
                 const LevelLatencyOverrides& latencies) {
    const ChildProcessSandbox hwloc_sandbox; // a user's file: hwloc may crash on it
    LoadOptions options;
    options.build.limits = limits_from_environment();
    options.hwloc_sandbox = &hwloc_sandbox;
    options.build.allow_disconnected = allow_disconnected;
    options.level_latencies = latencies;
    return {path, std::make_shared<const Cluster>(load_cluster(path, options)), nullptr, false};
}

} // namespace nettopo::bench
