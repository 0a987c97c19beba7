#include "nettopo/model/cluster.hpp"

#include "nettopo/model/detail/name_hint.hpp"
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace nettopo {

void Cluster::set_name(std::string name) {
    check_name("cluster name", name);
    name_ = std::move(name);
}

namespace {
template <class Key>
const Cluster::Run& find_run(std::span<const Cluster::Run> runs, std::uint32_t value, Key key) {
    // Last run whose first element is <= value (runs are sorted and non-empty).
    auto it = std::upper_bound(runs.begin(), runs.end(), value,
                               [&](std::uint32_t v, const Cluster::Run& r) { return v < key(r); });
    return *(it - 1);
}
} // namespace

const Cluster::Run& Cluster::run_of_machine(MachineId m) const {
    return find_run(runs(), m.value, [](const Run& r) { return r.first_machine; });
}
const Cluster::Run& Cluster::run_of_pe(PeId p) const {
    return find_run(runs(), p.value, [](const Run& r) { return r.first_pe; });
}
const Cluster::Run& Cluster::run_of_node(NodeId n) const {
    return find_run(runs(), n.value, [](const Run& r) { return r.first_node; });
}

namespace {
// Offsets of a per-machine CSR of `count` items (identities, attachments):
// empty, or one per machine and one more, from 0 to `count`, ascending.
// ValueError naming `what` otherwise. Returns whether it holds any item.
bool check_machine_offsets(std::span<const std::uint64_t> offsets, std::size_t count,
                           std::uint32_t machines, std::string_view what) {
    if (offsets.empty()) {
        if (count != 0) throw ValueError("", fmt::format("{} without their machines", what));
        return false;
    }
    if (offsets.size() != std::uint64_t{machines} + 1 || offsets.front() != 0 ||
        offsets.back() != count)
        throw ValueError("", fmt::format("the {} do not match the machines", what));
    for (std::uint32_t m = 0; m < machines; ++m)
        if (offsets[m] > offsets[m + 1])
            throw ValueError("", fmt::format("the {} are out of order", what));
    return true;
}
} // namespace

void Cluster::set_identity_parts(std::vector<std::uint64_t> offsets,
                                 std::vector<DeviceIdentity> identities) {
    const std::uint32_t machines = num_machines();
    if (!check_machine_offsets(offsets, identities.size(), machines, "device identities")) {
        identity_offsets_.clear();
        identities_.clear();
        return;
    }
    for (std::uint32_t m = 0; m < machines; ++m) {
        const std::size_t devices = type(type_of(MachineId(m))).tree().devices().size();
        for (std::uint64_t i = offsets[m]; i < offsets[m + 1]; ++i) {
            const DeviceIdentity& d = identities[i];
            if (d.device >= devices)
                throw ValueError("", fmt::format("machine {} has an identity of a device its "
                                                 "type lacks",
                                                 machine_name(MachineId(m))));
            if (const std::string problem = identity_problem(d); !problem.empty())
                throw ValueError("", fmt::format("an identity of machine {} {}",
                                                 machine_name(MachineId(m)), problem));
        }
    }
    identity_offsets_ = std::move(offsets);
    identities_ = std::move(identities);
}

void Cluster::set_attachment_parts(std::vector<std::uint64_t> offsets,
                                   std::vector<Attachment> attachments) {
    const std::uint32_t machines = num_machines();
    if (!check_machine_offsets(offsets, attachments.size(), machines, "adapter attachments")) {
        attachment_offsets_.clear();
        attachments_.clear();
        return;
    }
    const std::uint64_t vertices = std::uint64_t{machines} + num_switches();
    for (std::uint32_t m = 0; m < machines; ++m) {
        const std::string_view host = machine_name(MachineId(m));
        const auto near = network_.neighbors(VertexId(m));
        for (std::uint64_t i = offsets[m]; i < offsets[m + 1]; ++i) {
            const Attachment& a = attachments[i];
            if (a.device.empty())
                throw ValueError(
                    "", fmt::format("machine {} has an adapter without a device name", host));
            if (const std::string problem = name_problem(a.device); !problem.empty())
                throw ValueError("", fmt::format("machine {} has an adapter whose device name {}",
                                                 host, problem));
            if (a.peer.value >= vertices || a.peer.value == m ||
                std::find(near.begin(), near.end(), a.peer) == near.end())
                throw ValueError("", fmt::format("adapter {} of machine {} is cabled to a vertex "
                                                 "the machine has no link to",
                                                 a.device, host));
            for (std::uint64_t j = offsets[m]; j < i; ++j)
                if (attachments[j].device == a.device && attachments[j].port == a.port)
                    throw ValueError("", fmt::format("machine {} has adapter {} port {} twice",
                                                     host, a.device, a.port));
        }
    }
    attachment_offsets_ = std::move(offsets);
    attachments_ = std::move(attachments);
}

Cluster Cluster::from_parts(std::string name, std::string family, std::vector<MachineType> types,
                            std::span<const Run> runs, NameTable machine_names,
                            NameTable switch_names, Network network) {
    const std::uint32_t machines = network.num_machines();
    if (machines == 0 || runs.empty() || runs.front().first_machine != 0)
        throw ValueError("", "the runs of machines do not start at the first machine");
    if (machine_names.size() != machines || switch_names.size() != network.num_switches())
        throw ValueError("", "the name tables do not match the network");
    Cluster c;
    std::uint64_t pe = 0, node = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const Run& r = runs[i];
        const std::uint32_t end = i + 1 < runs.size() ? runs[i + 1].first_machine : machines;
        if (r.type.value >= types.size() || r.first_machine >= end || end > machines)
            throw ValueError("", fmt::format("run {} of machines is out of order or range", i));
        c.runs_.push_back({r.first_machine, static_cast<std::uint32_t>(pe),
                           static_cast<std::uint32_t>(node), r.type});
        const MachineType& t = types[r.type.value];
        if (t.num_pus() == 0)
            throw ValueError("", fmt::format("machine type {} has no PU", r.type.value));
        pe += std::uint64_t{end - r.first_machine} * t.num_pus();
        node += std::uint64_t{end - r.first_machine} * t.num_nodes();
        if (pe >= 0xffffffffull || node >= 0xffffffffull)
            throw ValueError("", "too many PEs or nodes for 32-bit ids");
    }
    c.runs_.push_back(
        {machines, static_cast<std::uint32_t>(pe), static_cast<std::uint32_t>(node), TypeId()});
    c.name_ = std::move(name);
    c.family_ = std::move(family);
    c.types_ = std::move(types);
    c.machine_names_ = std::move(machine_names);
    c.switch_names_ = std::move(switch_names);
    c.network_ = std::move(network);
    return c;
}

