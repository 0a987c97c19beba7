#include "nettopo/model/model_bytes.hpp"

namespace nettopo {

namespace {

template <class T> std::uint64_t bytes_of(std::span<const T> a) {
    return std::uint64_t{a.size()} * sizeof(T);
}

std::uint64_t name_bytes(const NameTable& names) {
    return names.pool().size() + bytes_of(names.offsets()) + bytes_of(names.sorted_index());
}

} // namespace

std::uint64_t model_bytes(const Cluster& cluster) {
    const Network& net = cluster.network();
    std::uint64_t bytes = sizeof(Cluster) + cluster.name().size() + cluster.family().size();
    bytes += bytes_of(net.links()) + bytes_of(net.csr_offsets()) + bytes_of(net.csr_targets()) +
             bytes_of(net.csr_latencies_ps()) + bytes_of(net.csr_link_ids()) +
             bytes_of(net.forward_flags());
    bytes += name_bytes(cluster.machine_names()) + name_bytes(cluster.switch_names());
    bytes += (cluster.runs().size() + 1) * sizeof(Cluster::Run);
    for (std::uint32_t t = 0; t < cluster.num_types(); ++t)
        bytes += sizeof(MachineType) + bytes_of(cluster.type(TypeId(t)).tree().objects());
    return bytes;
}

} // namespace nettopo
