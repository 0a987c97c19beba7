#include "nettopo-bench/bench_util.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <thread>
#include <unordered_set>

namespace nettopo::bench {

Measurement start(const Input& in, std::string operation, std::uint64_t items, std::string note) {
    Measurement m;
    m.operation = std::move(operation);
    m.input = in.name;
    m.machines = in.cluster->num_machines();
    m.items = items;
    m.note = std::move(note);
    return m;
}

unsigned thread_count(const RunOptions& o) {
    return o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
}

DistancePolicy index_options(const RunOptions& o) {
    DistancePolicy options;
    options.memory_budget_bytes = o.memory_budget_bytes;
    options.threads = o.threads;
    return options;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>>
random_pairs(std::uint32_t population, std::uint32_t count, std::uint64_t seed) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    if (population < 2) return pairs;
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::uint32_t> pick(0, population - 1);
    pairs.reserve(count);
    while (pairs.size() < count) {
        const std::uint32_t a = pick(rng), b = pick(rng);
        if (a != b) pairs.emplace_back(a, b);
    }
    return pairs;
}

std::uint64_t affordable_searches(std::uint64_t vertices, std::uint64_t visits, std::uint64_t least,
                                  std::uint64_t most) {
    return std::min(most, std::max(least, visits / (vertices + 1)));
}

std::vector<std::uint32_t> distinct_sample(std::uint32_t population, std::uint32_t count,
                                           std::uint64_t seed) {
    // Floyd's algorithm: count draws, no table of the whole population.
    std::mt19937_64 rng(seed);
    std::vector<std::uint32_t> out;
    std::unordered_set<std::uint32_t> taken;
    for (std::uint32_t j = population - count; j < population; ++j) {
        const std::uint32_t t = std::uniform_int_distribution<std::uint32_t>(0, j)(rng);
        const std::uint32_t v = taken.insert(t).second ? t : j;
        if (v == j) taken.insert(j);
        out.push_back(v);
    }
    return out;
}

std::vector<MachineId> verify_sources(const Cluster& c, const RunOptions& o) {
    // A full search costs about a microsecond per 10 vertices; keep the
    // check under a few seconds whatever the size.
    const std::uint64_t vertices = c.network().num_vertices();
    const std::uint64_t affordable = affordable_searches(vertices, 20'000'000, 2, 256);
    std::vector<MachineId> sources;
    if (c.num_machines() <= affordable) {
        for (std::uint32_t m = 0; m < c.num_machines(); ++m) sources.emplace_back(m);
        return sources;
    }
    for (const auto& [a, b] :
         random_pairs(c.num_machines(), static_cast<std::uint32_t>(affordable), o.seed ^ 0x5eed))
        sources.emplace_back(a);
    return sources;
}

void verify_index(const Input& in, const DistanceIndex& index, std::span<const MachineId> sources,
                  std::string_view operation) {
    const auto bad = check_distance_index(*in.cluster, index, sources);
    if (!bad) return;
    throw VerifyError(fmt::format("{}: {}: {} says {} {} from machine {} to {}, {} {}", in.name,
                                  operation, index.description(), bad->index_value,
                                  bad->hops ? "hops" : "ps", bad->from.value, bad->to.value,
                                  bad->hops ? "BFS" : "Dijkstra", bad->search_value));
}

} // namespace nettopo::bench
