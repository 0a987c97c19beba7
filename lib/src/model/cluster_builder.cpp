#include "nettopo/model/cluster_builder.hpp"

#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace nettopo {

ClusterBuilder::ClusterBuilder(std::string name) : name_(std::move(name)) {}

TypeId ClusterBuilder::add_type(MachineType type) {
    check_text("machine type description", type.description());
    std::string sig = type.signature();
    if (auto it = type_by_signature_.find(sig); it != type_by_signature_.end()) return it->second;
    TypeId id(static_cast<std::uint32_t>(types_.size()));
    types_.push_back(std::move(type));
    type_by_signature_.emplace(std::move(sig), id);
    return id;
}

void ClusterBuilder::require_room_for_vertices(std::uint64_t more) const {
    require_within_limit(saturating_add(std::uint64_t{num_machines()} + num_switches(), more),
                         limits_.max_vertices, "machines and switches", Remedy::raise_vertex_limit);
}

MachineId ClusterBuilder::add_machine(std::string_view name, TypeId type) {
    require_room_for_vertices(1);
    const std::uint64_t pes = total_pes_ + types_.at(type.value).num_pus();
    if (pes > max_pes || machine_types_.size() + 1 >= max_id_count)
        throw InputError(fmt::format("too many PEs: machine '{}' would bring the cluster past "
                                     "{} PEs, the limit of 32-bit PE ids",
                                     name, max_id_count - 1));
    MachineId id(static_cast<std::uint32_t>(machine_types_.size()));
    if (name.empty()) throw InputError("empty machine name");
    check_name("machine name", name);
    machine_types_.push_back(type);
    if (!machine_forwards_.empty()) machine_forwards_.push_back(1);
    machine_names_.push_back(name);
    total_pes_ = pes;
    return id;
}

void ClusterBuilder::set_forwards(MachineId m, bool forwards) {
    if (m.value >= machine_types_.size())
        throw InputError(fmt::format("no machine {} to set forwarding of", m.value));
    if (forwards && machine_forwards_.empty()) return;
    machine_forwards_.resize(machine_types_.size(), 1);
    machine_forwards_[m.value] = forwards;
}

bool ClusterBuilder::forwards(MachineId m) const {
    return m.value >= machine_forwards_.size() || machine_forwards_[m.value] != 0;
}

SwitchId ClusterBuilder::add_switch(std::string_view name) {
    require_room_for_vertices(1);
    SwitchId id(switch_names_.size());
    if (name.empty()) throw InputError("empty switch name");
    check_name("switch name", name);
    switch_names_.push_back(name);
    return id;
}

void ClusterBuilder::add_link(Endpoint a, Endpoint b, double latency_ns, double bandwidth_gbps,
                              std::uint32_t multiplicity) {
    if (!std::isfinite(latency_ns) || latency_ns < 0 || latency_ns > max_link_latency_ns)
        throw InputError(fmt::format("invalid latency {} ns: must be between 0 and {} ns (1 s)",
                                     latency_ns, max_link_latency_ns));
    if (!std::isfinite(bandwidth_gbps) || bandwidth_gbps < 0)
        throw InputError(fmt::format("invalid bandwidth {}: must be > 0 Gbit/s", bandwidth_gbps));
    if (multiplicity == 0) throw InputError("a link needs at least one cable (count >= 1)");
    require_within_limit(links_.size() + 1, limits_.max_links, "links", Remedy::raise_link_limit);
    if (a.is_switch == b.is_switch && a.index == b.index)
        throw InputError("a link cannot join a vertex to itself");
    // + 0.0 turns -0 into 0, so equal links print equally.
    links_.push_back({a, b, latency_ns + 0.0, bandwidth_gbps + 0.0, multiplicity});
}

namespace {

// Empty when connected, else why not (with two vertices that cannot meet).
std::string disconnection(const Cluster& c) {
    const Components comp = connected_components(c.network());
    if (comp.count > 1) {
        std::uint32_t far = 0;
        while (comp.label[far] == 0) ++far;
        return fmt::format("the network is not connected ({} components): '{}' cannot reach '{}'",
                           comp.count, c.vertex_name(VertexId(0)), c.vertex_name(VertexId(far)));
    }
    if (c.network().all_forward()) return {};
    if (const auto pair = unreachable_machines(c.network()))
        return fmt::format("the network is not connected: '{}' cannot reach '{}' (every path "
                           "between them passes through a machine that does not forward traffic)",
                           c.vertex_name(pair->a), c.vertex_name(pair->b));
    return {};
}

} // namespace

