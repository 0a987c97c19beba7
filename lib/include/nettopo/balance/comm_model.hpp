/// \file
/// What a message between two PEs costs, as load balancers and the
/// simulator see it: hop counts and latencies from the cluster (the machine
/// tree inside a host, a distance index across the network) and a
/// bandwidth per pair.
///
/// Bandwidth model (documented in share/doc/balance.md): inside a machine,
/// `intra_machine_gbps`; between machines, the smaller of the two machines'
/// injection bandwidths, a machine's injection bandwidth being the largest
/// known bandwidth among its network links (times their multiplicity), or
/// `default_link_gbps` when none of its links has one. The path's own
/// bottleneck is not searched: on the fabrics nettopo models the host link
/// is the narrowest hop.
///
/// Software costs of a message (LogGP: Culler et al., PPoPP 1993; Alexandrov
/// et al., SPAA 1995): the CPU time a PE spends to send one message and again
/// to receive one (o), and the least interval between two messages one PE
/// sends (g). Zero by default, when a message costs latency + bytes /
/// bandwidth only; share/doc/balance.md gives the values of each network kind.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_plan.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace nettopo {

/// The software costs of one message (LogGP's o and g).
/// \cost A value: any() is O(1) and throws nothing.
/// \threads Const calls from several threads at once are safe.
struct MessageCosts {
    double overhead_seconds = 0; ///< o: sending one message, and again receiving it
    double gap_seconds = 0;      ///< g: between two messages sent by one PE
    /// Whether either cost is set.
    bool any() const { return overhead_seconds > 0 || gap_seconds > 0; }
};

/// How CommModel prices messages.
struct CommModelOptions {
    double intra_machine_gbps = 100.0; ///< memory copy between two PUs of one host
    double default_link_gbps = 10.0;   ///< a network link of unknown bandwidth
    /// What answers machine-to-machine distances (plan_distances). A run asks
    /// millions of them, so use Auto builds as Always does; use Never (or
    /// kind Search) searches every distance (slow, the answers are the same);
    /// index.kept, an index kept for this cluster (read with it from a binary
    /// image, formats/image.hpp), is used instead of building one.
    DistancePolicy index;
    /// Messages between machines, and between two PEs of one machine.
    MessageCosts network_costs;
    MessageCosts intra_machine_costs; ///< messages between two PEs of one machine
    /// A round of a distributed protocol lasts at least this, even when no
    /// message arrives in it: the time a PE waits before it knows nothing
    /// came (a timeout tick of the runtime's scheduler).
    double min_round_seconds = 0;
};

/// What a message between two PEs costs (see the file's comment).
/// \threads Const calls may be made from several threads at once.
/// \cost Made: the distance index's plan and build (a family's closed form
/// at once), O(V + E) for the injection bandwidths. Each query: O(log R) for
/// the PEs' machines plus the index's O(1) (labels: a label merge);
/// adjacent_machines one BFS. Queries throw nothing but std::bad_alloc.
class CommModel {
public:
    /// Builds a distance index over the cluster (closed form for generated
    /// families), unless options.index.kept gives one; the cluster must
    /// outlive the model. Throws InputError when two machines are not
    /// connected (a job cannot span them); UsageError for a bandwidth not
    /// above 0, a negative or non-finite overhead, gap or round floor, and
    /// as plan_distances and build_distances for a forced index kind.
    explicit CommModel(const Cluster& cluster, const CommModelOptions& options = {});

    /// The cluster priced.
    const Cluster& cluster() const { return *cluster_; }
    /// What answers its distances.
    const DistanceIndex& index() const { return *index_; }

    /// Network links between the PEs' machines; 0 inside one machine.
    std::uint32_t hops(PeId a, PeId b) const;
    /// 0 for the same PE; the meeting level's latency inside a machine; the
    /// network latency between the machines otherwise.
    double latency_ns(PeId a, PeId b) const;
    /// The bandwidth of a message from a to b, Gbit/s (the model above).
    double bandwidth_gbps(PeId a, PeId b) const;
    /// latency + bytes / bandwidth, in seconds; 0 for the same PE.
    double transfer_seconds(PeId a, PeId b, double bytes) const;
    /// o and g of a message from a to b (none for the same PE).
    const MessageCosts& message_costs(PeId a, PeId b) const;
    /// CPU time the sender spends on one message: max(o, g).
    double send_seconds(PeId a, PeId b) const;
    /// CPU time the receiver spends on one message: o.
    double receive_seconds(PeId a, PeId b) const;
    /// Whether any message has a software cost, or protocol rounds a floor.
    bool has_software_costs() const { return software_costs_; }
    /// CommModelOptions::min_round_seconds.
    double min_round_seconds() const { return options_.min_round_seconds; }

    /// The machines nearest to m by hop count (all those at the smallest
    /// non-zero hop distance that holds a machine), in increasing id order:
    /// direct neighbours on a torus, the other hosts of the leaf switch on a
    /// fat tree. NeighborLB's neighbourhood across machines; one BFS per call.
    std::vector<MachineId> adjacent_machines(MachineId m) const;

private:
    const Cluster* cluster_;
    CommModelOptions options_;
    std::shared_ptr<const DistanceIndex> index_;
    std::vector<double> injection_gbps_; ///< per machine
    bool software_costs_ = false;
};

} // namespace nettopo
