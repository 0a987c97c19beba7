#include "nettopo-query/pe_naming.hpp"

#include "nettopo/model/detail/name_hint.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace nettopo {

PeNaming::PeNaming(const Cluster& cluster, const JobView* view, bool physical)
    : cluster_(cluster), view_(view), physical_(physical) {
    if (!physical_) return;
    pu_of_os_.resize(cluster.num_types());
    for (std::uint32_t t = 0; t < cluster.num_types(); ++t) {
        const MachineTree& tree = cluster.type(TypeId(t)).tree();
        auto& table = pu_of_os_[t];
        for (std::uint32_t l = 0; l < tree.num_pus(); ++l) {
            const std::uint32_t os = tree.object(tree.pu(l)).os_index;
            if (os != unknown_os_index) table.emplace_back(os, l);
        }
        std::sort(table.begin(), table.end());
    }
}

std::uint32_t PeNaming::os_index(PeId p) const {
    const MachineId m = cluster_.machine_of(p);
    const MachineTree& tree = cluster_.machine_type(m).tree();
    const std::uint32_t l = cluster_.local_pu(p);
    const std::uint32_t os = tree.object(tree.pu(l)).os_index;
    if (os == unknown_os_index)
        throw InputError(
            fmt::format("machine '{}' has no OS index for its PU L#{}: its source gave none",
                        cluster_.machine_name(m), l));
    return os;
}

namespace {
std::string range_text(std::uint32_t n) {
    return n == 0 ? "none" : fmt::format("0..{}", n - 1);
}
} // namespace

std::optional<PeId> PeNaming::parse_pe(std::string_view text, std::string& why) const {
    if (!physical_) {
        if (text.find(':') != std::string_view::npos) {
            why = fmt::format("PE '{}': HOST:OS names a PU by its OS index, which needs -p", text);
            return std::nullopt;
        }
        const auto v = parse_uint(text);
        if (!v) {
            why = fmt::format("'{}' is not a PE index", text);
            return std::nullopt;
        }
        if (!view_) {
            if (*v >= cluster_.num_pes()) {
                why =
                    fmt::format("PE {} does not exist: the cluster has {} ({})", *v,
                                counted(cluster_.num_pes(), "PE"), range_text(cluster_.num_pes()));
                return std::nullopt;
            }
            return PeId(static_cast<std::uint32_t>(*v));
        }
        if (*v >= view_->num_pes()) {
            why = fmt::format("PE {} does not exist: the allocation has {} ({})", *v,
                              counted(view_->num_pes(), "PE"), range_text(view_->num_pes()));
            return std::nullopt;
        }
        return view_->cluster_pe(static_cast<std::uint32_t>(*v));
    }
    // -p: HOST:OS, split at the last ':' (host names hold none, OS indexes never).
    std::optional<MachineId> m;
    std::string_view os_text = text;
    if (const auto colon = text.rfind(':'); colon != std::string_view::npos) {
        const std::string_view host = text.substr(0, colon);
        os_text = text.substr(colon + 1);
        m = cluster_.find_machine(host);
        if (!m) {
            why = fmt::format("PE '{}': {}", text, no_machine_named(cluster_, host));
            return std::nullopt;
        }
        if (view_ && !view_->contains(*m)) {
            why = fmt::format("PE '{}': machine '{}' is not in the allocation", text, host);
            return std::nullopt;
        }
    } else if (num_machines() == 1) {
        m = view_ ? view_->machine(0) : MachineId(0);
    } else {
        why = fmt::format("PE '{}': with -p a PE is HOST:OS (a bare OS index only when the "
                          "view holds one machine; it holds {})",
                          text, num_machines());
        return std::nullopt;
    }
    const auto os = parse_uint(os_text);
    if (!os) {
        why = fmt::format("PE '{}': '{}' is not an OS index", text, os_text);
        return std::nullopt;
    }
    const auto& table = pu_of_os_[cluster_.type_of(*m).value];
    const auto it = std::lower_bound(
        table.begin(), table.end(),
        std::pair<std::uint32_t, std::uint32_t>(
            static_cast<std::uint32_t>(std::min<std::uint64_t>(*os, 0xffffffffu)), 0));
    if (it == table.end() || it->first != *os) {
        why = table.empty()
                  ? fmt::format("PE '{}': machine '{}' has no OS indexes (its source gave none)",
                                text, cluster_.machine_name(*m))
                  : fmt::format("PE '{}': machine '{}' has no PU with OS index {}", text,
                                cluster_.machine_name(*m), *os);
        return std::nullopt;
    }
    return PeId(cluster_.pes_of_machine(*m).first + it->second);
}

