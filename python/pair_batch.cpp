#include "pair_batch.hpp"

#include "topology.hpp"

#include <cassert>
#include <limits>
#include <string>
#include <utility>

namespace nettopo::python {

namespace {
// Ids are checked by check_pairs before any of these runs.
template <class Id> PeId pe_at(std::span<const Id> pairs, std::size_t row, int column) {
    return PeId(static_cast<std::uint32_t>(pairs[2 * row + column]));
}
} // namespace

template <class Id> void check_pairs(const Cluster& cluster, std::span<const Id> pairs) {
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const Id v = pairs[i];
        if (std::cmp_greater_equal(v, 0) && std::cmp_less(v, cluster.num_pes())) continue;
        try {
            checked_pe(cluster, v);
        } catch (const IdError& e) {
            throw IdError("pairs[" + std::to_string(i / 2) + ", " + std::to_string(i % 2) +
                          "]: " + e.what());
        }
    }
}

template <class Id>
void distances_ns(const Cluster& cluster, const DistanceIndex& index, std::span<const Id> pairs,
                  std::span<double> out) {
    assert(pairs.size() == 2 * out.size());
    for (std::size_t row = 0; row < out.size(); ++row) {
        const PeId a = pe_at(pairs, row, 0), b = pe_at(pairs, row, 1);
        const MachineId ma = cluster.machine_of(a), mb = cluster.machine_of(b);
        if (ma == mb) {
            out[row] = cluster.intra_machine_latency(a, b);
            continue;
        }
        const std::int64_t ps = index.latency_ps(ma, mb);
        out[row] = ps == DistanceIndex::unreachable_ps ? std::numeric_limits<double>::quiet_NaN()
                                                       : picoseconds_to_ns(ps);
    }
}

template <class Id>
void hop_counts(const Cluster& cluster, const DistanceIndex& index, std::span<const Id> pairs,
                std::span<std::int64_t> out) {
    assert(pairs.size() == 2 * out.size());
    for (std::size_t row = 0; row < out.size(); ++row) {
        const MachineId ma = cluster.machine_of(pe_at(pairs, row, 0));
        const MachineId mb = cluster.machine_of(pe_at(pairs, row, 1));
        const std::uint32_t h = ma == mb ? 0 : index.hops(ma, mb);
        out[row] = h == DistanceIndex::unreachable_hops ? -1 : std::int64_t{h};
    }
}

template <class Id>
void proximities(const Cluster& cluster, std::span<const Id> pairs, std::span<std::int8_t> out) {
    assert(pairs.size() == 2 * out.size());
    for (std::size_t row = 0; row < out.size(); ++row)
        out[row] =
            static_cast<std::int8_t>(cluster.proximity(pe_at(pairs, row, 0), pe_at(pairs, row, 1)));
}

#define NETTOPO_PAIR_BATCH(Id)                                                                     \
    template void check_pairs(const Cluster&, std::span<const Id>);                                \
    template void distances_ns(const Cluster&, const DistanceIndex&, std::span<const Id>,          \
                               std::span<double>);                                                 \
    template void hop_counts(const Cluster&, const DistanceIndex&, std::span<const Id>,            \
                             std::span<std::int64_t>);                                             \
    template void proximities(const Cluster&, std::span<const Id>, std::span<std::int8_t>);
NETTOPO_PAIR_BATCH(std::int64_t)
NETTOPO_PAIR_BATCH(std::uint64_t)
#undef NETTOPO_PAIR_BATCH

} // namespace nettopo::python
