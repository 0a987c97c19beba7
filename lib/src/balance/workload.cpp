// lb_test, Charm++'s load-balancing benchmark (tests/charm++/load_balancing/
// lb_test: lb_test.C, Topo.C), as a workload model: its task loads per phase
// and its communication graph.
//
// Loads (Topo::FindComputeTimes): min + (max - min) * U^4 microseconds, U
// uniform; here U is drawn from a generator seeded by (seed, phase), so a
// phase's loads are recomputed on demand instead of stored for every phase.
//
// Patterns (Topo::Construct*), and where we differ from lb_test:
//  - Ring: t talks to t-1 and t+1 (mod N). lb_test's ring only sends to
//    t+1; we follow our header (both neighbours send), so each ring pair
//    exchanges message_bytes each way, 2 x message_bytes in the graph.
//  - Mesh2D: nrows = round(sqrt(N)), ncols = the fewest columns with
//    nrows x ncols >= N, task i at (i / ncols, i % ncols); the 4 neighbours
//    inside the grid, no wrap-around (lb_test skips neighbours off the grid
//    or past N). Each pair 2 x message_bytes.
//  - Mesh3D: a cube of side L = the smallest L with L^3 >= N (lb_test writes
//    ceil(pow(N, 1/3)), which rounds up to L + 1 for some cubes such as 27:
//    we take the exact integer root), x fastest; 6 neighbours inside, no wrap.
//  - RandGraph: the ring plus random links until about 1 % of all pairs are
//    linked (lb_test: 1 % of the N(N-1) ordered pairs, the ring's included,
//    chosen by selection sampling). Here: floor(0.01 N(N-1)/2) - N distinct
//    random unordered non-ring pairs, each exchanging message_bytes both
//    ways, the same density. Its size grows as N^2, so it is refused past
//    max_random_links.
#include "nettopo/balance/workload.hpp"

#include "balance/mix.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <random>

namespace nettopo {

namespace {

// 2^24 random links (~60k tasks) is 400 MB of graph: past that the
// quadratic pattern is no longer a benchmark one would run.
constexpr std::uint64_t max_random_links = std::uint64_t{1} << 24;

using balance_detail::splitmix64;

// Seeds of independent streams: one per load phase, one for the graph.
std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream) {
    return splitmix64(splitmix64(seed) ^ splitmix64(stream + 0x5851f42d4c957f2dULL));
}
constexpr std::uint64_t graph_stream = ~std::uint64_t{0};

void validate(const LbTestParams& p) {
    if (p.tasks == 0) throw UsageError("lb_test: tasks must be at least 1");
    if (!std::isfinite(p.min_load_us) || p.min_load_us < 0)
        throw UsageError(
            fmt::format("lb_test: min={} must be a finite number >= 0", p.min_load_us));
    if (!std::isfinite(p.max_load_us) || p.max_load_us < p.min_load_us)
        throw UsageError(fmt::format("lb_test: max={} must be a finite number >= min={}",
                                     p.max_load_us, p.min_load_us));
    if (!std::isfinite(p.message_bytes) || p.message_bytes < 0)
        throw UsageError(
            fmt::format("lb_test: bytes={} must be a finite number >= 0", p.message_bytes));
    if (!std::isfinite(p.task_bytes) || p.task_bytes < 0)
        throw UsageError(
            fmt::format("lb_test: task-bytes={} must be a finite number >= 0", p.task_bytes));
    if (p.iterations == 0) throw UsageError("lb_test: iterations must be at least 1");
    if (p.every == 0) throw UsageError("lb_test: every must be at least 1");
}

// Undirected links, each given once with both directions' bytes.
void ring_links(std::uint32_t n, double pair_bytes, std::vector<TaskEdge>& edges) {
    if (n < 2) return;
    // With two tasks both "neighbours" are the same task: one pair, talking
    // twice as often, as lb_test's 0->1 and 1->0 sends do.
    for (std::uint32_t t = 0; t < n; ++t)
        edges.push_back({TaskId(t), TaskId((t + 1) % n), pair_bytes});
}

void mesh2d_links(std::uint32_t n, double pair_bytes, std::vector<TaskEdge>& edges) {
    std::uint64_t rows = static_cast<std::uint64_t>(std::sqrt(double(n)) + 0.5);
    rows = std::max<std::uint64_t>(rows, 1);
    std::uint64_t cols = n / rows;
    while (rows * cols < n) ++cols;
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t c = i % cols;
        if (c + 1 < cols && i + 1 < n)
            edges.push_back({TaskId(std::uint32_t(i)), TaskId(std::uint32_t(i + 1)), pair_bytes});
        if (i + cols < n) // row + 1 exists inside the grid and before N
            edges.push_back(
                {TaskId(std::uint32_t(i)), TaskId(std::uint32_t(i + cols)), pair_bytes});
    }
}