PeId PeNaming::require_pe(std::string_view text) const {
    std::string why;
    if (auto p = parse_pe(text, why)) return *p;
    throw UsageError(why);
}

std::string PeNaming::pe_text(PeId p) const {
    if (physical_)
        return fmt::format("{}:{}", cluster_.machine_name(cluster_.machine_of(p)), os_index(p));
    return fmt::format("{}", view_ ? *view_->view_pe(p) : p.value);
}

void PeNaming::pe_json(JsonWriter& j, PeId p) const {
    if (physical_)
        j.value(pe_text(p));
    else
        j.value(view_ ? *view_->view_pe(p) : p.value);
}

NodeId PeNaming::require_node(std::uint64_t index) const {
    if (!view_) return cluster_.require_node(index);
    if (index >= view_->num_nodes())
        throw UsageError(fmt::format("node {} does not exist: the allocation has {} ({})", index,
                                     counted(view_->num_nodes(), "node"),
                                     range_text(view_->num_nodes())));
    return view_->cluster_node(static_cast<std::uint32_t>(index));
}

std::uint32_t PeNaming::node_number(NodeId n) const {
    return view_ ? *view_->view_node(n) : n.value;
}

std::vector<MachineId> PeNaming::require_machines(std::string_view expression) const {
    // A plain name is looked up as it is: a machine name need not be a
    // valid hostlist ("a[b" is a name, not a broken expression).
    if (const auto m = cluster_.find_machine(expression)) {
        if (view_ && !view_->contains(*m))
            throw UsageError(fmt::format("machine '{}' is not in the allocation", expression));
        return {*m};
    }
    std::vector<std::string> names;
    try {
        names = expand_hostlist(expression);
    } catch (const InputError& e) {
        throw UsageError(e.what());
    }
    std::vector<MachineId> machines;
    std::vector<std::string> missing, outside;
    for (const std::string& name : names) {
        const auto m = cluster_.find_machine(name);
        if (!m)
            missing.push_back(name);
        else if (view_ && !view_->contains(*m))
            outside.push_back(name);
        else
            machines.push_back(*m);
    }
    if (missing.size() == 1 && names.size() == 1) // as for a plain name
        throw UsageError(no_machine_named(cluster_, missing[0]));
    if (!missing.empty())
        throw UsageError(with_hint(fmt::format("no machine named {}", hostlist_excerpt(missing)),
                                   machine_names_hint(cluster_, missing)));
    if (!outside.empty())
        throw UsageError(fmt::format("not in the allocation: {}", hostlist_excerpt(outside)));
    return machines;
}

VertexId PeNaming::require_vertex(std::string_view name) const {
    if (const auto s = cluster_.find_switch(name)) return cluster_.vertex(*s);
    if (!cluster_.find_machine(name) && name.find_first_of("[,") == std::string_view::npos)
        return cluster_.require_vertex(name); // says no machine or switch has the name
    const auto machines = require_machines(name);
    if (machines.size() != 1)
        throw UsageError(fmt::format("neighbors takes one machine or switch; '{}' names {}", name,
                                     machines.size()));
    return cluster_.vertex(machines[0]);
}

std::vector<PuSet> PeNaming::require_pu_sets(std::string_view what) const {
    if (what.starts_with("node:")) {
        const auto n = parse_uint(what.substr(5));
        if (!n) throw UsageError(fmt::format("'{}': expected node:N, N a node index", what));
        const NodeId node = require_node(*n);
        return {{cluster_.machine_of_node(node), cluster_.pes_of_node(node), std::nullopt, node}};
    }
    // A device (gpu2, mlx5_0, HOST:gpu2) unless a machine has that name:
    // its local PUs, one set per machine that has it.
    if (!cluster_.find_machine(what)) {
        std::vector<PuSet> sets;
        for (const MachineDevice& d : find_devices(cluster_, what))
            if (!view_ || view_->contains(d.machine))
                sets.push_back({d.machine, device_pes(cluster_, d), std::nullopt, std::nullopt});
        if (!sets.empty()) return sets;
    }
    const bool pe_like = what.find_first_not_of("0123456789") == std::string_view::npos ||
                         (physical_ && what.find(':') != std::string_view::npos);
    if (pe_like) {
        const PeId p = require_pe(what);
        return {{cluster_.machine_of(p), PeRange{p.value, 1}, p, std::nullopt}};
    }
    std::vector<PuSet> sets;
    for (MachineId m : require_machines(what))
        sets.push_back({m, cluster_.pes_of_machine(m), std::nullopt, std::nullopt});
    return sets;
}

} // namespace nettopo