std::string_view Cluster::vertex_name(VertexId v) const {
    return network_.is_machine(v) ? machine_name(MachineId(v.value))
                                  : switch_name(switch_of_vertex(v));
}

std::optional<MachineId> Cluster::find_machine(std::string_view name) const {
    if (auto i = machine_names_.find(name)) return MachineId(*i);
    return std::nullopt;
}
std::optional<SwitchId> Cluster::find_switch(std::string_view name) const {
    if (auto i = switch_names_.find(name)) return SwitchId(*i);
    return std::nullopt;
}
std::optional<VertexId> Cluster::find_vertex(std::string_view name) const {
    if (auto m = find_machine(name)) return vertex(*m);
    if (auto s = find_switch(name)) return vertex(*s);
    return std::nullopt;
}

MachineId Cluster::machine_of(PeId p) const {
    const Run& r = run_of_pe(p);
    return MachineId(r.first_machine + (p.value - r.first_pe) / type(r.type).num_pus());
}

std::uint32_t Cluster::local_pu(PeId p) const {
    const Run& r = run_of_pe(p);
    return (p.value - r.first_pe) % type(r.type).num_pus();
}

NodeId Cluster::first_node(MachineId m) const {
    const Run& r = run_of_machine(m);
    return NodeId(r.first_node + (m.value - r.first_machine) * type(r.type).num_nodes());
}

NodeId Cluster::node_of(PeId p) const {
    const Run& r = run_of_pe(p);
    const MachineType& t = type(r.type);
    const std::uint32_t offset = p.value - r.first_pe;
    return NodeId(r.first_node + offset / t.num_pus() * t.num_nodes() +
                  t.node_of_pu(offset % t.num_pus()));
}

