// proximity, distance and hops: the thesis' query experiments. "Distance II"
// and "hops II" are its sets: every query from one machine to each machine
// within 2 hops of it; a set is timed as a whole, as the thesis did, and
// per call. Random pairs time single queries on large inputs.
#include "nettopo-bench/bench_util.hpp"
#include "nettopo/query/adapter_distance.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/query/query_engine.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace nettopo::bench {
namespace {

using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// The PE pairs of the distance II / hops II sets: for each sampled source
// machine, its first PE with the first PE of every other machine within 2
// hops. Sets are kept flat, with where each one starts.
struct Sets {
    std::vector<MachineId> sources;
    std::vector<PeId> a, b;
    std::vector<std::size_t> begin{0};
    std::size_t count() const { return begin.size() - 1; }
};

Sets two_hop_sets(const Cluster& c, const RunOptions& o) {
    Sets s;
    for (const auto& [m, unused] :
         random_pairs(c.num_machines(), std::min(o.sources, c.num_machines()), o.seed))
        s.sources.emplace_back(m);
    NetworkSearch search(c.network());
    std::vector<std::uint32_t> hops;
    for (const MachineId src : s.sources) {
        search.hops_from(c.vertex(src), hops);
        const PeId from(c.pes_of_machine(src).first);
        for (std::uint32_t m = 0; m < c.num_machines(); ++m)
            if (m != src.value && hops[m] <= 2) {
                s.a.push_back(from);
                s.b.emplace_back(c.pes_of_machine(MachineId(m)).first);
            }
        s.begin.push_back(s.a.size());
    }
    return s;
}

PeId first_pe(const Cluster& c, std::uint32_t machine) {
    return PeId(c.pes_of_machine(MachineId(machine)).first);
}

// Times `query` over the sets `o.repetitions` times: ns per set and per call.
// `fresh` runs before each set: a search engine forgets its kept search, so
// a set costs its searches however often it is timed.
template <class Query, class Fresh>
std::vector<Measurement> time_sets(const Input& in, const Sets& s, const RunOptions& o,
                                   const std::string& name, const std::string& how, Query&& query,
                                   Fresh&& fresh) {
    const double per_set = s.count() ? static_cast<double>(s.a.size()) / s.count() : 0;
    Measurement set =
        start(in, name + " II" + how, s.count(),
              fmt::format("per set of {:.1f} queries (machines within 2 hops)", per_set));
    Measurement call = start(in, name + " II" + how + ", per call", s.a.size(), "");
    for (std::uint32_t r = 0; r < o.repetitions; ++r) {
        std::uint64_t sum = 0;
        const auto t = Clock::now();
        for (std::size_t set = 0; set < s.count(); ++set) {
            fresh();
            for (std::size_t i = s.begin[set]; i < s.begin[set + 1]; ++i)
                sum += query(s.a[i], s.b[i]);
        }
        keep(sum);
        const double ns = elapsed_ns(t);
        set.ns_per_item.push_back(s.count() ? ns / static_cast<double>(s.count()) : 0);
        call.ns_per_item.push_back(s.a.empty() ? 0 : ns / static_cast<double>(s.a.size()));
    }
    return {set, call};
}

template <class Query, class Fresh>
Measurement time_pairs(const Input& in, const Pairs& pairs, const RunOptions& o,
                       const std::string& name, std::string note, Query&& query, Fresh&& fresh) {
    Measurement m = start(in, name, pairs.size(), std::move(note));
    const Cluster& c = *in.cluster;
    std::vector<PeId> a, b;
    for (const auto& [x, y] : pairs) a.push_back(first_pe(c, x)), b.push_back(first_pe(c, y));
    for (std::uint32_t r = 0; r < o.repetitions; ++r) {
        std::uint64_t sum = 0;
        const auto t = Clock::now();
        for (std::size_t i = 0; i < a.size(); ++i) {
            fresh();
            sum += query(a[i], b[i]);
        }
        keep(sum);
        const double ns = elapsed_ns(t);
        m.ns_per_item.push_back(a.empty() ? 0 : ns / static_cast<double>(a.size()));
    }
    return m;
}

// A search per call costs up to a whole Dijkstra: fewer pairs on big inputs.
std::uint32_t search_queries(const Cluster& c, const RunOptions& o) {
    return static_cast<std::uint32_t>(
        affordable_searches(c.network().num_vertices(), 50'000'000, 10, o.queries));
}

std::uint64_t rss_bytes() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long pages = 0, resident = 0;
    const int read = std::fscanf(f, "%lu %lu", &pages, &resident);
    std::fclose(f);
    return read == 2 ? resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE)) : 0;
}

