#include "nettopo/gen/detail/family_check.hpp"

#include "nettopo/query/network_search.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <random>

namespace nettopo {
namespace {

constexpr std::size_t max_listed = 5;

class Report {
public:
    explicit Report(FamilyCheck& check) : check_(check) {}
    template <class... Args> void problem(fmt::format_string<Args...> f, Args&&... args) {
        if (check_.problems.size() < max_listed)
            check_.problems.push_back(fmt::format(f, std::forward<Args>(args)...));
        ++check_.num_problems;
    }

private:
    FamilyCheck& check_;
};

void check_counts(const Family& family, const Cluster& cluster, Report& report) {
    auto same = [&](std::string_view what, std::uint64_t formula, std::uint64_t built) {
        if (formula != built) report.problem("{}: formula {}, built {}", what, formula, built);
    };
    same("machines", family.num_machines(), cluster.num_machines());
    same("switches", family.num_switches(), cluster.num_switches());
    same("links", family.num_links(), cluster.num_net_links());
}

// The family's machines all forward (a direct network's host is its router;
// an indirect family's hosts are leaves, which forwarding does not concern).
void check_forwarding(const Cluster& cluster, Report& report) {
    if (const auto v = first_blocking_end_host(cluster.network()))
        report.problem("machine {} does not forward traffic, but the family's machines do",
                       cluster.vertex_name(*v));
}

void check_degrees(const Family& family, const Cluster& cluster, Report& report) {
    const Network& net = cluster.network();
    for (std::uint32_t v = 0; v < net.num_vertices(); ++v)
        if (family.degree(v) != net.degree(VertexId(v)))
            report.problem("degree of {}: formula {}, built {}", cluster.vertex_name(VertexId(v)),
                           family.degree(v), net.degree(VertexId(v)));
}

// Selection sampling (Knuth's algorithm S): a uniform sample in increasing
// order, without a table of every machine.
std::vector<std::uint32_t> pick_sources(std::uint32_t machines, const FamilyCheckOptions& o) {
    std::vector<std::uint32_t> picked;
    std::mt19937_64 rng(o.seed);
    std::uint64_t needed = std::min<std::uint64_t>(o.sources, machines);
    picked.reserve(needed);
    for (std::uint32_t m = 0; m < machines && needed > 0; ++m)
        if (std::uniform_int_distribution<std::uint64_t>(0, machines - m - 1)(rng) < needed) {
            picked.push_back(m);
            --needed;
        }
    return picked;
}

} // namespace

FamilyCheck check_family(const Family& family, const Cluster& cluster,
                         const FamilyCheckOptions& options) {
    FamilyCheck check;
    Report report(check);
    check_counts(family, cluster, report);
    if (!check.ok()) return check; // degrees and hops would only repeat it
    check_degrees(family, cluster, report);
    check_forwarding(cluster, report);

    const std::uint32_t machines = cluster.num_machines();
    const std::vector<std::uint32_t> sources = pick_sources(machines, options);
    check.all_sources = sources.size() == machines;
    const bool exact = family.hop_rule() == HopRule::Shortest;
    const std::uint32_t diameter = family.diameter(); // not free for every family
    NetworkSearch search(cluster.network());
    std::vector<std::uint32_t> bfs;
    std::uint32_t max_formula = 0;
    ProgressTicker tick(options.progress, "checking hop counts", sources.size(), 1);
    for (std::uint32_t s : sources) {
        search.hops_from(VertexId(s), bfs);
        for (std::uint32_t t = 0; t < machines; ++t) {
            const std::uint32_t formula = family.machine_hops(s, t), found = bfs[t];
            max_formula = std::max(max_formula, formula);
            if (found == NetworkSearch::unreachable_hops) {
                report.problem("{} -> {}: unreachable in the built network",
                               cluster.machine_name(MachineId(s)),
                               cluster.machine_name(MachineId(t)));
                continue;
            }
            check.max_bfs_hops = std::max(check.max_bfs_hops, found);
            if (exact ? formula != found : formula < found)
                report.problem("hops {} -> {}: formula {}, BFS {}",
                               cluster.machine_name(MachineId(s)),
                               cluster.machine_name(MachineId(t)), formula, found);
            // Under minimal routing, the family's shortest hop count (what
            // distance oracles use) must still be BFS's.
            if (!exact && family.shortest_hops(s, t) != found)
                report.problem("shortest hops {} -> {}: formula {}, BFS {}",
                               cluster.machine_name(MachineId(s)),
                               cluster.machine_name(MachineId(t)), family.shortest_hops(s, t),
                               found);
            if (formula > diameter)
                report.problem("hops {} -> {}: formula {} exceeds the diameter {}",
                               cluster.machine_name(MachineId(s)),
                               cluster.machine_name(MachineId(t)), formula, diameter);
        }
        check.pairs += machines;
        tick(++check.sources);
    }
    // Only a search from every machine sees the true diameter; a sample
    // bounds it from below.
    if (exact &&
        (check.all_sources ? check.max_bfs_hops != diameter : check.max_bfs_hops > diameter))
        report.problem("diameter: formula {}, BFS {}{}", diameter,
                       check.all_sources ? "" : "at least ", check.max_bfs_hops);
    if (!exact && check.all_sources && max_formula != diameter)
        report.problem("diameter: formula {}, largest hop count {}", diameter, max_formula);
    if (options.progress) options.progress->finish();
    return check;
}

} // namespace nettopo