MachineId Cluster::machine_of_node(NodeId n) const {
    const Run& r = run_of_node(n);
    return MachineId(r.first_machine + (n.value - r.first_node) / type(r.type).num_nodes());
}

PeRange Cluster::pes_of_machine(MachineId m) const {
    const Run& r = run_of_machine(m);
    const std::uint32_t ppm = type(r.type).num_pus();
    return {r.first_pe + (m.value - r.first_machine) * ppm, ppm};
}

PeRange Cluster::pes_of_node(NodeId n) const {
    const Run& r = run_of_node(n);
    const MachineType& t = type(r.type);
    const std::uint32_t offset = n.value - r.first_node;
    const std::uint32_t machine_first_pe = r.first_pe + offset / t.num_nodes() * t.num_pus();
    const TreeObject& obj = t.tree().object(t.node_object(offset % t.num_nodes()));
    return {machine_first_pe + obj.first_pu, obj.pu_count};
}

namespace {
std::vector<PeId> others(PeRange r, PeId self) {
    std::vector<PeId> v;
    v.reserve(r.count ? r.count - 1 : 0);
    for (std::uint32_t i = 0; i < r.count; ++i)
        if (r[i] != self) v.push_back(r[i]);
    return v;
}
} // namespace

std::vector<PeId> Cluster::on_same_machine(PeId p) const {
    return others(pes_of_machine(machine_of(p)), p);
}
std::vector<PeId> Cluster::on_same_node(PeId p) const {
    return others(pes_of_node(node_of(p)), p);
}

// One run lookup (none on a homogeneous cluster), a's PU by multiply-high,
// b tested against a's machine's PE range, the nodes from the per-PU table,
// and no branch on the answer (random pairs would mispredict it): the same
// answers as comparing machine_of and node_of of both PEs.
std::optional<Ancestor> Cluster::common_ancestor(PeId a, PeId b) const {
    const PePair p = pe_pair(a, b);
    if (!p.same_machine) return std::nullopt;
    const MachineId m(p.run.first_machine + (a.value - p.run.first_pe) / p.type.num_pus());
    const ObjectId o = p.type.common_ancestor(p.pu_a, p.pu_b);
    const TreeObject& obj = p.type.tree().object(o);
    // Logical indexes count over the whole cluster's machines of this type
    // would mislead; report the index inside the machine, as lstopo does.
    return Ancestor{m, o, obj.type, obj.logical_index, obj.level_depth};
}

double Cluster::intra_machine_latency(PeId a, PeId b) const {
    return machine_type(machine_of(a)).latency_between(local_pu(a), local_pu(b));
}

const CpuKind* Cluster::cpu_kind_of(PeId p) const {
    const MachineTree& tree = machine_type(machine_of(p)).tree();
    const std::optional<std::uint32_t> kind = tree.cpu_kind_of_pu(local_pu(p));
    return kind ? &tree.cpu_kinds()[*kind] : nullptr;
}

PeId Cluster::require_pe(std::uint64_t index) const {
    if (index >= num_pes())
        throw UsageError(fmt::format("PE {} does not exist: the cluster has {} PEs (0..{})", index,
                                     num_pes(), num_pes() - 1));
    return PeId(static_cast<std::uint32_t>(index));
}

NodeId Cluster::require_node(std::uint64_t index) const {
    if (index >= num_nodes())
        throw UsageError(fmt::format("node {} does not exist: the cluster has {} nodes (0..{})",
                                     index, num_nodes(), num_nodes() - 1));
    return NodeId(static_cast<std::uint32_t>(index));
}

MachineId Cluster::require_machine(std::string_view name) const {
    if (auto m = find_machine(name)) return *m;
    throw UsageError(no_machine_named(*this, name));
}

VertexId Cluster::require_vertex(std::string_view name) const {
    if (auto v = find_vertex(name)) return *v;
    throw UsageError(no_machine_or_switch_named(*this, name));
}

std::string cluster_counts(const Cluster& c) {
    return fmt::format("{}, {}, {}, {}, {}", counted(c.num_machines(), "machine"),
                       counted(c.num_switches(), "switch"), counted(c.num_net_links(), "link"),
                       counted(c.num_pes(), "PE"), counted(c.num_nodes(), "node"));
}

} // namespace nettopo
