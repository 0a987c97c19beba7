// A cluster's units as the base blocks of Slurm's topology/block plugin.
//
// Slurm's side (topology.conf(5) and topology.yaml(5), "topology/block";
// src/plugins/topology/block/block_record.c, eval_nodes_block.c): each
// "BlockName=NAME Nodes=HOSTLIST" line is a base block; "BlockSizes=" lists
// the base block size, then the larger sizes to enforce, each a power-of-two
// multiple of the base ("Invalid BlockSizes value" otherwise, at most 2^15
// times it). Without BlockSizes the base size is the first block's node
// count. Slurm joins neighbouring blocks in the order of the file into
// aggregated blocks of 2, 4, 8 ... base blocks, and chooses a job's level as
// ceil(nodes / base size) base blocks (_get_block_level). Before 25.05 a
// block with fewer nodes than the base size stopped slurmctld ("Block
// configuration (%s) children count lower than bblock_node_cnt"); a node in
// no block cannot be given to a job under the plugin.
//
// What nettopo writes: one block per unit (model/host_units.hpp), all of one
// size S, BlockSizes=S,2S,4S,... up to the first multiple that holds every
// block (where Slurm's own levels stop). Units of unequal sizes would make
// Slurm plan a level's blocks as S nodes each where they hold more or fewer,
// and hosts on no switch fit no block: both are refused, naming the hosts,
// rather than written so. The units' order is the natural order of their
// first hosts (hosts named along the network give aggregates that follow
// it); each block line ends with a comment naming the unit's switches.
//
// nettopo's reader (slurm_topology_reader.cpp) reads each block back as a
// switch of that name with the block's hosts, below a switch "blocks".
#include "nettopo/fabric/slurm_block_writer.hpp"

#include "fabric/slurm_text.hpp"
#include "nettopo/model/host_units.hpp"
#include "nettopo/support/detail/atomic_file.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace nettopo {

namespace {

// Slurm's largest level: BlockSizes' multiples are 2^0 .. 2^15 times the base.
constexpr unsigned max_block_level = 15;
// Units of another size named in the refusal, at most.
constexpr std::size_t units_shown = 6;

struct Block {
    std::string nodes;    // compressed hostlist
    std::string switches; // for the comment; empty when a name cannot be shown plainly
};

struct SlurmBlocks {
    std::string cluster_name;
    std::vector<Block> blocks;
    std::vector<std::uint64_t> sizes; // BlockSizes
};

std::vector<std::string> natural_names(const Cluster& cluster, const HostUnit& u) {
    std::vector<std::string> names;
    names.reserve(u.machines.size());
    for (const MachineId m : u.machines) names.emplace_back(cluster.machine_name(m));
    std::sort(names.begin(), names.end(), natural_less);
    return names;
}

std::vector<std::string> switch_names(const Cluster& cluster, const HostUnit& u) {
    std::vector<std::string> names;
    for (const SwitchId s : u.switches) names.emplace_back(cluster.switch_name(s));
    std::sort(names.begin(), names.end(), natural_less);
    return names;
}

// The size most units have; of two as common, the larger.
std::size_t common_size(const std::vector<HostUnit>& units) {
    std::map<std::size_t, std::size_t> count;
    for (const HostUnit& u : units) ++count[u.machines.size()];
    std::size_t best = 0, best_count = 0;
    for (const auto& [size, n] : count)
        if (n >= best_count) {
            best = size;
            best_count = n;
        }
    return best;
}

SlurmBlocks slurm_blocks(const Cluster& cluster) {
    for (std::uint32_t m = 0; m < cluster.num_machines(); ++m)
        check_slurm_name("machine", cluster.machine_name(MachineId(m)));
    if (cluster.num_machines() == 0)
        throw InputError("the cluster has no machine: Slurm's topology/block needs a block");
    std::vector<HostUnit> units = host_units(cluster);

    for (const HostUnit& u : units)
        if (u.switches.empty())
            throw InputError(fmt::format(
                "{} linked to no switch fit no block of Slurm's topology/block (a block is "
                "the hosts cabled to exactly the same switches): {}",
                u.machines.size() == 1 ? "a machine"
                                       : fmt::format("{} machines", u.machines.size()),
                hostlist_excerpt(natural_names(cluster, u))));

    const std::size_t size = common_size(units);
    std::vector<std::string> odd;
    std::size_t odd_units = 0, common_units = 0;
    for (const HostUnit& u : units) {
        if (u.machines.size() == size) {
            ++common_units;
            continue;
        }
        if (++odd_units > units_shown) continue;
        odd.push_back(fmt::format(
            "{} ({} host{} on {})", hostlist_excerpt(natural_names(cluster, u)), u.machines.size(),
            u.machines.size() == 1 ? "" : "s", hostlist_excerpt(switch_names(cluster, u))));
    }
    if (odd_units > 0) {
        std::string list;
        for (const std::string& o : odd) {
            if (!list.empty()) list += "; ";
            list += o;
        }
        if (odd_units > odd.size()) list += fmt::format("; and {} more", odd_units - odd.size());
        throw InputError(fmt::format(
            "the units (hosts cabled to exactly the same switches) differ in size, and Slurm's "
            "topology/block plans jobs in base blocks of one size: {} of the {} units {} {} "
            "host{}; the other {}: {}",
            common_units, units.size(), common_units == 1 ? "has" : "have", size,
            size == 1 ? "" : "s", odd_units, list));
    }

    std::vector<std::vector<std::string>> hosts;
    hosts.reserve(units.size());
    for (const HostUnit& u : units) hosts.push_back(natural_names(cluster, u));
    std::vector<std::size_t> order(units.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return natural_less(hosts[a].front(), hosts[b].front());
    });

