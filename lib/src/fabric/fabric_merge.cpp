// Several fabrics as one: the subnets of a cluster, each dumped on its own
// (rules in fabric.hpp). A host with an adapter in each subnet is one host
// with the links of all; a switch seen in two dumps is one switch, and the
// cables two dumps both show are counted once.
#include "fabric/adapter_order.hpp"
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nettopo {

Fabric merge_fabrics(std::vector<Fabric> fabrics) {
    if (fabrics.empty()) return {};
    if (fabrics.size() == 1) return std::move(fabrics.front());
    Fabric out;
    out.source = fabrics.front().source;
    std::unordered_map<std::string, std::uint32_t> by_name;
    std::unordered_map<std::uint64_t, std::uint32_t> switch_by_guid;
    std::unordered_map<std::uint64_t, std::uint32_t> link_of;  // (min << 32 | max)
    std::unordered_map<std::uint64_t, std::size_t> adapter_of; // node GUID -> out.adapters
    for (std::size_t fi = 0; fi < fabrics.size(); ++fi) {
        Fabric& f = fabrics[fi];
        if (fi > 0) out.merged_sources.push_back(f.source);
        std::vector<std::uint32_t> index(f.nodes.size());
        for (std::size_t n = 0; n < f.nodes.size(); ++n) {
            FabricNode& node = f.nodes[n];
            std::optional<std::uint32_t> found;
            if (node.is_switch)
                for (const std::uint64_t g : node.guids)
                    if (const auto it = switch_by_guid.find(g); it != switch_by_guid.end())
                        found = it->second;
            if (!found && (!node.is_switch || node.guids.empty()))
                if (const auto it = by_name.find(node.name); it != by_name.end())
                    found = it->second;
            if (found && out.nodes[*found].is_switch != node.is_switch)
                throw InputError(f.source, node.line,
                                 fmt::format("'{}' is {} here but {} in an earlier fabric",
                                             node.name, node.is_switch ? "a switch" : "a host",
                                             node.is_switch ? "a host" : "a switch"));
            // A switch of this dump whose description gave the name another
            // dump's node has (two subnets' 'leaf01'): its GUID name, as
            // ibnetdiscover gives it, rather than two nodes made one.
            if (!found && node.named_by_description && !node.guids.empty() &&
                by_name.contains(node.name)) {
                node.name = fmt::format("S-{:016x}", node.guids.front());
                node.named_by_description = false;
            }
            if (!found) {
                if (const auto it = by_name.find(node.name); it != by_name.end())
                    throw InputError(f.source, node.line,
                                     out.nodes[it->second].is_switch
                                         ? fmt::format("two switches named '{}' (the other in "
                                                       "an earlier fabric)",
                                                       node.name)
                                         : fmt::format("'{}' is a switch here but a host in an "
                                                       "earlier fabric",
                                                       node.name));
                found = static_cast<std::uint32_t>(out.nodes.size());
                by_name.emplace(node.name, *found);
                // Lines point into the first source only.
                if (fi > 0) node.line = 0;
                out.nodes.push_back(std::move(node));
            } else {
                std::vector<std::uint64_t>& g = out.nodes[*found].guids;
                g.insert(g.end(), node.guids.begin(), node.guids.end());
                std::sort(g.begin(), g.end());
                g.erase(std::unique(g.begin(), g.end()), g.end());
            }
            if (out.nodes[*found].is_switch)
                for (const std::uint64_t g : out.nodes[*found].guids) switch_by_guid[g] = *found;
            index[n] = *found;
        }
        for (FabricLink l : f.links) {
            l.a = index[l.a];
            l.b = index[l.b];
            if (l.a == l.b) continue;
            if (fi > 0) l.line = 0;
            const std::uint64_t key =
                (std::uint64_t{std::min(l.a, l.b)} << 32) | std::max(l.a, l.b);
            const auto [it, added] =
                link_of.try_emplace(key, static_cast<std::uint32_t>(out.links.size()));
            if (added) {
                out.links.push_back(l);
                continue;
            }
            FabricLink& m = out.links[it->second];
            m.multiplicity = std::max(m.multiplicity, l.multiplicity);
            if (m.bandwidth_gbps == 0 ||
                (l.bandwidth_gbps != 0 && l.bandwidth_gbps < m.bandwidth_gbps))
                m.bandwidth_gbps = l.bandwidth_gbps;
            if (!m.latency_ns) m.latency_ns = l.latency_ns;
        }
        for (FabricAdapter& a : f.adapters) {
            a.host = index[a.host];
            for (FabricAdapter::Port& p : a.ports) p.peer = index[p.peer];
            if (fi > 0) a.line = 0;
            // An adapter two overlapping dumps show: once, with the ports of both.
            const auto [it, added] = adapter_of.try_emplace(a.guid, out.adapters.size());
            if (added) {
                out.adapters.push_back(std::move(a));
                continue;
            }
            std::vector<FabricAdapter::Port>& ports = out.adapters[it->second].ports;
            for (const FabricAdapter::Port& p : a.ports)
                if (std::none_of(ports.begin(), ports.end(),
                                 [&](const auto& q) { return q.port == p.port; }))
                    ports.push_back(p);
        }
        out.switch_adapters.insert(out.switch_adapters.end(), f.switch_adapters.begin(),
                                   f.switch_adapters.end());
        out.one_ended_cables.insert(out.one_ended_cables.end(), f.one_ended_cables.begin(),
                                    f.one_ended_cables.end());
    }
    std::sort(out.switch_adapters.begin(), out.switch_adapters.end());
    out.switch_adapters.erase(std::unique(out.switch_adapters.begin(), out.switch_adapters.end()),
                              out.switch_adapters.end());
    order_adapters(out);
    return out;
}

} // namespace nettopo
