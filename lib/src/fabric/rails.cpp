// Rails inferred from where each host's adapters are cabled (rails.hpp has
// the rule; share/doc/clusters.md the reasons for its thresholds).
#include "nettopo/fabric/rails.hpp"

#include "nettopo/support/detail/parse.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <set>
#include <unordered_map>

namespace nettopo {

namespace {

// "rail 3", "rails 0 and 2", "rails 0, 1 and 5".
std::string rails_text(const std::vector<std::uint32_t>& indexes) {
    if (indexes.size() == 1) return fmt::format("rail {}", indexes.front());
    std::string text = "rails ";
    for (std::size_t i = 0; i < indexes.size(); ++i)
        text += fmt::format("{}{}",
                            i == 0                    ? ""
                            : i + 1 == indexes.size() ? " and "
                                                      : ", ",
                            indexes[i]);
    return text;
}

// An adapter of a host, with its index, cabled to a switch.
struct Placed {
    std::uint32_t host;
    std::uint32_t index;
    std::uint32_t leaf; // fabric node
    const FabricAdapter* adapter;
};

} // namespace

std::string Rails::summary() const {
    if (rails.empty()) return "none";
    std::vector<std::uint32_t> leaves_of;
    for (const Rail& r : rails) leaves_of.push_back(r.leaves);
    const auto [lo, hi] = std::minmax_element(leaves_of.begin(), leaves_of.end());
    return fmt::format(
        "{}, {} leaves each; {} of {} leaves serve one rail; {} hosts on rails, "
        "{} other{}",
        rails.size(), *lo == *hi ? fmt::format("{}", *lo) : fmt::format("{}-{}", *lo, *hi),
        single_rail_leaves, leaves.size(), rail_hosts, other_hosts, other_hosts == 1 ? "" : "s");
}

Rails infer_rails(const Fabric& fabric) {
    Rails out;
    // Every indexed adapter's cabled ports into switches, by host.
    std::vector<Placed> placed;
    std::set<std::uint32_t> hosts_with_adapters;
    for (const FabricAdapter& a : fabric.adapters) {
        hosts_with_adapters.insert(a.host);
        const auto index = adapter_index(a.device);
        if (!index) continue;
        // An adapter counts once per switch, however many of its ports go there.
        const std::size_t first = placed.size();
        for (const FabricAdapter::Port& p : a.ports)
            if (fabric.nodes[p.peer].is_switch &&
                std::none_of(placed.begin() + static_cast<std::ptrdiff_t>(first), placed.end(),
                             [&](const Placed& q) { return q.leaf == p.peer; }))
                placed.push_back({a.host, *index, p.peer, &a});
    }
    // Rail hosts: two indexes on two switches at least.
    std::map<std::uint32_t, std::vector<const Placed*>> by_host;
    for (const Placed& p : placed) by_host[p.host].push_back(&p);
    std::set<std::uint32_t> rail_hosts;
    for (const auto& [host, list] : by_host) {
        std::set<std::uint32_t> indexes, leaves;
        for (const Placed* p : list) {
            indexes.insert(p->index);
            leaves.insert(p->leaf);
        }
        if (indexes.size() >= 2 && leaves.size() >= 2) rail_hosts.insert(host);
    }
    out.rail_hosts = static_cast<std::uint32_t>(rail_hosts.size());
    out.other_hosts = static_cast<std::uint32_t>(hosts_with_adapters.size() - rail_hosts.size());
    if (rail_hosts.empty()) return out;

    // Each leaf's adapters by index, and what it serves.
    std::map<std::uint32_t, std::map<std::uint32_t, std::uint32_t>> counts; // leaf -> index -> n
    for (const Placed& p : placed)
        if (rail_hosts.contains(p.host)) ++counts[p.leaf][p.index];
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> serves;
    std::uint32_t single = 0;
    for (const auto& [leaf, by_index] : counts) {
        std::uint32_t total = 0, most = 0;
        for (const auto& [index, n] : by_index) {
            total += n;
            most = std::max(most, n);
        }
        std::vector<std::uint32_t>& s = serves[leaf];
        for (const auto& [index, n] : by_index)
            if (n >= 2 && 4 * n >= total) s.push_back(index);
        if (s.empty())
            for (const auto& [index, n] : by_index)
                if (n == most) s.push_back(index);
        if (s.size() == 1) ++single;
        RailLeaf l;
        l.name = fabric.nodes[leaf].name;
        l.adapters.assign(by_index.begin(), by_index.end());
        l.serves = s;
        out.leaves.push_back(std::move(l));
    }
    std::sort(out.leaves.begin(), out.leaves.end(),
              [](const RailLeaf& a, const RailLeaf& b) { return natural_less(a.name, b.name); });
    out.single_rail_leaves = single;

    // The rails: every index some leaf serves.
    std::map<std::uint32_t, Rail> rails;
    for (const auto& [leaf, s] : serves)
        for (const std::uint32_t index : s) {
            rails[index].index = index;
            ++rails[index].leaves;
        }
    std::map<std::uint32_t, std::set<std::uint32_t>> indexes_of; // rail host -> its indexes
    for (const Placed& p : placed)
        if (rail_hosts.contains(p.host)) indexes_of[p.host].insert(p.index);
    for (const auto& [host, indexes] : indexes_of)
        for (const std::uint32_t index : indexes)
            if (const auto it = rails.find(index); it != rails.end()) ++it->second.hosts;
    for (const auto& [index, rail] : rails) out.rails.push_back(rail);

    // Problems, in the order of the hosts' (then the leaves') names.
    std::vector<RailProblem> problems;
    for (const Placed& p : placed) {
        if (!rail_hosts.contains(p.host)) continue;
        const std::vector<std::uint32_t>& s = serves[p.leaf];
        if (std::find(s.begin(), s.end(), p.index) != s.end()) continue;
        RailProblem r;
        r.kind = RailProblem::Kind::wrong_leaf;
        r.host = fabric.nodes[p.host].name;
        r.adapter = p.adapter->device;
        r.leaf = fabric.nodes[p.leaf].name;
        r.index = p.index;
        r.serves = s;
        r.text = fmt::format("{} {} (rail {}) is cabled to leaf {}, which serves {}", r.host,
                             r.adapter, r.index, r.leaf, rails_text(s));
        problems.push_back(std::move(r));
    }
    // Neighbours: the rail hosts sharing a leaf.
    std::map<std::uint32_t, std::set<std::uint32_t>> hosts_on; // leaf -> rail hosts
    for (const Placed& p : placed)
        if (rail_hosts.contains(p.host)) hosts_on[p.leaf].insert(p.host);
    for (const auto& [host, indexes] : indexes_of) {
        std::set<std::uint32_t> neighbours;
        for (const Placed* p : by_host[host])
            for (const std::uint32_t n : hosts_on[p->leaf])
                if (n != host) neighbours.insert(n);
        if (neighbours.size() < 2) continue;
        // Only a host with fewer adapters than most of its neighbours misses
        // one: hosts of another kind (other indexes, as many) share leaves too.
        std::size_t more = 0;
        std::map<std::uint32_t, std::uint32_t> having; // index -> neighbours with it
        for (const std::uint32_t n : neighbours) {
            more += indexes_of[n].size() > indexes.size();
            for (const std::uint32_t index : indexes_of[n]) ++having[index];
        }
        if (2 * more <= neighbours.size()) continue;
        for (const auto& [index, n] : having) {
            if (indexes.contains(index) || 2 * n <= neighbours.size()) continue;
            RailProblem r;
            r.kind = RailProblem::Kind::missing_rail;
            r.host = fabric.nodes[host].name;
            r.index = index;
            r.text = fmt::format("{} has no adapter on rail {}, which {} of the {} hosts sharing "
                                 "its leaves have",
                                 r.host, index, n, neighbours.size());
            problems.push_back(std::move(r));
        }
    }
    // A leaf serving several rails is by design when its hosts put two of
    // them there themselves (fire-cs7500's lassen hosts), or when the hosts
    // do not keep one rail per leaf elsewhere either (storage hosts
    // alternating their two adapters over a pair of leaves): a problem only
    // when each host brings one of the rails and the same hosts keep one
    // rail per leaf on their other leaves.
    for (const auto& [leaf, by_index] : counts) {
        const std::vector<std::uint32_t>& s = serves[leaf];
        if (s.size() < 2) continue;
        std::size_t colocating = 0, elsewhere = 0, elsewhere_single = 0;
        for (const std::uint32_t host : hosts_on[leaf]) {
            std::set<std::uint32_t> here;
            for (const Placed* p : by_host[host]) {
                if (p->leaf == leaf) {
                    if (std::find(s.begin(), s.end(), p->index) != s.end()) here.insert(p->index);
                } else if (rail_hosts.contains(host)) {
                    ++elsewhere;
                    elsewhere_single += serves[p->leaf].size() == 1;
                }
            }
            colocating += here.size() >= 2;
        }
        if (2 * colocating >= hosts_on[leaf].size() || 4 * elsewhere_single < 3 * elsewhere)
            continue;
        RailProblem r;
        r.kind = RailProblem::Kind::mixed_leaf;
        r.leaf = fabric.nodes[leaf].name;
        r.serves = s;
        std::vector<std::string> parts;
        for (const std::uint32_t index : s)
            parts.push_back(fmt::format("{} on rail {}", by_index.at(index), index));
        r.text = fmt::format("leaf {} serves {}: its hosts bring one each ({} adapters), and "
                             "keep one rail per leaf elsewhere",
                             r.leaf, rails_text(s), fmt::join(parts, ", "));
        problems.push_back(std::move(r));
    }
    std::stable_sort(problems.begin(), problems.end(),
                     [](const RailProblem& a, const RailProblem& b) {
                         const std::string& x = a.host.empty() ? a.leaf : a.host;
                         const std::string& y = b.host.empty() ? b.leaf : b.host;
                         return natural_less(x, y);
                     });
    out.problems = std::move(problems);
    return out;
}

Rails infer_rails(const Cluster& cluster) {
    if (!cluster.has_attachments()) return {};
    // The cluster's vertices as the fabric's nodes (the same indexes).
    Fabric f;
    const std::uint32_t machines = cluster.num_machines();
    f.nodes.resize(std::size_t{machines} + cluster.num_switches());
    for (std::uint32_t v = 0; v < f.nodes.size(); ++v) {
        f.nodes[v].name = std::string(cluster.vertex_name(VertexId(v)));
        f.nodes[v].is_switch = v >= machines;
    }
    for (std::uint32_t m = 0; m < machines; ++m)
        for (const Attachment& a : cluster.attachments(MachineId(m))) {
            if (f.adapters.empty() || f.adapters.back().host != m ||
                f.adapters.back().device != a.device)
                f.adapters.push_back({m, a.guid, a.device, a.device});
            f.adapters.back().ports.push_back({a.port, a.peer.value, 0});
        }
    return infer_rails(f);
}

} // namespace nettopo
