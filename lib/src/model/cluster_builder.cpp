#include "nettopo/model/cluster_builder.hpp"

#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <numeric>
#include <optional>
#include <utility>

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
    if (links_by_vertex_)
        throw Error("ClusterBuilder: machines are added before the links given by vertex id");
    require_room_for_vertices(1);
    const std::uint64_t pes = total_pes_ + types_.at(type.value).num_pus();
    if (pes > max_pes || std::uint64_t{num_machines_} + 1 >= max_id_count)
        throw InputError(fmt::format("too many PEs: machine '{}' would bring the cluster past "
                                     "{} PEs, the limit of 32-bit PE ids",
                                     name, max_id_count - 1));
    MachineId id(num_machines_);
    if (name.empty()) throw InputError("empty machine name");
    check_name("machine name", name);
    append_machines(type, 1);
    machine_names_.push_back(name);
    return id;
}

void ClusterBuilder::append_machines(TypeId type, std::uint64_t count) {
    if (count == 0) return;
    if (machine_runs_.empty() || machine_runs_.back().type != type)
        machine_runs_.push_back({num_machines_, type});
    num_machines_ += static_cast<std::uint32_t>(count);
    total_pes_ += count * types_[type.value].num_pus();
    if (!machine_forwards_.empty()) machine_forwards_.resize(num_machines_, 1);
}

namespace {

std::size_t decimal_digits(std::uint64_t n) {
    std::size_t d = 1;
    while (n >= 10) n /= 10, ++d;
    return d;
}

// The names of a run that pass add_machine's or add_switch's name checks for
// sure: all or none, by their prefix (digits are printable ASCII and complete
// no UTF-8 sequence) and the length of the last (the longest) name.
bool run_names_valid(std::string_view prefix, std::uint64_t first_number, std::uint64_t count,
                     int width) {
    if (count == 0 || first_number > ~std::uint64_t{0} - (count - 1)) return false;
    const std::size_t digits = std::max<std::size_t>(static_cast<std::size_t>(std::max(width, 0)),
                                                     decimal_digits(first_number + count - 1));
    return prefix.size() + digits <= max_name_bytes && text_problem(prefix).empty();
}

// One name of a run, as the archive's reader spells it (name_runs.cpp's run_name).
std::string run_name(std::string_view prefix, std::uint64_t number, int width) {
    return fmt::format("{}{:0{}}", prefix, number, width);
}

// Appends the names of a run checked by run_names_valid, without a string each.
void append_run_names(NameTable& names, std::string_view prefix, std::uint64_t first_number,
                      std::uint64_t count, int width) {
    if (count == 0) return;
    const std::size_t longest =
        prefix.size() + std::max<std::size_t>(static_cast<std::size_t>(std::max(width, 0)),
                                              decimal_digits(first_number + count - 1));
    names.reserve_more(count, count * longest);
    char buffer[max_name_bytes + 24];
    std::copy(prefix.begin(), prefix.end(), buffer);
    char* const digits = buffer + prefix.size();
    for (std::uint64_t i = 0; i < count; ++i) {
        char number[24];
        const auto end = std::to_chars(number, number + sizeof number, first_number + i).ptr;
        const auto length = static_cast<std::size_t>(end - number);
        const std::size_t pad = width > 0 && static_cast<std::size_t>(width) > length
                                    ? static_cast<std::size_t>(width) - length
                                    : 0;
        std::fill(digits, digits + pad, '0');
        std::copy(number, end, digits + pad);
        names.push_back(std::string_view(buffer, prefix.size() + pad + length));
    }
}

} // namespace

std::uint64_t ClusterBuilder::machines_that_fit(std::string_view prefix, std::uint64_t first_number,
                                                std::uint64_t count, int width, TypeId type) const {
    if (type.value >= types_.size() || !run_names_valid(prefix, first_number, count, width))
        return 0;
    const std::uint64_t vertices = std::uint64_t{num_machines_} + num_switches();
    std::uint64_t fit =
        std::min(count, limits_.max_vertices > vertices ? limits_.max_vertices - vertices
                                                        : std::uint64_t{0});
    fit = std::min(fit, (max_pes - total_pes_) / types_[type.value].num_pus());
    return std::min(fit, max_id_count - 1 - num_machines_);
}

