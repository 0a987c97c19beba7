// The text form of an lb_test workload: "lb_test:tasks=3600,pattern=ring,..."
// or a preset's name, optionally followed by ":key=value,..." to change some
// of its numbers ("packdrop-18990:seed=7"). Keys are lb_test's arguments
// under the names nettopo-balance uses.
#include "nettopo/balance/workload.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <limits>

namespace nettopo {

namespace {

constexpr std::string_view known_keys =
    "tasks, pattern, min, max, bytes, task-bytes, iterations, every, seed, redraw";

std::string preset_list() {
    std::string names;
    for (const WorkloadPreset& p : workload_presets())
        names += fmt::format("{}{}", names.empty() ? "" : ", ", p.name);
    return names;
}

std::uint64_t whole(std::string_view spec, std::string_view key, std::string_view value,
                    std::uint64_t max) {
    const auto v = parse_uint(value);
    if (!v || *v > max)
        throw UsageError(fmt::format("workload '{}': {}={} is not a whole number (0..{})", spec,
                                     key, value, max));
    return *v;
}

double number(std::string_view spec, std::string_view key, std::string_view value) {
    const auto v = parse_double(value);
    if (!v) throw UsageError(fmt::format("workload '{}': {}={} is not a number", spec, key, value));
    return *v;
}

CommPattern pattern(std::string_view spec, std::string_view value) {
    std::string lower(value);
    for (char& c : lower)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    for (CommPattern p :
         {CommPattern::Ring, CommPattern::Mesh2D, CommPattern::Mesh3D, CommPattern::RandGraph})
        if (lower == to_string(p)) return p;
    throw UsageError(fmt::format(
        "workload '{}': pattern={} is not one of ring, mesh2d, mesh3d, randgraph", spec, value));
}

// Ranges (min <= max, every >= 1, ...) are the Workload's to judge, with the
// key's name in the message. A Workload of one task (or none, which it
// refuses) judges them without building the whole graph.
LbTestParams judged(const LbTestParams& p) {
    LbTestParams probe = p;
    probe.tasks = std::min<std::uint32_t>(p.tasks, 1);
    const Workload check(probe);
    return p;
}

} // namespace

const WorkloadPreset* workload_preset_of(std::string_view spec) {
    const std::string_view head = spec.substr(0, spec.find(':'));
    for (const WorkloadPreset& w : workload_presets())
        if (w.name == head) return &w;
    return nullptr;
}

LbTestParams parse_workload_spec(std::string_view spec) {
    const std::size_t colon = spec.find(':');
    const std::string_view head = spec.substr(0, colon);
    LbTestParams p;
    if (head != "lb_test") {
        const WorkloadPreset* found = workload_preset_of(spec);
        if (!found)
            throw UsageError(fmt::format("workload '{}': expected lb_test:KEY=VALUE,... or a "
                                         "preset ({})",
                                         spec, preset_list()));
        p = found->params;
    }
    if (colon == std::string_view::npos) return judged(p);
    constexpr std::uint64_t max32 = std::numeric_limits<std::uint32_t>::max();
    std::array<bool, 10> seen{};
    const auto once = [&](std::size_t slot, std::string_view key) {
        if (seen[slot]) throw UsageError(fmt::format("workload '{}': {} given twice", spec, key));
        seen[slot] = true;
    };
    std::string_view rest = spec.substr(colon + 1);
    while (true) {
        const std::size_t comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos)
            throw UsageError(fmt::format("workload '{}': '{}' is not KEY=VALUE", spec, item));
        const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key == "tasks") {
            once(0, key);
            p.tasks = static_cast<std::uint32_t>(whole(spec, key, value, max32 - 1));
        } else if (key == "pattern") {
            once(1, key);
            p.pattern = pattern(spec, value);
        } else if (key == "min") {
            once(2, key);
            p.min_load_us = number(spec, key, value);
        } else if (key == "max") {
            once(3, key);
            p.max_load_us = number(spec, key, value);
        } else if (key == "bytes") {
            once(4, key);
            p.message_bytes = number(spec, key, value);
        } else if (key == "task-bytes") {
            once(5, key);
            p.task_bytes = number(spec, key, value);
        } else if (key == "iterations") {
            once(6, key);
            p.iterations = static_cast<std::uint32_t>(whole(spec, key, value, max32));
        } else if (key == "every") {
            once(7, key);
            p.every = static_cast<std::uint32_t>(whole(spec, key, value, max32));
        } else if (key == "seed") {
            once(8, key);
            p.seed = whole(spec, key, value, std::numeric_limits<std::uint64_t>::max());
        } else if (key == "redraw") {
            once(9, key);
            if (value != "on" && value != "off")
                throw UsageError(
                    fmt::format("workload '{}': redraw '{}' is not on or off", spec, value));
            p.redraw = value == "on";
        } else {
            throw UsageError(
                fmt::format("workload '{}': unknown key '{}' (known: {})", spec, key, known_keys));
        }
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
    }
    return judged(p);
}

} // namespace nettopo