// The index of the distance and hops runs, with its cost: build time, its
// own size, and the process' resident memory before and after.
std::unique_ptr<DistanceIndex> timed_index(const Input& in, const RunOptions& o,
                                           std::vector<Measurement>& out) {
    const std::uint64_t before = rss_bytes();
    const auto t = Clock::now();
    auto index = build_distance_index(*in.cluster, index_options(o));
    Measurement m = start(in, "index build", 1, "");
    m.ns_per_item.push_back(elapsed_ns(t));
    const std::uint64_t after = rss_bytes();
    m.note = fmt::format("{}; index {:.1f} KB; resident memory {:.1f} -> {:.1f} MB ({:.2f}x)",
                         index->description(), index->memory_bytes() / 1e3, before / 1e6,
                         after / 1e6, before ? static_cast<double>(after) / before : 0.0);
    out.push_back(std::move(m));
    return index;
}

enum class Metric { Latency, Hops };

std::vector<Measurement> run_network_query(const Input& in, const RunOptions& o, Metric metric) {
    const Cluster& c = *in.cluster;
    std::vector<Measurement> out;
    if (c.num_machines() < 2) return out;
    const auto index = timed_index(in, o, out);
    const Sets sets = two_hop_sets(c, o);
    const std::string name = metric == Metric::Latency ? "distance" : "hops";
    QueryEngine fast(c, index.get()), slow(c, nullptr);
    const auto ask = [metric](QueryEngine& q) {
        return [&q, metric](PeId a, PeId b) -> std::uint64_t {
            if (metric == Metric::Hops) return q.hop_count(a, b).value_or(0);
            return static_cast<std::uint64_t>(q.distance(a, b).value_or(0));
        };
    };
    const auto nothing = [] {};
    const auto forget = [&slow] { slow.forget(); };
    for (auto& m : time_sets(in, sets, o, name, " (index)", ask(fast), nothing)) out.push_back(m);
    for (auto& m : time_sets(in, sets, o, name, " (search, no index)", ask(slow), forget))
        out.push_back(m);
    const Pairs pairs = random_pairs(c.num_machines(), o.queries, o.seed + 1);
    out.push_back(time_pairs(in, pairs, o, name + ", random pairs (index)",
                             "per call, random machine pairs", ask(fast), nothing));
    if (c.has_attachments()) {
        // The same pairs between adapters (issue 27): adapter r of one host
        // to adapter r' of the other, r and r' from the pair's PEs; the
        // leaves' distances are kept per leaf as they are asked.
        std::vector<std::vector<AdapterEnd>> ends(c.num_machines());
        for (std::uint32_t m = 0; m < c.num_machines(); ++m)
            for (std::uint32_t p = 0; p < c.attachments(MachineId(m)).size(); ++p)
                ends[m].push_back(AdapterEnd{MachineId(m), {p}});
        AdapterDistances adapters(c);
        const auto end_of = [&](PeId p, std::uint32_t salt) -> const AdapterEnd& {
            const auto& e = ends[c.machine_of(p).value];
            return e[(p.value + salt) % e.size()];
        };
        const auto ask_adapters = [&](PeId a, PeId b) -> std::uint64_t {
            const MachineId ma = c.machine_of(a), mb = c.machine_of(b);
            if (ends[ma.value].empty() || ends[mb.value].empty()) return 0;
            const auto h = metric == Metric::Hops
                               ? adapters.hops(end_of(a, b.value), end_of(b, a.value))
                               : adapters.latency_ps(end_of(a, b.value), end_of(b, a.value));
            return h ? static_cast<std::uint64_t>(h->value) : 0;
        };
        out.push_back(time_pairs(in, pairs, o, name + ", random adapter pairs",
                                 "per call, one adapter of each machine of a random pair",
                                 ask_adapters, nothing));
    }
    const Pairs few(pairs.begin(),
                    pairs.begin() + std::min<std::size_t>(pairs.size(), search_queries(c, o)));
    out.push_back(time_pairs(in, few, o, name + ", random pairs (search)",
                             "per call, a search from each new source", ask(slow), forget));
    if (o.verify) {
        // Every answer the search gave above, given again by the index; then
        // the index from sampled sources to every machine.
        const auto same = [&](PeId a, PeId b) {
            slow.forget();
            const bool ok = metric == Metric::Hops ? fast.hop_count(a, b) == slow.hop_count(a, b)
                                                   : fast.distance(a, b) == slow.distance(a, b);
            if (!ok)
                throw VerifyError(fmt::format("{}: {}: PEs {} and {}: {} and a search disagree",
                                              in.name, name, a.value, b.value,
                                              index->description()));
        };
        for (std::size_t i = 0; i < sets.a.size(); ++i) same(sets.a[i], sets.b[i]);
        for (const auto& [x, y] : few) same(first_pe(c, x), first_pe(c, y));
        std::vector<MachineId> sources = verify_sources(c, o);
        const std::size_t keep_sets = std::min(sets.sources.size(), sources.size());
        sources.insert(sources.end(), sets.sources.begin(), sets.sources.begin() + keep_sets);
        verify_index(in, *index, sources, name);
    }
    return out;
}