void ClusterBuilder::add_machines(std::string_view prefix, std::uint64_t first_number,
                                  std::uint64_t count, int width, TypeId type) {
    if (links_by_vertex_)
        throw Error("ClusterBuilder: machines are added before the links given by vertex id");
    const std::uint64_t fit = machines_that_fit(prefix, first_number, count, width, type);
    append_run_names(machine_names_, prefix, first_number, fit, width);
    append_machines(type, fit);
    // What does not surely fit goes name by name, to fail as add_machine does.
    for (std::uint64_t i = fit; i < count; ++i)
        add_machine(run_name(prefix, first_number + i, width), type);
}

void ClusterBuilder::add_switches(std::string_view prefix, std::uint64_t first_number,
                                  std::uint64_t count, int width) {
    std::uint64_t fit = 0;
    if (run_names_valid(prefix, first_number, count, width)) {
        const std::uint64_t vertices = std::uint64_t{num_machines_} + num_switches();
        fit = std::min(count, limits_.max_vertices > vertices ? limits_.max_vertices - vertices
                                                              : std::uint64_t{0});
    }
    append_run_names(switch_names_, prefix, first_number, fit, width);
    for (std::uint64_t i = fit; i < count; ++i)
        add_switch(run_name(prefix, first_number + i, width));
}

void ClusterBuilder::set_forwards(MachineId m, bool forwards) {
    if (m.value >= num_machines_)
        throw InputError(fmt::format("no machine {} to set forwarding of", m.value));
    if (forwards && machine_forwards_.empty()) return;
    machine_forwards_.resize(num_machines_, 1);
    machine_forwards_[m.value] = forwards;
}

bool ClusterBuilder::forwards(MachineId m) const {
    return m.value >= machine_forwards_.size() || machine_forwards_[m.value] != 0;
}

void ClusterBuilder::set_attachments(MachineId m, std::vector<Cable> cables) {
    if (m.value >= num_machines_)
        throw InputError(fmt::format("no machine {} to set adapter attachments of", m.value));
    if (cables.empty())
        cables_.erase(m.value);
    else
        cables_[m.value] = std::move(cables);
}

void ClusterBuilder::set_identities(MachineId m, std::vector<DeviceIdentity> identities) {
    if (m.value >= num_machines_)
        throw InputError(fmt::format("no machine {} to set device identities of", m.value));
    const auto run =
        std::upper_bound(machine_runs_.begin(), machine_runs_.end(), m.value,
                         [](std::uint32_t v, const MachineRun& r) { return v < r.first; });
    const std::size_t devices = types_[(run - 1)->type.value].tree().devices().size();
    for (const DeviceIdentity& d : identities) {
        if (d.device >= devices)
            throw InputError(fmt::format("a device identity names device {}, but the machine's "
                                         "type has {}",
                                         d.device, counted(devices, "device")));
        if (const std::string problem = identity_problem(d); !problem.empty())
            throw InputError(fmt::format("a device identity {}", problem));
    }
    if (identities.empty())
        identities_.erase(m.value);
    else
        identities_[m.value] = std::move(identities);
}

SwitchId ClusterBuilder::add_switch(std::string_view name) {
    require_room_for_vertices(1);
    SwitchId id(switch_names_.size());
    if (name.empty()) throw InputError("empty switch name");
    check_name("switch name", name);
    switch_names_.push_back(name);
    return id;
}

void ClusterBuilder::check_link_values(double latency_ns, double bandwidth_gbps,
                                       std::uint32_t multiplicity) {
    if (!std::isfinite(latency_ns) || latency_ns < 0 || latency_ns > max_link_latency_ns)
        throw InputError(fmt::format("invalid latency {} ns: must be between 0 and {} ns (1 s)",
                                     latency_ns, max_link_latency_ns));
    if (!std::isfinite(bandwidth_gbps) || bandwidth_gbps < 0)
        throw InputError(fmt::format("invalid bandwidth {}: must be > 0 Gbit/s", bandwidth_gbps));
    if (multiplicity == 0) throw InputError("a link needs at least one cable (count >= 1)");
}

