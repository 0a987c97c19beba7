#include "nettopo/query/summary.hpp"

#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/network_search.hpp"
#include "nettopo/support/detail/text.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <span>
#include <string_view>
#include <unordered_map>

namespace nettopo {

namespace {

// Largest finite machine-to-machine hop count seen from `from`, and the
// machine where it is reached.
std::pair<std::uint32_t, std::uint32_t> farthest_machine(NetworkSearch& search, const Network& net,
                                                         VertexId from,
                                                         std::vector<std::uint32_t>& hops) {
    search.hops_from(from, hops);
    std::pair<std::uint32_t, std::uint32_t> best{0, from.value};
    for (std::uint32_t m = 0; m < net.num_machines(); ++m)
        if (hops[m] != NetworkSearch::unreachable_hops && hops[m] > best.first) best = {hops[m], m};
    return best;
}

// Exact while a BFS from every machine stays within the budget, else a
// lower bound from a double sweep (and `exact` is cleared).
std::uint32_t diameter_by_search(const Network& net, bool& exact) {
    NetworkSearch search(net);
    std::vector<std::uint32_t> hops;
    const std::uint64_t work = std::uint64_t{net.num_machines()} *
                               (net.num_vertices() + 2 * std::uint64_t{net.num_links()});
    if (work <= exact_diameter_budget) {
        std::uint32_t diameter = 0;
        for (std::uint32_t m = 0; m < net.num_machines(); ++m)
            diameter = std::max(diameter, farthest_machine(search, net, VertexId(m), hops).first);
        return diameter;
    }
    exact = false;
    auto [d1, far] = farthest_machine(search, net, VertexId(0), hops);
    return std::max(d1, farthest_machine(search, net, VertexId(far), hops).first);
}

} // namespace

HopDistribution machine_hop_distribution(const Cluster& cluster, std::uint32_t max_sources,
                                         IndexUse use) {
    HopDistribution d;
    const std::uint32_t machines = cluster.num_machines();
    d.all_sources = machines <= max_sources;
    const std::uint32_t sources = d.all_sources ? machines : max_sources;
    // One search answers a whole row: the rule weighs `sources` searches
    // against building the index, whose rows are then looked up.
    DistancePolicy policy;
    policy.use = use;
    policy.questions = sources;
    DistancePlan plan = plan_distances(cluster, policy);
    const std::shared_ptr<const DistanceIndex> index =
        plan.kind() == DistanceIndexKind::Search ? nullptr
                                                 : build_distances(cluster, std::move(plan));
    // Twins: machines with the same neighbours are as far from any other
    // machine (the last hop into one comes from one of those neighbours), so
    // a row is looked up once per class of twins, and shared by the sampled
    // sources of one class (a rail-optimized unit's 32 hosts are one class:
    // 10^4 hosts, 4096 sources, 313 classes).
    const Network& net = cluster.network();
    std::vector<std::uint32_t> class_of(machines), class_size, member; // member: two per class
    {
        std::unordered_map<std::string_view, std::uint32_t> classes;
        for (std::uint32_t m = 0; m < machines; ++m) {
            const std::span<const VertexId> n = net.neighbors(VertexId(m));
            const std::string_view key(reinterpret_cast<const char*>(n.data()),
                                       n.size() * sizeof(VertexId));
            // An empty list keys as "" whatever its pointer: one class.
            const auto [it, added] =
                classes.try_emplace(key, static_cast<std::uint32_t>(class_size.size()));
            if (added) {
                class_size.push_back(0);
                member.insert(member.end(), {m, m});
            }
            if (++class_size[it->second] == 2) member[2 * it->second + 1] = m;
            class_of[m] = it->second;
        }
    }
    const auto classes = static_cast<std::uint32_t>(class_size.size());
    NetworkSearch search(net);
    std::vector<std::uint32_t> hops(machines);
    std::vector<std::uint32_t> row(classes);
    std::uint32_t row_class = ~0u; // the class of the sources `row` answers for
    const auto add = [&](std::uint32_t h, std::uint64_t n) {
        if (n == 0) return;
        if (h == NetworkSearch::unreachable_hops) {
            d.unreachable_pairs += n;
            return;
        }
        if (h >= d.pairs_at_hops.size()) d.pairs_at_hops.resize(h + 1, 0);
        d.pairs_at_hops[h] += n;
    };
    for (std::uint32_t i = 0; i < sources; ++i) {
        // Evenly spread over the machine ids when sampling: deterministic.
        const auto s = static_cast<std::uint32_t>(std::uint64_t{i} * machines / sources);
        const std::uint32_t c = class_of[s];
        if (c != row_class) {
            // A twin of s's own class, other than s, answers for them all.
            const auto target = [&](std::uint32_t k) {
                return member[2 * k] != s ? member[2 * k] : member[2 * k + 1];
            };
            if (index) {
                for (std::uint32_t k = 0; k < classes; ++k) {
                    const std::uint32_t h = index->hops(MachineId(s), MachineId(target(k)));
                    row[k] =
                        h == DistanceIndex::unreachable_hops ? NetworkSearch::unreachable_hops : h;
                }
            } else {
                search.hops_from(VertexId(s), hops);
                for (std::uint32_t k = 0; k < classes; ++k) row[k] = hops[target(k)];
            }
            row_class = c;
        }
        for (std::uint32_t k = 0; k < classes; ++k) add(row[k], class_size[k] - (k == c));
    }
    d.sources = sources;
    return d;
}

ClusterSummary summarize(const Cluster& c, const HopDistribution* known) {
    const Network& net = c.network();
    ClusterSummary s{};
    s.name = c.name();
    s.pes = c.num_pes();
    s.machines = c.num_machines();
    s.nodes = c.num_nodes();
    s.switches = c.num_switches();
    s.types = c.num_types();
    s.links = c.num_net_links();
    s.min_degree = ~0u;
    for (std::uint32_t v = 0; v < net.num_vertices(); ++v) {
        s.min_degree = std::min(s.min_degree, net.degree(VertexId(v)));
        s.max_degree = std::max(s.max_degree, net.degree(VertexId(v)));
    }
    s.end_hosts = net.num_end_hosts();
    const Components comp = connected_components(net);
    s.components = comp.count;
    if (net.all_forward()) {
        for (std::uint32_t m = 1; m < net.num_machines(); ++m)
            s.machines_reach_each_other &= comp.label[m] == comp.label[0];
    } else {
        s.machines_reach_each_other = !unreachable_machines(net).has_value();
    }

    if (known && known->all_sources) {
        s.diameter_hops = known->pairs_at_hops.empty()
                              ? 0
                              : static_cast<std::uint32_t>(known->pairs_at_hops.size() - 1);
    } else {
        s.diameter_hops = diameter_by_search(net, s.diameter_exact);
    }

    std::vector<std::uint32_t> machines_of_type(c.num_types(), 0);
    const auto runs = c.runs();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::uint32_t end =
            i + 1 < runs.size() ? runs[i + 1].first_machine : c.num_machines();
        machines_of_type[runs[i].type.value] += end - runs[i].first_machine;
    }
    for (std::uint32_t t = 0; t < c.num_types(); ++t) {
        const MachineType& type = c.type(TypeId(t));
        const bool automatic = !type.requested_node_level().type;
        std::string level = fmt::format("{} ({}", to_string(type.node_type()),
                                        automatic ? "automatic" : "requested");
        if (const std::uint32_t outside = type.pus_outside_node_level())
            level += fmt::format(
                "; {} of {} PEs in no {}: {}", outside, type.num_pus(), to_string(type.node_type()),
                type.tree().count(ObjectType::Core) ? "nodes by core" : "one node each");
        std::vector<ClusterSummary::KindInfo> kinds;
        const MachineTree& tree = type.tree();
        for (std::uint32_t k = 0; k < tree.cpu_kinds().size(); ++k) {
            ClusterSummary::KindInfo& info = kinds.emplace_back();
            info.kind = tree.cpu_kinds()[k];
            info.pus = tree.pus_of_cpu_kind(k);
            for (const std::uint32_t pu : info.pus)
                info.os_indexes.push_back(tree.object(tree.pu(pu)).os_index);
            if (std::find(info.os_indexes.begin(), info.os_indexes.end(), unknown_os_index) !=
                info.os_indexes.end())
                info.os_indexes.clear();
        }
        s.machine_types.push_back({type.description(), level + ")", machines_of_type[t],
                                   type.num_pus(), type.num_nodes(), std::move(kinds)});
    }
    return s;
}

} // namespace nettopo