    SlurmBlocks out;
    out.cluster_name = cluster.name();
    for (const std::size_t i : order) {
        Block b;
        b.nodes = compress_hostlist(hosts[i]);
        const std::vector<std::string> sw = switch_names(cluster, units[i]);
        b.switches = hostlist_excerpt(sw, sw.size());
        for (const std::string& s : sw) try {
                check_slurm_name("switch", s);
            } catch (const InputError&) {
                b.switches.clear(); // not a plain token: no comment rather than a broken line
                break;
            }
        out.blocks.push_back(std::move(b));
    }
    // S, 2S, 4S, ... up to the first level that holds every block.
    for (unsigned level = 0; level <= max_block_level; ++level) {
        const std::uint64_t blocks = std::uint64_t{1} << level;
        const std::uint64_t nodes = blocks * size;
        if (nodes > std::uint64_t(std::numeric_limits<std::int32_t>::max())) break;
        out.sizes.push_back(nodes);
        if (blocks >= out.blocks.size()) break;
    }
    if (out.sizes.empty())
        throw InputError(fmt::format("units of {} hosts are more than Slurm's BlockSizes can "
                                     "hold (a 32-bit integer)",
                                     size));
    return out;
}

std::string sizes_list(const std::vector<std::uint64_t>& sizes) {
    std::string s;
    for (const std::uint64_t n : sizes) {
        if (!s.empty()) s += ',';
        s += std::to_string(n);
    }
    return s;
}

} // namespace

void write_slurm_block_topology(const Cluster& cluster, std::ostream& out) {
    const SlurmBlocks b = slurm_blocks(cluster);
    std::string text = slurm_header("topology.conf", "topology/block", b.cluster_name);
    text += "# A block is a unit: the hosts cabled to exactly the same switches (after '#')\n";
    for (std::size_t i = 0; i < b.blocks.size(); ++i) {
        text += fmt::format("BlockName=b{} Nodes={}", i + 1, b.blocks[i].nodes);
        if (!b.blocks[i].switches.empty()) text += " # " + b.blocks[i].switches;
        text += '\n';
    }
    text += fmt::format("BlockSizes={}\n", sizes_list(b.sizes));
    out << text;
}

void write_slurm_block_topology_yaml(const Cluster& cluster, std::ostream& out) {
    const SlurmBlocks b = slurm_blocks(cluster);
    std::string text = slurm_header("topology.yaml", "topology/block", b.cluster_name);
    text += "# A block is a unit: the hosts cabled to exactly the same switches (after '#')\n";
    text += "---\n- topology: default\n  cluster_default: true\n  block:\n    block_sizes:\n";
    for (const std::uint64_t n : b.sizes) text += fmt::format("      - {}\n", n);
    text += "    blocks:\n";
    for (std::size_t i = 0; i < b.blocks.size(); ++i) {
        text += fmt::format("      - block: b{}", i + 1);
        if (!b.blocks[i].switches.empty()) text += " # " + b.blocks[i].switches;
        text += fmt::format("\n        nodes: {}\n", slurm_yaml_value(b.blocks[i].nodes));
    }
    out << text;
}

void save_slurm_block_topology(const Cluster& cluster, const std::string& path) {
    std::ostringstream text; // units that are no blocks write nothing
    write_slurm_block_topology(cluster, text);
    write_atomically(path, [&](std::ostream& out) { out << text.str(); });
}

void save_slurm_block_topology_yaml(const Cluster& cluster, const std::string& path) {
    std::ostringstream text;
    write_slurm_block_topology_yaml(cluster, text);
    write_atomically(path, [&](std::ostream& out) { out << text.str(); });
}

} // namespace nettopo
