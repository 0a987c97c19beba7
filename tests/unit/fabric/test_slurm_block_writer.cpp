// Slurm's topology/block written from a cluster's units
// (fabric/slurm_block_writer.hpp): the text on a rail-optimized fabric, the
// round trip through nettopo's reader (each block back as a switch with its
// hosts) on random fabrics against a brute-force grouping of the hosts by
// their switches, BlockSizes, and the refusals (hosts on no switch, units of
// unequal sizes) naming the hosts.
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/fabric/slurm_block_writer.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/model/host_units.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Contains;

namespace {

using HostSets = std::set<std::set<std::string>>;

const MachineType& one_pu() {
    static const MachineType type("pu:1", tree_from_synthetic("pu:1"), NodeLevel{},
                                  LevelLatencies::defaults());
    return type;
}

// A cluster whose host h is cabled to the switches cables[h] (names "s<i>"),
// the switches joined to one spine so that the network is connected.
Cluster fabric_cluster(const std::vector<std::string>& hosts,
                       const std::vector<std::vector<std::uint32_t>>& cables,
                       std::uint32_t switches) {
    ClusterBuilder b("blocks-test");
    const TypeId t = b.add_type(one_pu());
    std::vector<ClusterBuilder::Endpoint> host_end, switch_end;
    for (const std::string& h : hosts) host_end.push_back({false, b.add_machine(h, t).value});
    for (std::uint32_t s = 0; s < switches; ++s)
        switch_end.push_back({true, b.add_switch(fmt::format("s{}", s)).value});
    const ClusterBuilder::Endpoint spine{true, b.add_switch("spine").value};
    for (std::size_t h = 0; h < hosts.size(); ++h)
        for (const std::uint32_t s : cables[h]) b.add_link(host_end[h], switch_end[s], 100);
    for (std::uint32_t s = 0; s < switches; ++s) b.add_link(spine, switch_end[s], 100);
    BuildOptions options;
    options.allow_disconnected = true;
    return std::move(b).build(options);
}

// The hosts grouped by the set of switches they are cabled to, by brute force.
HostSets units_by_brute_force(const Cluster& c) {
    std::map<std::set<std::uint32_t>, std::set<std::string>> by;
    for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
        std::set<std::uint32_t> sw;
        for (const Link& l : c.network().links()) {
            const VertexId me = c.vertex(MachineId(m));
            const VertexId other = l.a == me ? l.b : l.b == me ? l.a : me;
            if (other != me && !c.network().is_machine(other)) sw.insert(other.value);
        }
        by[sw].insert(std::string(c.machine_name(MachineId(m))));
    }
    HostSets out;
    for (auto& [sw, hosts] : by) out.insert(hosts);
    return out;
}

// What the reader gives back: each block switch's hosts (the switch
// "blocks" joins them and has no host).
HostSets blocks_read_back(const std::string& text, const std::string& source) {
    std::istringstream in(text);
    const Fabric f = read_slurm_topology(in, source);
    std::map<std::string, std::set<std::string>> by_block;
    for (const FabricLink& l : f.links) {
        const FabricNode &a = f.nodes[l.a], &b = f.nodes[l.b];
        if (a.is_switch && !b.is_switch) by_block[a.name].insert(b.name);
        if (b.is_switch && !a.is_switch) by_block[b.name].insert(a.name);
    }
    HostSets out;
    for (auto& [block, hosts] : by_block) out.insert(hosts);
    return out;
}

std::string conf(const Cluster& c) {
    std::ostringstream out;
    write_slurm_block_topology(c, out);
    return out.str();
}

std::string yaml(const Cluster& c) {
    std::ostringstream out;
    write_slurm_block_topology_yaml(c, out);
    return out.str();
}

// The value of the BlockSizes= line.
std::string block_sizes(const std::string& text) {
    const std::size_t at = text.find("\nBlockSizes=");
    REQUIRE(at != std::string::npos);
    const std::size_t from = at + 12;
    return text.substr(from, text.find('\n', from) - from);
}

} // namespace

TEST_CASE("slurm-block: a rail-optimized fabric's scalable units are the blocks",
          "[slurm][blocks]") {
    const Cluster c = generate_from_spec("rail-optimized --units 4 --hosts-per-unit 4 --rails 2");
    const std::string text = conf(c);
    CHECK(text == "# topology.conf (topology/block) written by nettopo from rail-optimized "
                  "--units 4 --hosts-per-unit 4 --rails 2 --spines 4\n"
                  "# A block is a unit: the hosts cabled to exactly the same switches (after "
                  "'#')\n"
                  "BlockName=b1 Nodes=n[0-3] # leaf[0-1]\n"
                  "BlockName=b2 Nodes=n[4-7] # leaf[2-3]\n"
                  "BlockName=b3 Nodes=n[8-11] # leaf[4-5]\n"
                  "BlockName=b4 Nodes=n[12-15] # leaf[6-7]\n"
                  "BlockSizes=4,8,16\n");
    const HostSets expected = units_by_brute_force(c);
    CHECK(expected.size() == 4);
    CHECK(blocks_read_back(text, "topology.conf") == expected);
    const std::string y = yaml(c);
    CHECK_THAT(y, Contains("    block_sizes:\n      - 4\n      - 8\n      - 16\n"));
    CHECK_THAT(y, Contains("      - block: b2 # leaf[2-3]\n        nodes: n[4-7]\n"));
    CHECK(blocks_read_back(y, "topology.yaml") == expected);
}

