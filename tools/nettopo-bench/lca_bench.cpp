// The LCA benchmark of the CombinACMP thesis (seed 001, chapter 5), kept to
// its method: every pair of distinct PUs, shuffled with a fixed seed; warm-up
// rounds, then timed rounds over the pair list; every found ancestor read
// (its depth summed and kept), since real callers read it; algorithms
// interleaved, outer repetitions each running every algorithm for
// rounds/outer rounds in a rotated order, so noise hits all alike; and an
// "overhead" variant running the same loop without a query.
#include "nettopo-bench/lca_bench.hpp"

#include "nettopo-bench/lca_hwloc.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/lca.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <random>

namespace nettopo {

namespace {

struct PuPair {
    std::uint32_t a, b;
};

// One timed loop: `rounds` passes over the pairs, the ancestor's depth summed.
// Not inlined, so every algorithm's loop is compiled alone.
template <class Pair, class Query>
[[gnu::noinline]] std::uint64_t run_rounds(std::span<const Pair> pairs, std::uint32_t rounds,
                                           const Query& query) {
    std::uint64_t sum = 0;
    for (std::uint32_t r = 0; r < rounds; ++r)
        for (const Pair& p : pairs) sum += query(p);
    return sum;
}

struct Algorithm {
    std::string name;
    std::function<std::uint64_t(std::uint32_t rounds)> run; // empty: skipped
    std::string note;
};

} // namespace

std::vector<bench::Measurement> bench_lca(const MachineTree& tree, std::string input,
                                          const LcaBenchOptions& options) {
    if (options.rounds == 0 || options.outer == 0)
        throw UsageError("the LCA benchmark needs at least one round and one repetition");
    for (const std::string& a : options.algorithms)
        if (std::find(lca_bench_algorithms.begin(), lca_bench_algorithms.end(), a) ==
            lca_bench_algorithms.end())
            throw UsageError(fmt::format("unknown LCA algorithm '{}' (known: {})", a,
                                         fmt::join(lca_bench_algorithms, ", ")));
    auto wanted = [&](const char* name) {
        return std::find(options.algorithms.begin(), options.algorithms.end(), name) !=
               options.algorithms.end();
    };

    std::vector<PuPair> pairs;
    for (std::uint32_t a = 0; a < tree.num_pus(); ++a)
        for (std::uint32_t b = a + 1; b < tree.num_pus(); ++b) pairs.push_back({a, b});
    std::mt19937_64 rng(options.seed);
    std::shuffle(pairs.begin(), pairs.end(), rng);

    const auto objs = tree.objects();
    const AscendLca ascend(tree);
    const OndulLca ondul(tree);
    const CombinLca combin(tree);
    std::optional<MatrixLca> matrix;
    std::string matrix_note;
    if (wanted("matrix")) {
        if (tree.num_objects() <= MatrixLca::max_objects)
            matrix.emplace(tree);
        else
            matrix_note = fmt::format("skipped: {} objects, the matrix takes at most {}",
                                      tree.num_objects(), MatrixLca::max_objects);
    }
    std::optional<detail::HwlocLcaTopology> hwloc;
    std::vector<std::pair<hwloc_obj_t, hwloc_obj_t>> hwloc_pairs;
    if (wanted("hwloc")) {
        hwloc = detail::load_hwloc_for_lca(tree, options.hwloc_xml);
        hwloc_pairs.reserve(pairs.size());
        for (const PuPair& p : pairs) hwloc_pairs.emplace_back(hwloc->pus[p.a], hwloc->pus[p.b]);
    }

    // Each answer checked against Ascend once, before any timing.
    auto verified = [&](auto same) {
        std::uint64_t bad = 0;
        for (const PuPair& p : pairs) bad += !same(p, ascend.query(p.a, p.b));
        return bad;
    };
    const std::span<const PuPair> ps = pairs;
    std::vector<Algorithm> algs;
    for (const std::string& name : options.algorithms) {
        Algorithm alg{name, {}, {}};
        std::uint64_t bad = 0;
        if (name == "ascend") {
            alg.run = [&, ps](std::uint32_t r) {
                return run_rounds(
                    ps, r, [&](PuPair p) { return objs[ascend.query(p.a, p.b).value].depth; });
            };
        } else if (name == "ondul") {
            bad = verified([&](PuPair p, ObjectId want) { return ondul.query(p.a, p.b) == want; });
            alg.run = [&, ps](std::uint32_t r) {
                return run_rounds(
                    ps, r, [&](PuPair p) { return objs[ondul.query(p.a, p.b).value].depth; });
            };
        } else if (name == "matrix") {
            if (matrix) {
                bad = verified(
                    [&](PuPair p, ObjectId want) { return matrix->query(p.a, p.b) == want; });
                alg.run = [&, ps](std::uint32_t r) {
                    return run_rounds(
                        ps, r, [&](PuPair p) { return objs[matrix->query(p.a, p.b).value].depth; });
                };
                alg.note = fmt::format("table of {} bytes", matrix->table_bytes());
            } else {
                alg.note = matrix_note;
            }
        } else if (name == "combin") {
            bad = verified([&](PuPair p, ObjectId want) { return combin.query(p.a, p.b) == want; });
            const LcaProblems problems = combin.check(tree);
            bad += problems.size();
            alg.run = [&, ps](std::uint32_t r) {
                return run_rounds(
                    ps, r, [&](PuPair p) { return objs[combin.query(p.a, p.b).value].depth; });
            };
            static constexpr const char* reps[] = {"one word, 64-bit reciprocal",
                                                   "one word, 128-bit reciprocal", "multi-word",
                                                   "parent walk (no hash found)"};
            alg.note =
                fmt::format("{} id bits, {}, {} table bytes{}", combin.id_bits(),
                            reps[static_cast<int>(combin.representation())], combin.table_bytes(),
                            problems.empty() ? "" : "; check: " + problems.front());
        } else if (name == "hwloc") {
            if (hwloc) {
                // The same objects must come out: compare PU sets.
                for (std::size_t k = 0; k < pairs.size(); ++k) {
                    const hwloc_obj_t o = hwloc_get_common_ancestor_obj(
                        hwloc->topology.get(), hwloc_pairs[k].first, hwloc_pairs[k].second);
                    const TreeObject& want = objs[ascend.query(pairs[k].a, pairs[k].b).value];
                    bad += o == nullptr || static_cast<std::uint32_t>(
                                               hwloc_bitmap_weight(o->cpuset)) != want.pu_count;
                }
                const hwloc_topology_t topo = hwloc->topology.get();
                const std::span<const std::pair<hwloc_obj_t, hwloc_obj_t>> hp = hwloc_pairs;
                alg.run = [topo, hp](std::uint32_t r) {
                    return run_rounds(hp, r, [topo](const std::pair<hwloc_obj_t, hwloc_obj_t>& p) {
                        return static_cast<std::uint64_t>(
                            hwloc_get_common_ancestor_obj(topo, p.first, p.second)->depth);
                    });
                };
                alg.note = fmt::format(
                    "hwloc tree of depth {} from {}", hwloc_topology_get_depth(topo),
                    options.hwloc_xml.empty() ? "the tree's XML export" : options.hwloc_xml);
            }
        } else { // overhead: the same loop, the pair read, no query
            alg.run = [ps](std::uint32_t r) {
                return run_rounds(ps, r, [](PuPair p) { return std::uint64_t(p.a ^ p.b); });
            };
            alg.note = "the loop alone";
        }
        if (bad && options.verify)
            throw bench::VerifyError(fmt::format("{}: lca {}: {} of {} PU pairs differ from Ascend",
                                                 input, name, bad, pairs.size()));
        if (bad)
            alg.note +=
                fmt::format("{}MISMATCHES against ascend: {}", alg.note.empty() ? "" : "; ", bad);
        algs.push_back(std::move(alg));
    }

    std::vector<std::size_t> timed;
    for (std::size_t i = 0; i < algs.size(); ++i)
        if (algs[i].run) timed.push_back(i);
    for (std::size_t i : timed) bench::keep(algs[i].run(options.warmup));
    const std::uint32_t inner = std::max<std::uint32_t>(1, options.rounds / options.outer);
    std::vector<std::vector<double>> ns(algs.size());
    for (std::uint32_t o = 0; o < options.outer; ++o)
        for (std::size_t k = 0; k < timed.size(); ++k) {
            const std::size_t i = timed[(k + o) % timed.size()];
            const auto start = bench::Clock::now();
            bench::keep(algs[i].run(inner));
            const double elapsed = bench::elapsed_ns(start);
            ns[i].push_back(pairs.empty() ? 0.0 : elapsed / (double(inner) * double(pairs.size())));
        }

    std::vector<bench::Measurement> out;
    for (std::size_t i = 0; i < algs.size(); ++i) {
        bench::Measurement m;
        m.operation = "lca " + algs[i].name;
        m.input = input;
        m.machines = 1;
        m.items = pairs.size();
        m.ns_per_item = std::move(ns[i]);
        m.note = fmt::format("ns per query of {} PU pairs ({} PUs), {} x {} rounds, seed {}, "
                             "ancestor's depth read{}{}",
                             pairs.size(), tree.num_pus(), options.outer, inner, options.seed,
                             algs[i].note.empty() ? "" : "; ", algs[i].note);
        out.push_back(std::move(m));
    }
    return out;
}

} // namespace nettopo
