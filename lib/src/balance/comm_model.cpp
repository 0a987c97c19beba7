#include "nettopo/balance/comm_model.hpp"

#include "nettopo/query/network_search.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace nettopo {

namespace {

// A machine's widest known link (parallel cables counted), 0 when none is known.
double widest_link_gbps(const Network& net, VertexId v) {
    double best = 0;
    for (std::uint32_t l : net.neighbor_links(v)) {
        const Link& link = net.links()[l];
        best = std::max(best, link.bandwidth_gbps * link.multiplicity);
    }
    return best;
}

void require_connected(const Cluster& cluster) {
    if (cluster.num_machines() < 2) return;
    std::vector<std::uint32_t> hops;
    NetworkSearch(cluster.network()).hops_from(cluster.vertex(MachineId(0)), hops);
    for (std::uint32_t m = 1; m < cluster.num_machines(); ++m)
        if (hops[m] == NetworkSearch::unreachable_hops)
            throw InputError(fmt::format("machines {} and {} are not connected: a job cannot "
                                         "span them",
                                         cluster.machine_name(MachineId(0)),
                                         cluster.machine_name(MachineId(m))));
}

} // namespace

CommModel::CommModel(const Cluster& cluster, const CommModelOptions& options)
    : cluster_(&cluster), options_(options) {
    if (!(options.intra_machine_gbps > 0) || !(options.default_link_gbps > 0))
        throw UsageError("bandwidths of the communication model must be > 0");
    for (const double v :
         {options.network_costs.overhead_seconds, options.network_costs.gap_seconds,
          options.intra_machine_costs.overhead_seconds, options.intra_machine_costs.gap_seconds,
          options.min_round_seconds})
        if (!(v >= 0) || !std::isfinite(v))
            throw UsageError("message overheads, gaps and the round floor must be finite and >= 0");
    software_costs_ = options.network_costs.any() || options.intra_machine_costs.any() ||
                      options.min_round_seconds > 0;
    require_connected(cluster);
    DistancePolicy policy = options.index;
    if (policy.use == IndexUse::Auto) policy.use = IndexUse::Always;
    index_ = build_distances(cluster, plan_distances(cluster, policy));
    const Network& net = cluster.network();
    injection_gbps_.resize(cluster.num_machines());
    for (std::uint32_t m = 0; m < cluster.num_machines(); ++m) {
        const double w = widest_link_gbps(net, cluster.vertex(MachineId(m)));
        injection_gbps_[m] = w > 0 ? w : options.default_link_gbps;
    }
}

std::uint32_t CommModel::hops(PeId a, PeId b) const {
    const MachineId ma = cluster_->machine_of(a), mb = cluster_->machine_of(b);
    return ma == mb ? 0 : index_->hops(ma, mb);
}

double CommModel::latency_ns(PeId a, PeId b) const {
    const MachineId ma = cluster_->machine_of(a), mb = cluster_->machine_of(b);
    if (ma == mb) return cluster_->intra_machine_latency(a, b);
    return picoseconds_to_ns(index_->latency_ps(ma, mb));
}

double CommModel::bandwidth_gbps(PeId a, PeId b) const {
    const MachineId ma = cluster_->machine_of(a), mb = cluster_->machine_of(b);
    if (ma == mb) return options_.intra_machine_gbps;
    return std::min(injection_gbps_[ma.value], injection_gbps_[mb.value]);
}

double CommModel::transfer_seconds(PeId a, PeId b, double bytes) const {
    if (a == b) return 0;
    return latency_ns(a, b) * 1e-9 + bytes * 8 / (bandwidth_gbps(a, b) * 1e9);
}

const MessageCosts& CommModel::message_costs(PeId a, PeId b) const {
    static constexpr MessageCosts none{};
    if (a == b) return none;
    return cluster_->machine_of(a) == cluster_->machine_of(b) ? options_.intra_machine_costs
                                                              : options_.network_costs;
}

double CommModel::send_seconds(PeId a, PeId b) const {
    const MessageCosts& c = message_costs(a, b);
    return std::max(c.overhead_seconds, c.gap_seconds);
}

double CommModel::receive_seconds(PeId a, PeId b) const {
    return message_costs(a, b).overhead_seconds;
}

std::vector<MachineId> CommModel::adjacent_machines(MachineId m) const {
    const Network& net = cluster_->network();
    std::vector<std::uint8_t> seen(net.num_vertices(), 0);
    std::vector<VertexId> level{cluster_->vertex(m)}, next;
    seen[level.front().value] = 1;
    std::vector<MachineId> found;
    while (!level.empty() && found.empty()) {
        next.clear();
        for (VertexId v : level)
            for (VertexId w : net.neighbors(v))
                if (!seen[w.value]) {
                    seen[w.value] = 1;
                    next.push_back(w);
                    if (net.is_machine(w)) found.push_back(MachineId(w.value));
                }
        level.swap(next);
    }
    std::sort(found.begin(), found.end());
    return found;
}

} // namespace nettopo
