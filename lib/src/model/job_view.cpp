#include "nettopo/model/job_view.hpp"

#include "nettopo/model/detail/name_hint.hpp"
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

namespace {
// The error for the names of `source` missing from the cluster;
// `first_line` is the line of the first of them when `source` is a file.
InputError not_in_cluster(const Cluster& cluster, const std::vector<std::string>& missing,
                          const std::string& source, std::optional<std::size_t> first_line,
                          std::size_t second_line) {
    if (!first_line)
        return InputError(source, 0,
                          with_hint(fmt::format("{} not in the cluster: {}",
                                                missing.size() == 1 ? "a host is" : "hosts are",
                                                hostlist_excerpt(missing)),
                                    machine_names_hint(cluster, missing)));
    std::string message = fmt::format("host '{}' is not in the cluster", missing[0]);
    if (missing.size() > 1)
        message += fmt::format(" (nor {} {} more, from line {}: {})",
                               missing.size() == 2 ? "is" : "are", missing.size() - 1, second_line,
                               hostlist_excerpt({missing.begin() + 1, missing.end()}));
    return InputError(source, *first_line,
                      with_hint(std::move(message), machine_name_hint(cluster, missing[0])));
}
} // namespace

std::vector<MachineId> machines_named(const Cluster& cluster, std::span<const std::string> names,
                                      const std::string& source,
                                      std::span<const std::size_t> lines) {
    std::vector<MachineId> found;
    std::vector<std::string> missing;
    std::vector<std::size_t> missing_lines;
    const bool located = !lines.empty() && lines.size() == names.size();
    const std::vector<std::string> all(names.begin(), names.end());
    for (const std::size_t i : first_positions(all)) {
        const std::string& name = all[i];
        auto m = cluster.find_machine(name);
        if (!m) {
            const std::string_view shortname = std::string_view(name).substr(0, name.find('.'));
            if (shortname.size() != name.size()) m = cluster.find_machine(shortname);
        }
        if (m) {
            found.push_back(*m);
        } else {
            missing.push_back(name);
            if (located) missing_lines.push_back(lines[i]);
        }
    }
    if (!missing.empty())
        throw not_in_cluster(cluster, missing, source,
                             !located ? std::nullopt : std::optional<std::size_t>(missing_lines[0]),
                             missing_lines.size() > 1 ? missing_lines[1] : 0);
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

std::vector<MachineId> machines_of_hostlist(const Cluster& cluster, std::string_view hostlist,
                                            const std::string& source) {
    std::vector<std::string> names;
    try {
        names = expand_hostlist(hostlist);
    } catch (const InputError& e) {
        throw InputError(source, 0, e);
    }
    if (names.empty()) throw InputError(source, 0, "names no host");
    return machines_named(cluster, names, source);
}

} // namespace nettopo
