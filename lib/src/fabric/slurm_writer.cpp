// A cluster's network as a Slurm topology.conf or topology.yaml for the
// topology/tree plugin.
//
// Slurm's tree (topology.conf(5), plugins/topology/tree/switch_record.c):
// each switch has either child nodes (Nodes=) or child switches (Switches=),
// never both ("switch %s has both child switches and nodes") and not neither
// (older Slurm: "Switch configuration (%s) lacks children"); a switch may be
// listed by several parents, and a node under several leaf switches is
// accepted (Slurm warns). So we refuse: a machine linked to another machine
// or to no switch, a switch from which no machine can be reached, and two
// linked switches that both have machines (one would need both keys).
//
// Which end of a switch-switch link is the parent: the network is
// undirected, so we orient by the distance (in links) to the nearest
// machine: the farther switch is the parent. Between two switches equally
// far (the network alone cannot tell which is above), the one whose name
// sorts last in natural order is the parent, as in the usual namings where
// names grow upwards ("s3" above "s0", "s2-0" above "s1-0", "root" or "top"
// above "mid"): a guess, but deterministic, and it never makes a cycle. Leaf
// switches (with machines) are at distance 0, so every other switch has a
// child.
//
// Output: a header comment, then one line per switch ordered by height (0
// for a leaf switch, else 1 + the highest child), then by name in natural
// order ("s2" before "s10"); the machines and child switches of a line are in
// natural order, as compressed hostlists. Latency and parallel-cable counts
// have no place in the file. LinkSpeed (topology.conf only; "arbitrary units",
// unused by Slurm, read as a 32-bit integer) is written on a switch's line
// when every link from it down to its children has one known bandwidth: that
// bandwidth in Mbit/s, so that every InfiniBand and Ethernet rate is an
// integer. topology.yaml's tree has no key for it. The reader ignores
// LinkSpeed (in files it did not write the unit is anyone's guess), so
// writing, reading back and writing again gives the same switches, nodes and
// links, without LinkSpeed.
//
// topology.yaml (Slurm 23.11+, topology.yaml(5)): one topology named
// "default", the cluster default, of type tree, whose switches are the lines
// of topology.conf in the same order ("switch:" with "nodes:" or
// "children:").
#include "nettopo/fabric/slurm_writer.hpp"

#include "fabric/slurm_text.hpp"
#include "nettopo/support/detail/atomic_file.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

