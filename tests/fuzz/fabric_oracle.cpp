#include "fabric_oracle.hpp"

#include "fuzz_target.hpp"
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/fabric/rails.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace nettopo::fuzz {

void check_fabric(const Fabric& fabric) {
    std::set<std::string> names;
    for (const FabricNode& node : fabric.nodes) {
        if (node.name.empty()) fail("a fabric node without a name");
        if (std::any_of(node.name.begin(), node.name.end(),
                        [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }))
            fail("a fabric node name that is not a single token", node.name);
        if (!names.insert(node.name).second) fail("two fabric nodes named alike", node.name);
    }
    std::set<std::pair<std::uint32_t, std::uint32_t>> pairs;
    for (const FabricLink& link : fabric.links) {
        if (link.a >= fabric.nodes.size() || link.b >= fabric.nodes.size())
            fail("a fabric link to a node that does not exist");
        if (link.a == link.b)
            fail("a fabric link from a node to itself", fabric.nodes[link.a].name);
        if (link.multiplicity == 0) fail("a fabric link of no cable");
        if (!pairs.insert(std::minmax(link.a, link.b)).second)
            fail("two fabric links between the same nodes",
                 fabric.nodes[link.a].name + " " + fabric.nodes[link.b].name);
    }
    // The adapters: each of a host, its ports cabled to nodes that exist.
    for (const FabricAdapter& a : fabric.adapters) {
        if (a.host >= fabric.nodes.size() || fabric.nodes[a.host].is_switch)
            fail("an adapter of no host", a.description);
        for (const FabricAdapter::Port& p : a.ports)
            if (p.peer >= fabric.nodes.size()) fail("an adapter cabled to no node", a.description);
    }
    // The rails of whatever was read: every problem names nodes of the fabric.
    const Rails rails = infer_rails(fabric);
    for (const RailProblem& p : rails.problems) {
        if (p.text.empty()) fail("a rail problem without a text");
        if (!p.host.empty() && !names.contains(p.host)) fail("a rail problem of no host", p.host);
        if (!p.leaf.empty() && !names.contains(p.leaf)) fail("a rail problem of no leaf", p.leaf);
    }
    if (rails.rail_hosts + rails.other_hosts > fabric.nodes.size())
        fail("more hosts on rails than nodes");
}

std::optional<Cluster> assembled(const Fabric& fabric) {
    AssembleOptions options;
    options.name = "fuzz";
    options.default_machine = "pu:1";
    options.build.allow_disconnected = true;
    std::optional<Cluster> cluster;
    if (!accepted([&] { cluster.emplace(assemble_cluster({}, &fabric, options).cluster); },
                  Refusal::any_error))
        return std::nullopt;
    return cluster;
}

} // namespace nettopo::fuzz
