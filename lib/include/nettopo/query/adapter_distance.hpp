/// \file
/// Questions that start or end at an adapter or a GPU rather than at a
/// machine (model/attachment.hpp): "hops from GPU 2 of dgx01 to GPU 5 of
/// dgx02", "rail 1 of A to rail 2 of B".
///
/// An end is a machine and the attachments it may leave through:
/// - an adapter (`dgx01:mlx5_3`): its own cabled ports;
/// - a GPU (`dgx01:gpu2`): the ports of its nearest cabled adapter, by the
///   device matrix's class (PIX before PXB, PHB, NODE, SYS), then the
///   latency from the GPU's PUs to the adapter's, then the machine's
///   adapter order (the rule distribute_gpus uses for "which NIC for the
///   rank on GPU 2", share/doc/gpu-nodes.md);
/// - a whole machine (a PE): every port, so that its answers are the
///   machine-level answers (the best pair of adapters).
/// Between two ends of one machine the answer is 0 hops (the traffic stays
/// inside the host). Otherwise it is the best pair of ports (a, b): the
/// machine's link to a's peer, a shortest path from a's peer to b's peer
/// through vertices that forward, and the link from b's peer to the other
/// machine. Hops count links, latencies add link latencies in picoseconds,
/// as NetworkSearch does.
///
/// \threads One thread at a time per AdapterDistances (it keeps its rows
/// and its search); the free functions only read the cluster.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/query/network_search.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nettopo {

/// One end of an adapter-level question (see the file's comment).
struct AdapterEnd {
    MachineId machine;                     ///< the machine
    std::vector<std::uint32_t> ports = {}; ///< indexes into its attachments(); all for a PE
    std::string label = {};                ///< how answers name it: "dgx01:gpu2", empty for a PE
};

/// The end a device is (a NIC's ports, a GPU's nearest adapter's); nullopt
/// when the machine keeps no attachment for it. O(adapters x devices).
/// \throws std::bad_alloc only.
std::optional<AdapterEnd> device_end(const Cluster& cluster, MachineDevice d);
/// The end "HOST:NAME" names: an attachment's device name on HOST (also for
/// a host whose tree has no such device, its name coming from the fabric),
/// else a device of HOST's tree (device_end). Nullopt when the text is not
/// of that form or HOST has no such device; UsageError when HOST has the
/// device but no attachment leads out of it ("dgx01:gpu2: the cluster
/// keeps no adapter cables of dgx01", "dgx01:mlx5_9 is cabled nowhere").
/// O(log machines + adapters x devices).
std::optional<AdapterEnd> find_adapter_end(const Cluster& cluster, std::string_view text);
/// A machine's end: every attachment. O(its attachments).
/// \throws std::bad_alloc only.
AdapterEnd machine_end(const Cluster& cluster, MachineId m);

/// An answer: its value and the ports that give it.
struct AdapterAnswer {
    std::int64_t value = 0;     ///< hops, or picoseconds
    std::uint32_t a_port = ~0u; ///< the port of the first end (~0u inside one machine)
    std::uint32_t b_port = ~0u; ///< the port of the second end
};

/// Adapter-level hop counts, latencies and paths of one cluster.
/// \cost The first question from an attachment's peer costs one BFS and one
/// Dijkstra over the network; later ones from the same peer are a lookup per
/// pair of ports (rows of the peers' distances are kept: at most P x P
/// entries of 12 bytes for P distinct peers). A path is one more search.
/// \throws std::bad_alloc only; ends must be of this cluster (precondition).
class AdapterDistances {
public:
    /// For `cluster`, which must outlive it. O(attachments).
    explicit AdapterDistances(const Cluster& cluster);
    /// Fewest links between the ends; nullopt when unreachable.
    std::optional<AdapterAnswer> hops(const AdapterEnd& a, const AdapterEnd& b);
    /// Smallest total link latency between the ends, in picoseconds.
    std::optional<AdapterAnswer> latency_ps(const AdapterEnd& a, const AdapterEnd& b);
    /// One shortest path by `metric`, from a's machine to b's, both included
    /// (the answer's ports say which adapters it leaves and enters by).
    std::optional<std::pair<AdapterAnswer, std::vector<VertexId>>>
    path(const AdapterEnd& a, const AdapterEnd& b, PathMetric metric);

private:
    struct Row {
        std::vector<std::uint32_t> hops;
        std::vector<std::int64_t> ps;
    };
    const Row& row(std::uint32_t peer_ordinal);
    std::optional<AdapterAnswer> best(const AdapterEnd& a, const AdapterEnd& b, bool by_hops);

    const Cluster* cluster_;
    std::vector<std::uint32_t> ordinal_;   ///< by vertex: its ordinal as a peer, or ~0u
    std::vector<VertexId> peers_;          ///< by ordinal
    std::vector<std::optional<Row>> rows_; ///< by ordinal, made on demand
    NetworkSearch search_;
};

} // namespace nettopo