Cluster ClusterBuilder::build(const BuildOptions& options) && {
    if (machine_types_.empty()) throw InputError("the cluster has no machine");
    check_name("cluster name", name_);
    const auto num_machines = static_cast<std::uint32_t>(machine_types_.size());
    const std::uint64_t vertices = std::uint64_t{num_machines} + switch_names_.size();
    if (vertices >= max_id_count || 2 * links_.size() >= max_id_count)
        throw InputError("the network is too large for 32-bit vertex and link ids");
    // Every search sums link latencies along simple paths (vertices - 1
    // links at most) in int64 picoseconds: refuse here what could pass it,
    // so that no distance is ever a wrapped or saturated number.
    double slowest_ns = 0;
    for (const PendingLink& l : links_) slowest_ns = std::max(slowest_ns, l.latency_ns);
    if (!latency_sum_ps(vertices - 1, to_picoseconds(slowest_ns), 0))
        throw InputError(fmt::format(
            "latency sums could overflow: a path of up to {} links of {} ns would pass {} ps "
            "(about 106 days), the largest latency nettopo's 64-bit picosecond sums hold",
            vertices - 1, slowest_ns, max_latency_sum_ps));

    Cluster c;
    c.name_ = std::move(name_);
    c.family_ = std::move(family_);
    c.types_ = std::move(types_);

    std::uint32_t pe = 0, node = 0;
    for (std::uint32_t m = 0; m < num_machines; ++m) {
        const TypeId t = machine_types_[m];
        if (c.runs_.empty() || c.runs_.back().type != t) c.runs_.push_back({m, pe, node, t});
        pe += c.types_[t.value].num_pus();
        node += c.types_[t.value].num_nodes();
    }
    c.runs_.push_back({num_machines, pe, node, TypeId()});

    auto vertex = [&](Endpoint e) {
        return VertexId(e.is_switch ? num_machines + e.index : e.index);
    };
    auto exists = [&](Endpoint e) {
        return e.index < (e.is_switch ? switch_names_.size() : num_machines);
    };
    // Links sorted by endpoints (then declaration), the order the network
    // keeps: one order for one network, however the links were written down,
    // and duplicates end up side by side.
    std::vector<Link> links;
    links.reserve(links_.size());
    std::vector<std::uint32_t> declared(links_.size());
    for (std::uint32_t i = 0; i < links_.size(); ++i) {
        const PendingLink& l = links_[i];
        if (!exists(l.a) || !exists(l.b))
            throw InputError("link to an undeclared machine or switch");
        VertexId a = vertex(l.a), b = vertex(l.b);
        if (b < a) std::swap(a, b);
        links.push_back({a, b, l.latency_ns, l.bandwidth_gbps, l.multiplicity});
        declared[i] = i;
    }
    const auto by_ends = [&](std::uint32_t x, std::uint32_t y) {
        const Link &lx = links[x], &ly = links[y];
        return lx.a != ly.a ? lx.a < ly.a : lx.b != ly.b ? lx.b < ly.b : x < y;
    };
    std::sort(declared.begin(), declared.end(), by_ends);
    // Report the duplicate declared earliest, as a reader going line by line would.
    std::optional<std::pair<std::uint32_t, std::uint32_t>> duplicate;
    for (std::size_t i = 1; i < declared.size(); ++i) {
        const Link &x = links[declared[i - 1]], &y = links[declared[i]];
        if (x.a == y.a && x.b == y.b && (!duplicate || declared[i] < duplicate->second))
            duplicate = std::pair{declared[i - 1], declared[i]};
    }
    if (duplicate) {
        const PendingLink& l = links_[duplicate->second];
        auto end = [&](Endpoint e) {
            return DuplicateLinkError::End{
                e.is_switch, e.index,
                std::string(e.is_switch ? switch_names_[e.index] : machine_names_[e.index])};
        };
        throw DuplicateLinkError(duplicate->first, duplicate->second, end(l.a), end(l.b));
    }
    std::vector<Link> sorted;
    sorted.reserve(links.size());
    for (std::uint32_t i : declared) sorted.push_back(links[i]);
    links = std::move(sorted);
    links_.clear();
    c.network_ =
        Network(num_machines, switch_names_.size(), std::move(links), std::move(machine_forwards_));
    c.machine_names_ = std::move(machine_names_);
    c.switch_names_ = std::move(switch_names_);
    c.machine_names_.index();
    c.switch_names_.index();
    // Machines and switches share one namespace.
    if (auto m = c.machine_names_.repeated())
        throw DuplicateNameError(std::string(c.machine_names_[*m]), {false, *m});
    if (auto s = c.switch_names_.repeated())
        throw DuplicateNameError(std::string(c.switch_names_[*s]), {true, *s});
    for (std::uint32_t s = 0; s < c.switch_names_.size(); ++s)
        if (c.machine_names_.find(c.switch_names_[s]))
            throw DuplicateNameError(std::string(c.switch_names_[s]), {true, s});

    if (!options.allow_disconnected)
        if (std::string why = disconnection(c); !why.empty())
            throw InputError(why, Remedy::allow_disconnected);
    return c;
}

} // namespace nettopo
