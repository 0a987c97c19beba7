// Keeping a distance index in a file (kept_index.hpp): a record of the
// network's checksum, one of the index's kind, then what the kind writes.
#include "nettopo/query/detail/kept_index.hpp"

#include "nettopo/support/error.hpp"
#include "query/index/closed_form_index.hpp"
#include "query/index/dense_table.hpp"
#include "query/index/folded_core.hpp"
#include "query/index/pruned_labels.hpp"

#include <fmt/format.h>

namespace nettopo {

namespace {

constexpr std::uint32_t network_tag = kept_index_tag, kind_tag = array_tag("IKND");

std::unique_ptr<DistanceIndex> read_body(const Cluster& cluster, ArrayReader& in, bool nested) {
    const auto kind = in.value<std::uint32_t>(kind_tag);
    switch (static_cast<DistanceIndexKind>(kind)) {
    case DistanceIndexKind::ClosedForm:
        if (nested) break; // a closed form's helper is a general index
        return read_closed_form_index(
            cluster, in, [&cluster](ArrayReader& r) { return read_body(cluster, r, true); });
    case DistanceIndexKind::DenseTable:
    case DistanceIndexKind::TerminalTable: // told apart by their shape's tag
        return detail::read_dense_table(detail::read_kept_core(in, cluster.num_machines()), in);
    case DistanceIndexKind::Labels:
        return detail::read_labels(detail::read_kept_core(in, cluster.num_machines()), in);
    default:
        break;
    }
    in.fail(kind_tag, "names no kept kind of index");
}

} // namespace

void write_kept_index_body(const DistanceIndex& index, ArrayWriter& out) {
    out.value(kind_tag, static_cast<std::uint32_t>(index.kind()));
    index.write_kept(out);
}

bool keeps(const DistanceIndex& index) {
    return index.can_keep();
}

void require_keepable(const DistanceIndex& index) {
    if (!index.can_keep())
        throw UsageError(
            fmt::format("a {} is not kept: it fills itself on demand", index.description()));
}

void write_kept_index(const DistanceIndex& index, const Cluster& cluster, ArrayWriter& out) {
    require_keepable(index);
    out.value(network_tag, network_checksum(cluster.network()));
    write_kept_index_body(index, out);
}

std::uint64_t kept_index_network(ArrayReader& in) {
    return in.value<std::uint64_t>(network_tag);
}

std::unique_ptr<DistanceIndex> read_kept_index(const Cluster& cluster,
                                               std::uint64_t cluster_network_checksum,
                                               std::uint64_t kept_network_checksum,
                                               ArrayReader& in) {
    if (cluster_network_checksum != kept_network_checksum)
        in.fail(fmt::format("the kept distance index was built for another network (checksum "
                            "{:016x}; this one's is {:016x})",
                            kept_network_checksum, cluster_network_checksum));
    return read_body(cluster, in, false);
}

} // namespace nettopo