namespace {

// A link end as a vertex id once the machines are known; `none` for a
// machine not declared, so that build() refuses it.
constexpr std::uint32_t no_vertex = 0xffffffffu;
VertexId vertex_of(ClusterBuilder::Endpoint e, std::uint32_t num_machines) {
    if (!e.is_switch) return VertexId(e.index < num_machines ? e.index : no_vertex);
    const std::uint64_t v = std::uint64_t{num_machines} + e.index;
    return VertexId(v < no_vertex ? static_cast<std::uint32_t>(v) : no_vertex);
}

} // namespace

void ClusterBuilder::add_link(Endpoint a, Endpoint b, double latency_ns, double bandwidth_gbps,
                              std::uint32_t multiplicity) {
    check_link_values(latency_ns, bandwidth_gbps, multiplicity);
    const std::size_t held = links_by_vertex_ ? vertex_links_.size() : links_.size();
    require_within_limit(held + 1, limits_.max_links, "links", Remedy::raise_link_limit);
    if (a.is_switch == b.is_switch && a.index == b.index)
        throw InputError("a link cannot join a vertex to itself");
    // + 0.0 turns -0 into 0, so equal links print equally.
    if (links_by_vertex_)
        vertex_links_.push_back({vertex_of(a, num_machines_), vertex_of(b, num_machines_),
                                 latency_ns + 0.0, bandwidth_gbps + 0.0, multiplicity});
    else
        links_.push_back({a, b, latency_ns + 0.0, bandwidth_gbps + 0.0, multiplicity});
}

void ClusterBuilder::add_links(std::vector<Link> links) {
    if (!links_by_vertex_) {
        for (const PendingLink& l : links_)
            vertex_links_.push_back({vertex_of(l.a, num_machines_), vertex_of(l.b, num_machines_),
                                     l.latency_ns, l.bandwidth_gbps, l.multiplicity});
        std::vector<PendingLink>().swap(links_);
        links_by_vertex_ = true;
    }
    const std::size_t before = vertex_links_.size();
    for (std::size_t i = 0; i < links.size(); ++i) {
        Link& l = links[i];
        try {
            // Generated links repeat their class's values: checked once a run.
            if (i == 0 || l.latency_ns != links[i - 1].latency_ns ||
                l.bandwidth_gbps != links[i - 1].bandwidth_gbps ||
                l.multiplicity != links[i - 1].multiplicity)
                check_link_values(l.latency_ns, l.bandwidth_gbps, l.multiplicity);
            require_within_limit(before + i + 1, limits_.max_links, "links",
                                 Remedy::raise_link_limit);
            if (l.a == l.b) throw InputError("a link cannot join a vertex to itself");
        } catch (const InputError& e) {
            throw InputError(fmt::format("link {}: {}", before + i, e.what()), e.remedy());
        }
        l.latency_ns += 0.0;
        l.bandwidth_gbps += 0.0;
    }
    if (vertex_links_.empty())
        vertex_links_ = std::move(links);
    else
        vertex_links_.insert(vertex_links_.end(), links.begin(), links.end());
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

// The smallest index of a switch named like a machine. Both tables are
// indexed: a few switches are looked up, many are merged with the machines.
std::optional<std::uint32_t> first_shared_name(const NameTable& machines,
                                               const NameTable& switches) {
    std::optional<std::uint32_t> first;
    if (switches.size() < machines.size() / 32) {
        for (std::uint32_t s = 0; s < switches.size() && !first; ++s)
            if (machines.find(switches[s])) first = s;
        return first;
    }
    const auto ms = machines.sorted_index(), ss = switches.sorted_index();
    for (std::size_t i = 0, j = 0; i < ms.size() && j < ss.size();) {
        const int order = machines[ms[i]].compare(switches[ss[j]]);
        if (order < 0) {
            ++i;
        } else if (order > 0) {
            ++j;
        } else {
            if (!first || ss[j] < *first) first = ss[j];
            ++j;
        }
    }
    return first;
}

} // namespace