TEST_CASE("slurm-block: random fabrics of equal units read back to the brute-force units",
          "[slurm][blocks]") {
    std::mt19937_64 rng(27);
    for (int round = 0; round < 60; ++round) {
        const std::uint32_t units = 1 + rng() % 12, size = 1 + rng() % 6, rails = 1 + rng() % 4;
        // Each unit's rails are switches of its own, or shared with the next
        // unit's other rails (several units on one leaf, different sets).
        const bool shared = rng() % 2;
        std::vector<std::string> hosts;
        std::vector<std::vector<std::uint32_t>> cables;
        std::vector<std::uint32_t> order(units * size);
        for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), rng); // names do not follow the units
        for (std::uint32_t u = 0; u < units; ++u)
            for (std::uint32_t k = 0; k < size; ++k) {
                hosts.push_back(fmt::format("h{}", order[u * size + k]));
                std::vector<std::uint32_t> sw;
                for (std::uint32_t r = 0; r < rails; ++r)
                    sw.push_back(shared && r == 0 ? u : units + u * rails + r);
                cables.push_back(sw);
            }
        const Cluster c = fabric_cluster(hosts, cables, units + units * rails + rails);
        const HostSets expected = units_by_brute_force(c);
        REQUIRE(expected.size() == units);
        const std::string text = conf(c);
        CHECK(blocks_read_back(text, "t.conf") == expected);
        CHECK(blocks_read_back(yaml(c), "t.yaml") == expected);
        // BlockSizes: size, 2 size, ... up to the first that holds all units.
        std::string sizes;
        for (std::uint32_t n = 1;; n *= 2) {
            sizes += fmt::format("{}{}", sizes.empty() ? "" : ",", n * size);
            if (n >= units) break;
        }
        CHECK(block_sizes(text) == sizes);
        // Written again from what was read, the same blocks in the same order.
        std::istringstream in(text);
        const Fabric back = read_slurm_topology(in, "t.conf");
        std::vector<std::string> bhosts;
        std::vector<std::vector<std::uint32_t>> bcables;
        std::map<std::string, std::uint32_t> block_index;
        for (const FabricNode& n : back.nodes)
            if (n.is_switch && n.name != "blocks") block_index.emplace(n.name, block_index.size());
        std::map<std::string, std::uint32_t> host_index;
        for (const FabricLink& l : back.links) {
            const FabricNode &a = back.nodes[l.a], &b = back.nodes[l.b];
            if (b.is_switch) continue;
            const auto [it, fresh] = host_index.emplace(b.name, bhosts.size());
            if (fresh) {
                bhosts.push_back(b.name);
                bcables.emplace_back();
            }
            bcables[it->second].push_back(block_index.at(a.name));
        }
        const std::string again = conf(fabric_cluster(bhosts, bcables, units));
        const auto lines = [](const std::string& t) {
            std::string out;
            std::istringstream s(t);
            for (std::string line; std::getline(s, line);)
                if (line.starts_with("Block")) out += line.substr(0, line.find(" #")) + '\n';
            return out;
        };
        CHECK(lines(again) == lines(text));
    }
}

TEST_CASE("slurm-block: BlockSizes stops at the first size that holds every block",
          "[slurm][blocks]") {
    for (const auto& [units, expected] :
         std::vector<std::pair<std::uint32_t, std::string>>{{1, "3"},
                                                            {2, "3,6"},
                                                            {3, "3,6,12"},
                                                            {4, "3,6,12"},
                                                            {5, "3,6,12,24"},
                                                            {9, "3,6,12,24,48"}}) {
        std::vector<std::string> hosts;
        std::vector<std::vector<std::uint32_t>> cables;
        for (std::uint32_t u = 0; u < units; ++u)
            for (int k = 0; k < 3; ++k) {
                hosts.push_back(fmt::format("n{}", u * 3 + k));
                cables.push_back({u});
            }
        INFO(units << " units of 3");
        CHECK(block_sizes(conf(fabric_cluster(hosts, cables, units))) == expected);
    }
}

TEST_CASE("slurm-block: hosts on no switch and units of unequal sizes are refused, named",
          "[slurm][blocks]") {
    SECTION("a direct network") {
        const Cluster ring = generate_from_spec("ring --machines 4");
        CHECK_THROWS_WITH(conf(ring), Contains("4 machines linked to no switch") &&
                                          Contains("n[0-3]") && Contains("topology/block"));
    }
    SECTION("a unit of 2 among units of 3: its hosts and its switches") {
        const std::vector<std::string> hosts{"a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2"};
        const std::vector<std::vector<std::uint32_t>> cables{{0, 1}, {0, 1}, {0, 1}, {2, 3},
                                                             {2, 3}, {2, 3}, {4, 5}, {4, 5}};
        const Cluster c = fabric_cluster(hosts, cables, 6);
        CHECK_THROWS_AS(conf(c), InputError);
        CHECK_THROWS_WITH(conf(c), Contains("2 of the 3 units have 3 hosts; the other 1: "
                                            "c[1-2] (2 hosts on s[4-5])"));
        CHECK_THROWS_WITH(yaml(c), Contains("c[1-2] (2 hosts on s[4-5])"));
    }
    SECTION("one miscabled host: its own unit of 1") {
        const std::vector<std::string> hosts{"a1", "a2", "a3", "b1", "b2", "b3"};
        const std::vector<std::vector<std::uint32_t>> cables{{0, 1}, {0, 1}, {0, 1},
                                                             {2, 3}, {2, 3}, {1, 3}};
        CHECK_THROWS_WITH(conf(fabric_cluster(hosts, cables, 4)),
                          Contains("1 of the 3 units has 3 hosts; the other 2: b[1-2] (2 hosts "
                                   "on s[2-3]); b3 (1 host on s[1,3])"));
    }
}