// The slow twin of Cluster::proximity: from machine and node lookups alone.
int proximity_by_lookup(const Cluster& c, PeId a, PeId b) {
    if (a == b) return 3;
    if (c.machine_of(a) != c.machine_of(b)) return 0;
    return c.node_of(a) == c.node_of(b) ? 2 : 1;
}

} // namespace

std::vector<Measurement> run_proximity(const Input& in, const RunOptions& o) {
    const Cluster& c = *in.cluster;
    std::vector<PeId> a, b;
    for (const auto& [x, y] : random_pairs(c.num_pes(), o.queries, o.seed)) {
        // Half the pairs inside one machine, so every level is exercised.
        a.emplace_back(x);
        b.emplace_back(y % 2 ? y
                             : c.pes_of_machine(c.machine_of(PeId(x))).first +
                                   y % c.pes_of_machine(c.machine_of(PeId(x))).count);
    }
    Measurement m =
        start(in, "proximity", a.size(), "per call, random PE pairs (half in one machine)");
    for (std::uint32_t r = 0; r < o.repetitions; ++r) {
        std::uint64_t sum = 0;
        const auto t = Clock::now();
        for (std::size_t i = 0; i < a.size(); ++i)
            sum += static_cast<std::uint64_t>(c.proximity(a[i], b[i]));
        keep(sum);
        const double ns = elapsed_ns(t);
        m.ns_per_item.push_back(a.empty() ? 0 : ns / static_cast<double>(a.size()));
    }
    if (o.verify)
        for (std::size_t i = 0; i < a.size(); ++i)
            if (static_cast<int>(c.proximity(a[i], b[i])) != proximity_by_lookup(c, a[i], b[i]))
                throw VerifyError(
                    fmt::format("{}: proximity of PEs {} and {} is {}, lookups say {}", in.name,
                                a[i].value, b[i].value, static_cast<int>(c.proximity(a[i], b[i])),
                                proximity_by_lookup(c, a[i], b[i])));
    return {m};
}

std::vector<Measurement> run_distance(const Input& in, const RunOptions& o) {
    return run_network_query(in, o, Metric::Latency);
}

std::vector<Measurement> run_hops(const Input& in, const RunOptions& o) {
    return run_network_query(in, o, Metric::Hops);
}

} // namespace nettopo::bench