void mesh3d_links(std::uint32_t n, double pair_bytes, std::vector<TaskEdge>& edges) {
    std::uint64_t side = 1;
    while (side * side * side < n) ++side;
    const std::uint64_t plane = side * side;
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t x = i % side, y = (i / side) % side;
        const TaskId a(static_cast<std::uint32_t>(i));
        if (x + 1 < side && i + 1 < n)
            edges.push_back({a, TaskId(std::uint32_t(i + 1)), pair_bytes});
        if (y + 1 < side && i + side < n)
            edges.push_back({a, TaskId(std::uint32_t(i + side)), pair_bytes});
        if (i + plane < n) edges.push_back({a, TaskId(std::uint32_t(i + plane)), pair_bytes});
    }
}

void random_links(std::uint32_t n, double pair_bytes, std::uint64_t seed,
                  std::vector<TaskEdge>& edges) {
    ring_links(n, pair_bytes, edges);
    const std::uint64_t pairs = std::uint64_t{n} * (n - 1) / 2;
    const std::uint64_t target = static_cast<std::uint64_t>(0.01 * double(pairs));
    if (n < 4 || target <= n) return;
    const std::uint64_t extra = target - n;
    if (extra > max_random_links)
        throw UsageError(fmt::format("lb_test: randgraph over {} tasks links 1 % of all pairs, {} "
                                     "links; at most {} are modelled (about 58,000 tasks)",
                                     n, extra, max_random_links));
    std::mt19937_64 rng(stream_seed(seed, graph_stream));
    std::uniform_int_distribution<std::uint32_t> task(0, n - 1);
    const auto ring_pair = [n](std::uint32_t a, std::uint32_t b) {
        return b - a == 1 || (a == 0 && b == n - 1);
    };
    std::vector<std::uint64_t> keys; // lo * n + hi, lo < hi
    keys.reserve(extra);
    while (keys.size() < extra) {
        while (keys.size() < extra) {
            std::uint32_t a = task(rng), b = task(rng);
            if (a == b) continue;
            if (a > b) std::swap(a, b);
            if (ring_pair(a, b)) continue;
            keys.push_back(std::uint64_t{a} * n + b);
        }
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    }
    for (std::uint64_t k : keys)
        edges.push_back({TaskId(std::uint32_t(k / n)), TaskId(std::uint32_t(k % n)), pair_bytes});
}

TaskGraph pattern_graph(const LbTestParams& p) {
    std::vector<TaskEdge> edges;
    const double pair_bytes = 2 * p.message_bytes; // both directions
    switch (p.pattern) {
    case CommPattern::Ring:
        edges.reserve(p.tasks);
        ring_links(p.tasks, pair_bytes, edges);
        break;
    case CommPattern::Mesh2D:
        edges.reserve(std::size_t{p.tasks} * 2);
        mesh2d_links(p.tasks, pair_bytes, edges);
        break;
    case CommPattern::Mesh3D:
        edges.reserve(std::size_t{p.tasks} * 3);
        mesh3d_links(p.tasks, pair_bytes, edges);
        break;
    case CommPattern::RandGraph:
        random_links(p.tasks, pair_bytes, p.seed, edges);
        break;
    }
    return TaskGraph(p.tasks, edges);
}

} // namespace

