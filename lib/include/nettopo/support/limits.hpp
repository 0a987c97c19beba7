/// \file
/// nettopo's declared limits, in one place (share/doc/limits.md). A reader
/// checks a count against them *before* the work it would cause: a 30-byte
/// description "machines n[0-4294967293] pu:1" or a 34-byte topology.conf
/// "Nodes=n[0-16777215]" is refused at once, not after minutes and gigabytes.
/// The library reads no environment: a tool that lets its user raise a limit
/// passes the raised Limits down through its load or generate options.
/// \cost Everything here is a value or a pure function: O(1). Nothing
/// throws but require_within_limit (InputError past the limit).
/// \threads No shared state: safe from several threads at once.
#pragma once

#include "nettopo/support/error.hpp"
#include "nettopo/support/ids.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace nettopo {

/// Machines + switches per cluster by default: 2^22 = 4,194,304, 26 times
/// Fugaku's 158,976 nodes. A 10^6-machine torus of 32-PE machines fits.
inline constexpr std::uint64_t default_max_vertices = std::uint64_t{1} << 22;
/// Links per cluster by default: 16 per vertex at the vertex limit.
inline constexpr std::uint64_t default_max_links = std::uint64_t{1} << 26;
/// PEs per cluster: what 32-bit PE ids hold (32 M PEs of the 10^6 x 32 torus fit).
inline constexpr std::uint64_t max_pes = max_id_count - 1;
/// Nesting of a machine tree (hwloc objects, the archive's `<object>`s): real
/// machines have about a dozen levels; the cap keeps every recursive walk
/// within the stack whatever a malformed file nests.
inline constexpr std::uint32_t max_nesting_depth = 64;
/// nettopo-gen's estimate of a generated cluster's memory, by default: 8 GiB.
inline constexpr std::uint64_t default_max_generated_bytes = std::uint64_t{8} << 30;
/// Latency sums are int64 picoseconds. A cluster in which a simple path
/// (at most vertices - 1 links) could cost more is refused when built, so no
/// sum of link latencies ever overflows (see cluster_builder.hpp).
inline constexpr std::int64_t max_latency_sum_ps = std::numeric_limits<std::int64_t>::max();

/// The limits a load or a generation is held to. The defaults refuse what no
/// real cluster comes near; every field may be raised up to what the ids hold.
struct Limits {
    /// Machines + switches of one cluster (the names it declares); also the
    /// names one file may expand hostlists to (Slurm conf/yaml: per file,
    /// not per expression).
    std::uint64_t max_vertices = default_max_vertices;
    std::uint64_t max_links = default_max_links; ///< links of one cluster
    /// An up-front estimate of a generated cluster's memory (nettopo-gen).
    std::uint64_t max_generated_bytes = default_max_generated_bytes;

    /// Every limit at what the 32-bit ids hold: nothing refused but what
    /// cannot be represented.
    static constexpr Limits ids_only() {
        return Limits{max_id_count - 1, (max_id_count - 1) / 2,
                      std::numeric_limits<std::uint64_t>::max()};
    }
};

/// Throws InputError "<what>: <count>, more than the limit of <limit>", with
/// `remedy`, when count > limit; `what` says what is counted ("machines and
/// switches"). The message names no tool option: a tool says how to raise
/// the limit from the remedy. Throws nothing when within the limit.
void require_within_limit(std::uint64_t count, std::uint64_t limit, std::string_view what,
                          Remedy remedy);

/// a + b saturated at `cap` (no wrap-around, no undefined
/// behaviour); counts are checked against a limit after saturating.
constexpr std::uint64_t
saturating_add(std::uint64_t a, std::uint64_t b,
               std::uint64_t cap = std::numeric_limits<std::uint64_t>::max()) {
    return a > cap || b > cap - a ? cap : a + b;
}
/// a * b saturated at `cap`, as saturating_add.
constexpr std::uint64_t
saturating_mul(std::uint64_t a, std::uint64_t b,
               std::uint64_t cap = std::numeric_limits<std::uint64_t>::max()) {
    return a != 0 && b > cap / a ? cap : a * b;
}

/// hops * link_ps + ends_ps in picoseconds, or nullopt when that sum would
/// pass max_latency_sum_ps (about 106.75 days). All arguments >= 0. One check
/// for the builder's bound on every path of a cluster and for the families'
/// closed forms, so neither computes a wrapped or saturated sum.
constexpr std::optional<std::int64_t> latency_sum_ps(std::uint64_t hops, std::int64_t link_ps,
                                                     std::int64_t ends_ps) {
    constexpr auto cap = static_cast<std::uint64_t>(max_latency_sum_ps);
    const auto link = static_cast<std::uint64_t>(link_ps);
    const auto ends = static_cast<std::uint64_t>(ends_ps);
    if (link != 0 && hops > (cap - ends) / link) return std::nullopt;
    return static_cast<std::int64_t>(hops * link + ends);
}

} // namespace nettopo
