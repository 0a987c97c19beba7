#include "fabric_oracle.hpp"

#include "fuzz_target.hpp"
#include "nettopo/assemble/assemble.hpp"

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