namespace {

// Slurm: "This field must be specified and cannot be longer than 64 characters."
constexpr std::size_t max_switch_name = 64;

// One line of the file: a switch with its nodes or its child switches, as a
// compressed hostlist, and the Mbit/s of the links to them when one is known.
struct SwitchLine {
    std::string_view name;
    bool leaf = false; // children are nodes (Nodes=), else switches (Switches=)
    std::string children;
    std::optional<std::uint64_t> link_speed_mbps;
};

struct SlurmTree {
    std::string cluster_name;
    std::vector<SwitchLine> lines;
};

// LinkSpeed: the bandwidth shared by every link from the switch down to its
// children, in Mbit/s (an integer, as Slurm reads it), or none when one of
// them is unknown or they differ.
std::optional<std::uint64_t> link_speed(const std::vector<double>& gbps) {
    if (gbps.empty() || gbps.front() <= 0) return std::nullopt;
    for (const double b : gbps)
        if (b != gbps.front()) return std::nullopt;
    const double mbps = std::round(gbps.front() * 1000.0);
    if (mbps < 1 || mbps > double(std::numeric_limits<std::uint32_t>::max())) return std::nullopt;
    return static_cast<std::uint64_t>(mbps);
}

SlurmTree slurm_tree(const Cluster& cluster) {
    const Network& net = cluster.network();
    const std::uint32_t machines = cluster.num_machines();
    const std::uint32_t switches = cluster.num_switches();

    for (std::uint32_t m = 0; m < machines; ++m)
        check_slurm_name("machine", cluster.machine_name(MachineId(m)));
    for (std::uint32_t s = 0; s < switches; ++s) {
        const std::string_view name = cluster.switch_name(SwitchId(s));
        check_slurm_name("switch", name);
        if (name.size() > max_switch_name)
            throw InputError(fmt::format("switch '{}' has a name longer than the {} characters "
                                         "Slurm accepts",
                                         name, max_switch_name));
    }

    // Every machine on at least one switch and on no machine.
    for (std::uint32_t m = 0; m < machines; ++m) {
        const std::string_view name = cluster.machine_name(MachineId(m));
        bool on_switch = false;
        for (const VertexId v : net.neighbors(cluster.vertex(MachineId(m)))) {
            if (net.is_machine(v))
                throw InputError(fmt::format(
                    "machine '{}' is linked to machine '{}': Slurm's topology/tree holds only "
                    "machines attached to switches (a direct network cannot be written)",
                    name, cluster.vertex_name(v)));
            on_switch = true;
        }
        if (!on_switch)
            throw InputError(fmt::format("machine '{}' is linked to no switch: Slurm's "
                                         "topology/tree needs every machine under a switch",
                                         name));
    }

    // Per switch: its machines and its neighbouring switches, with the
    // bandwidths of the links to its machines.
    std::vector<std::vector<std::string_view>> hosts(switches);
    std::vector<std::vector<double>> host_gbps(switches);
    std::vector<std::vector<std::uint32_t>> peers(switches);
    std::vector<std::vector<double>> peer_gbps(switches);
    for (std::uint32_t s = 0; s < switches; ++s) {
        const VertexId sv = cluster.vertex(SwitchId(s));
        const auto around = net.neighbors(sv);
        const auto link_ids = net.neighbor_links(sv);
        for (std::size_t i = 0; i < around.size(); ++i) {
            const VertexId v = around[i];
            const double gbps = net.links()[link_ids[i]].bandwidth_gbps;
            if (net.is_machine(v)) {
                hosts[s].push_back(cluster.vertex_name(v));
                host_gbps[s].push_back(gbps);
            } else {
                peers[s].push_back(cluster.switch_of_vertex(v).value);
                peer_gbps[s].push_back(gbps);
            }
        }
    }
    const auto name_of = [&](std::uint32_t s) { return cluster.switch_name(SwitchId(s)); };
    // Distance to the nearest machine, from the leaf switches down.
    constexpr std::uint32_t unreached = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> dist(switches, unreached);
    std::deque<std::uint32_t> queue;
    for (std::uint32_t s = 0; s < switches; ++s)
        if (!hosts[s].empty()) {
            dist[s] = 0;
            queue.push_back(s);
        }
    while (!queue.empty()) {
        const std::uint32_t s = queue.front();
        queue.pop_front();
        for (const std::uint32_t t : peers[s])
            if (dist[t] == unreached) {
                dist[t] = dist[s] + 1;
                queue.push_back(t);
            }
    }
    for (std::uint32_t s = 0; s < switches; ++s) {
        if (dist[s] == unreached)
            throw InputError(fmt::format("switch '{}' leads to no machine: Slurm's topology/tree "
                                         "needs every switch to have nodes or switches below it",
                                         name_of(s)));
        if (dist[s] == 0)
            for (const std::uint32_t t : peers[s])
                if (dist[t] == 0)
                    throw InputError(fmt::format(
                        "switches '{}' and '{}' both have machines and are linked to each other: "
                        "in Slurm's topology/tree a switch has either nodes or child switches",
                        name_of(s), name_of(t)));
    }

    // Parent/child orientation and heights, children before parents.
    const auto is_parent = [&](std::uint32_t u, std::uint32_t v) {
        if (dist[u] != dist[v]) return dist[u] > dist[v];
        return natural_less(name_of(v), name_of(u));
    };
    std::vector<std::uint32_t> order(switches);
    for (std::uint32_t s = 0; s < switches; ++s) order[s] = s;
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t u, std::uint32_t v) { return is_parent(v, u); });
    std::vector<std::uint32_t> height(switches, 0);
    std::vector<std::vector<std::string_view>> children(switches);
    std::vector<std::vector<double>> children_gbps(switches);
    for (const std::uint32_t u : order)
        for (std::size_t i = 0; i < peers[u].size(); ++i) {
            const std::uint32_t v = peers[u][i];
            if (is_parent(u, v)) {
                height[u] = std::max(height[u], height[v] + 1);
                children[u].push_back(name_of(v));
                children_gbps[u].push_back(peer_gbps[u][i]);
            }
        }

    std::sort(order.begin(), order.end(), [&](std::uint32_t u, std::uint32_t v) {
        if (height[u] != height[v]) return height[u] < height[v];
        return natural_less(name_of(u), name_of(v));
    });

    SlurmTree tree;
    tree.cluster_name = cluster.name();
    const auto names_list = [](std::vector<std::string_view>& names) {
        std::sort(names.begin(), names.end(), natural_less);
        return compress_hostlist(std::vector<std::string>(names.begin(), names.end()));
    };
    for (const std::uint32_t s : order) {
        SwitchLine line;
        line.name = name_of(s);
        line.leaf = !hosts[s].empty();
        line.children = line.leaf ? names_list(hosts[s]) : names_list(children[s]);
        line.link_speed_mbps = link_speed(line.leaf ? host_gbps[s] : children_gbps[s]);
        tree.lines.push_back(std::move(line));
    }
    return tree;
}

} // namespace

void write_slurm_topology(const Cluster& cluster, std::ostream& out) {
    const SlurmTree tree = slurm_tree(cluster);
    std::string text = slurm_header("topology.conf", "", tree.cluster_name);
    if (std::any_of(tree.lines.begin(), tree.lines.end(),
                    [](const SwitchLine& l) { return l.link_speed_mbps.has_value(); }))
        text += "# LinkSpeed: Mbit/s of each link from the switch down to its children\n";
    for (const SwitchLine& l : tree.lines) {
        text +=
            fmt::format("SwitchName={} {}={}", l.name, l.leaf ? "Nodes" : "Switches", l.children);
        if (l.link_speed_mbps) text += fmt::format(" LinkSpeed={}", *l.link_speed_mbps);
        text += '\n';
    }
    out << text;
}

void write_slurm_topology_yaml(const Cluster& cluster, std::ostream& out) {
    const SlurmTree tree = slurm_tree(cluster);
    std::string text = slurm_header("topology.yaml", "", tree.cluster_name);
    text += "---\n- topology: default\n  cluster_default: true\n  tree:\n    switches:\n";
    for (const SwitchLine& l : tree.lines)
        text += fmt::format("      - switch: {}\n        {}: {}\n", slurm_yaml_value(l.name),
                            l.leaf ? "nodes" : "children", slurm_yaml_value(l.children));
    out << text;
}

void save_slurm_topology(const Cluster& cluster, const std::string& path) {
    std::ostringstream text; // a network that is not a tree writes nothing
    write_slurm_topology(cluster, text);
    write_atomically(path, [&](std::ostream& out) { out << text.str(); });
}

} // namespace nettopo
