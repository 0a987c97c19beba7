#include "nettopo/model/job_view.hpp"

#include "nettopo/model/name_hint.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostfile.hpp"
#include "nettopo/support/hostlist.hpp"

#include <fmt/format.h>

namespace nettopo {

JobView::JobView(const Cluster& cluster, std::vector<MachineId> machines)
    : cluster_(&cluster), machines_(std::move(machines)),
      position_(cluster.num_machines(), outside) {
    first_pe_.reserve(machines_.size() + 1);
    first_node_.reserve(machines_.size() + 1);
    first_pe_.push_back(0);
    first_node_.push_back(0);
    for (std::uint32_t i = 0; i < machines_.size(); ++i) {
        const MachineId m = machines_[i];
        if (m.value >= cluster.num_machines())
            throw InputError(fmt::format("machine {} does not exist (the cluster has {})", m.value,
                                         cluster.num_machines()));
        if (position_[m.value] != outside)
            throw InputError(
                fmt::format("machine '{}' is in the allocation twice", cluster.machine_name(m)));
        position_[m.value] = i;
        const PeRange pes = cluster.pes_of_machine(m);
        for (std::uint32_t k = 0; k < pes.count; ++k) pe_.push_back(pes.first + k);
        const NodeId n0 = cluster.first_node(m);
        const std::uint32_t nodes = cluster.machine_type(m).num_nodes();
        for (std::uint32_t k = 0; k < nodes; ++k) node_.push_back(n0.value + k);
        first_pe_.push_back(static_cast<std::uint32_t>(pe_.size()));
        first_node_.push_back(static_cast<std::uint32_t>(node_.size()));
    }
}

std::optional<std::uint32_t> JobView::view_pe(PeId p) const {
    const MachineId m = cluster_->machine_of(p);
    const std::uint32_t i = position_[m.value];
    if (i == outside) return std::nullopt;
    return first_pe_[i] + (p.value - cluster_->pes_of_machine(m).first);
}

std::optional<std::uint32_t> JobView::view_node(NodeId n) const {
    const MachineId m = cluster_->machine_of_node(n);
    const std::uint32_t i = position_[m.value];
    if (i == outside) return std::nullopt;
    return first_node_[i] + (n.value - cluster_->first_node(m).value);
}

std::vector<MachineId> machines_named(const Cluster& cluster, std::span<const std::string> names,
                                      const std::string& source) {
    std::vector<MachineId> found;
    std::vector<std::string> missing;
    for (const std::string& name : first_occurrences({names.begin(), names.end()})) {
        auto m = cluster.find_machine(name);
        if (!m) {
            const std::string_view shortname = std::string_view(name).substr(0, name.find('.'));
            if (shortname.size() != name.size()) m = cluster.find_machine(shortname);
        }
        if (m)
            found.push_back(*m);
        else
            missing.push_back(name);
    }
    if (!missing.empty())
        throw InputError(source, 0,
                         with_hint(fmt::format("{} not in the cluster: {}",
                                               missing.size() == 1 ? "a host is" : "hosts are",
                                               hostlist_excerpt(missing)),
                                   machine_names_hint(cluster, missing)));
    // Two names of one machine (a short and a fully qualified one): once.
    std::vector<MachineId> unique;
    std::vector<char> seen(cluster.num_machines(), 0);
    for (MachineId m : found)
        if (!seen[m.value]) {
            seen[m.value] = 1;
            unique.push_back(m);
        }
    return unique;
}

} // namespace nettopo