const char* to_string(CommPattern p) {
    switch (p) {
    case CommPattern::Ring:
        return "ring";
    case CommPattern::Mesh2D:
        return "mesh2d";
    case CommPattern::Mesh3D:
        return "mesh3d";
    case CommPattern::RandGraph:
        return "randgraph";
    }
    return "?";
}

Workload::Workload(const LbTestParams& params) : params_(params) {
    validate(params_);
    graph_ = pattern_graph(params_);
}

std::uint32_t Workload::phase_of_iteration(std::uint32_t iteration) const {
    // lb_test shuffles when nTimes > every and (nTimes - every/2) % every == 0,
    // nTimes counting from 1: before iterations 3e/2, 5e/2, ... counted from 0.
    // With every = 1 each step balances, and balancing comes first there.
    const std::uint64_t first = std::uint64_t{params_.every} + params_.every / 2;
    if (!params_.redraw || params_.every < 2 || iteration < first) return 0;
    return static_cast<std::uint32_t>((iteration - first) / params_.every + 1);
}

std::uint32_t Workload::next_phase_start(std::uint32_t iteration) const {
    const std::uint64_t first = std::uint64_t{params_.every} + params_.every / 2;
    if (!params_.redraw || params_.every < 2) return std::numeric_limits<std::uint32_t>::max();
    const std::uint64_t next =
        iteration < first
            ? first
            : first + (std::uint64_t{iteration - first} / params_.every + 1) * params_.every;
    return static_cast<std::uint32_t>(
        std::min<std::uint64_t>(next, std::numeric_limits<std::uint32_t>::max()));
}

std::vector<double> Workload::loads(std::uint32_t phase) const {
    std::mt19937_64 rng(stream_seed(params_.seed, phase));
    const double lo = params_.min_load_us * 1e-6;
    const double span = (params_.max_load_us - params_.min_load_us) * 1e-6;
    std::vector<double> out(params_.tasks);
    for (double& load : out) {
        const double u = double(rng() >> 11) * 0x1.0p-53; // [0, 1), every bit from rng
        const double u2 = u * u;
        load = lo + span * (u2 * u2);
    }
    return out;
}

// Charm++'s default map of a 1-D array: consecutive blocks, the first
// N mod P PEs holding one task more.
std::vector<PeId> Workload::initial_mapping(std::uint32_t num_pes) const {
    if (num_pes == 0) throw UsageError("lb_test: no PE to place the tasks on");
    const std::uint32_t n = params_.tasks, base = n / num_pes, extra = n % num_pes;
    std::vector<PeId> mapping(n);
    std::uint32_t t = 0;
    for (std::uint32_t p = 0; p < num_pes; ++p)
        for (std::uint32_t k = 0; k < base + (p < extra ? 1 : 0); ++k) mapping[t++] = PeId(p);
    return mapping;
}

std::vector<double> Workload::mean_loads(std::uint32_t count) const {
    count = std::max(count, 1u);
    std::vector<double> mean(num_tasks(), 0.0);
    // Phases cover runs of iterations: one pass over the tasks per phase.
    for (std::uint32_t it = 0; it < count;) {
        const std::uint32_t phase = phase_of_iteration(it);
        const std::uint32_t end = std::min<std::uint32_t>(count, next_phase_start(it));
        const std::vector<double> l = loads(phase);
        for (std::uint32_t t = 0; t < num_tasks(); ++t) mean[t] += l[t] * (end - it);
        it = end;
    }
    for (double& m : mean) m /= count;
    return mean;
}

} // namespace nettopo
