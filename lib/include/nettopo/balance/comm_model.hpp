// What a message between two PEs costs, as load balancers and the
// simulator see it: hop counts and latencies from the cluster (the machine
// tree inside a host, a distance index across the network) and a
// bandwidth per pair.
//
// Bandwidth model (documented in share/doc/balance.md): inside a machine,
// `intra_machine_gbps`; between machines, the smaller of the two machines'
// injection bandwidths, a machine's injection bandwidth being the largest
// known bandwidth among its network links (times their multiplicity), or
// `default_link_gbps` when none of its links has one. The path's own
// bottleneck is not searched: on the fabrics nettopo models the host link
// is the narrowest hop.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_index.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace nettopo {

struct CommModelOptions {
    double intra_machine_gbps = 100.0; // memory copy between two PUs of one host
    double default_link_gbps = 10.0;   // a network link of unknown bandwidth
    // How the machine-to-machine index is built; kind Search builds none:
    // every distance is a search (slow, the answers are the same).
    DistanceIndexOptions index;
    // An index kept for this cluster (read with it from a binary image,
    // formats/image.hpp): used instead of building one.
    std::shared_ptr<const DistanceIndex> kept_index;
};

class CommModel {
public:
    // Builds a distance index over the cluster (closed form for generated
    // families), unless options.kept_index gives one; the cluster must
    // outlive the model. Throws InputError when
    // two machines are not connected: a job cannot span them.
    explicit CommModel(const Cluster& cluster, const CommModelOptions& options = {});

    const Cluster& cluster() const { return *cluster_; }
    const DistanceIndex& index() const { return *index_; }

    // Network links between the PEs' machines; 0 inside one machine.
    std::uint32_t hops(PeId a, PeId b) const;
    // 0 for the same PE; the meeting level's latency inside a machine; the
    // network latency between the machines otherwise.
    double latency_ns(PeId a, PeId b) const;
    double bandwidth_gbps(PeId a, PeId b) const;
    // latency + bytes / bandwidth, in seconds; 0 for the same PE.
    double transfer_seconds(PeId a, PeId b, double bytes) const;

    // The machines nearest to m by hop count (all those at the smallest
    // non-zero hop distance that holds a machine), in increasing id order:
    // direct neighbours on a torus, the other hosts of the leaf switch on a
    // fat tree. NeighborLB's neighbourhood across machines; one BFS per call.
    std::vector<MachineId> adjacent_machines(MachineId m) const;

private:
    const Cluster* cluster_;
    CommModelOptions options_;
    std::shared_ptr<const DistanceIndex> index_;
    std::vector<double> injection_gbps_; // per machine
};

} // namespace nettopo