Cluster ClusterBuilder::build(const BuildOptions& options) && {
    if (num_machines_ == 0) throw InputError("the cluster has no machine");
    check_name("cluster name", name_);
    const std::uint32_t num_machines = num_machines_;
    const std::uint64_t vertices = std::uint64_t{num_machines} + switch_names_.size();
    const std::size_t num_links = links_by_vertex_ ? vertex_links_.size() : links_.size();
    if (vertices >= max_id_count || 2 * num_links >= max_id_count)
        throw InputError("the network is too large for 32-bit vertex and link ids");
    // Every search sums link latencies along simple paths (vertices - 1
    // links at most) in int64 picoseconds: refuse here what could pass it,
    // so that no distance is ever a wrapped or saturated number.
    double slowest_ns = 0;
    for (const PendingLink& l : links_) slowest_ns = std::max(slowest_ns, l.latency_ns);
    for (const Link& l : vertex_links_) slowest_ns = std::max(slowest_ns, l.latency_ns);
    if (!latency_sum_ps(vertices - 1, to_picoseconds(slowest_ns), 0))
        throw InputError(fmt::format(
            "latency sums could overflow: a path of up to {} links of {} ns would pass {} ps "
            "(about 106 days), the largest latency nettopo's 64-bit picosecond sums hold",
            vertices - 1, slowest_ns, max_latency_sum_ps));

    Cluster c;
    c.name_ = std::move(name_);
    c.family_ = std::move(family_);
    c.types_ = std::move(types_);
    if (!identities_.empty()) {
        c.identity_offsets_.assign(std::size_t{num_machines} + 1, 0);
        for (std::uint32_t m = 0; m < num_machines; ++m) {
            const auto it = identities_.find(m);
            c.identity_offsets_[m + 1] =
                c.identity_offsets_[m] + (it == identities_.end() ? 0 : it->second.size());
            if (it != identities_.end())
                for (DeviceIdentity& d : it->second) c.identities_.push_back(std::move(d));
        }
        identities_.clear();
    }

    std::uint64_t pe = 0, node = 0;
    for (std::size_t r = 0; r < machine_runs_.size(); ++r) {
        const MachineRun& run = machine_runs_[r];
        const std::uint32_t end =
            r + 1 < machine_runs_.size() ? machine_runs_[r + 1].first : num_machines;
        c.runs_.push_back({run.first, static_cast<std::uint32_t>(pe),
                           static_cast<std::uint32_t>(node), run.type});
        pe += std::uint64_t{end - run.first} * c.types_[run.type.value].num_pus();
        node += std::uint64_t{end - run.first} * c.types_[run.type.value].num_nodes();
    }
    c.runs_.push_back(
        {num_machines, static_cast<std::uint32_t>(pe), static_cast<std::uint32_t>(node), TypeId()});

    // The links by vertex id, ends as declared (a duplicate is reported so).
    std::vector<Link> links;
    if (links_by_vertex_) {
        links = std::move(vertex_links_);
    } else {
        links.reserve(links_.size());
        for (const PendingLink& l : links_)
            links.push_back({vertex_of(l.a, num_machines), vertex_of(l.b, num_machines),
                             l.latency_ns, l.bandwidth_gbps, l.multiplicity});
        std::vector<PendingLink>().swap(links_);
    }
    // Links sorted by endpoints (then declaration), the order the network
    // keeps: one order for one network, however the links were written down,
    // and duplicates end up side by side. Archives come in that order: then
    // checking it is all the sorting there is.
    const auto ends = [](const Link& l) {
        return l.a < l.b ? std::pair{l.a, l.b} : std::pair{l.b, l.a};
    };
    bool in_order = true;
    for (std::size_t i = 0; i < links.size(); ++i) {
        if (links[i].a.value >= vertices || links[i].b.value >= vertices)
            throw InputError("link to an undeclared machine or switch");
        if (i > 0 && !(ends(links[i - 1]) < ends(links[i]))) in_order = false;
    }
    if (!in_order) {
        std::vector<std::uint32_t> declared(links.size());
        std::iota(declared.begin(), declared.end(), 0u);
        const auto by_ends = [&](std::uint32_t x, std::uint32_t y) {
            const auto ex = ends(links[x]), ey = ends(links[y]);
            return ex != ey ? ex < ey : x < y;
        };
        std::sort(declared.begin(), declared.end(), by_ends);
        // Report the duplicate declared earliest, as a reader going line by line would.
        std::optional<std::pair<std::uint32_t, std::uint32_t>> duplicate;
        for (std::size_t i = 1; i < declared.size(); ++i)
            if (ends(links[declared[i - 1]]) == ends(links[declared[i]]) &&
                (!duplicate || declared[i] < duplicate->second))
                duplicate = std::pair{declared[i - 1], declared[i]};
        if (duplicate) {
            const Link& l = links[duplicate->second];
            auto end = [&](VertexId v) {
                const bool is_switch = v.value >= num_machines;
                const std::uint32_t index = is_switch ? v.value - num_machines : v.value;
                return DuplicateLinkError::End{
                    is_switch, index,
                    std::string(is_switch ? switch_names_[index] : machine_names_[index])};
            };
            throw DuplicateLinkError(duplicate->first, duplicate->second, end(l.a), end(l.b));
        }
        std::vector<Link> sorted;
        sorted.reserve(links.size());
        for (std::uint32_t i : declared) sorted.push_back(links[i]);
        links = std::move(sorted);
    }
    for (Link& l : links)
        if (l.b < l.a) std::swap(l.a, l.b);
    // The names are indexed before the adjacency is made: the index's
    // scratch arrays are gone before the network's arrays come (a lower peak).
    c.machine_names_ = std::move(machine_names_);
    c.switch_names_ = std::move(switch_names_);
    c.machine_names_.index();
    c.switch_names_.index();
    // Machines and switches share one namespace.
    if (auto m = c.machine_names_.repeated())
        throw DuplicateNameError(std::string(c.machine_names_[*m]), {false, *m});
    if (auto s = c.switch_names_.repeated())
        throw DuplicateNameError(std::string(c.switch_names_[*s]), {true, *s});
    if (auto s = first_shared_name(c.machine_names_, c.switch_names_))
        throw DuplicateNameError(std::string(c.switch_names_[*s]), {true, *s});
    c.network_ = Network(num_machines, c.switch_names_.size(), std::move(links),
                         std::move(machine_forwards_));
    if (!cables_.empty()) {
        std::vector<std::uint64_t> offsets(std::size_t{num_machines} + 1, 0);
        std::vector<Attachment> attachments;
        for (std::uint32_t m = 0; m < num_machines; ++m) {
            const auto it = cables_.find(m);
            offsets[m + 1] = offsets[m] + (it == cables_.end() ? 0 : it->second.size());
            if (it == cables_.end()) continue;
            for (Cable& cable : it->second) {
                const std::uint64_t peer = cable.peer.is_switch
                                               ? std::uint64_t{num_machines} + cable.peer.index
                                               : cable.peer.index;
                // Out of range: a vertex no machine is linked to, which the check reports.
                attachments.push_back({std::move(cable.device), cable.guid, cable.port,
                                       VertexId(static_cast<std::uint32_t>(
                                           std::min<std::uint64_t>(peer, 0xffffffffu)))});
            }
        }
        cables_.clear();
        try {
            c.set_attachment_parts(std::move(offsets), std::move(attachments));
        } catch (const ValueError& e) {
            throw InputError(e.what());
        }
    }

    if (!options.allow_disconnected)
        if (std::string why = disconnection(c); !why.empty())
            throw InputError(why, Remedy::allow_disconnected);
    return c;
}

} // namespace nettopo
