// Size arithmetic shared by the family factories: every count is computed in
// 64 bits and checked against what the cluster's 32-bit ids can hold before
// anything is allocated, so a request too large is a clear message, not a
// wrapped-around size.
#pragma once

#include "nettopo/support/error.hpp"
#include "nettopo/support/ids.hpp"

#include <cstdint>
#include <fmt/format.h>
#include <string_view>

namespace nettopo::detail {

// Counts above this are refused whatever they count: machines, switches,
// vertices, links (each link takes two adjacency slots, hence the half).
inline constexpr std::uint64_t max_vertices = max_id_count - 1;
inline constexpr std::uint64_t max_links = (max_id_count - 1) / 2;

// a * b, or UsageError naming `what` when the product passes `limit`.
inline std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b, std::string_view what,
                                 std::uint64_t limit = max_vertices) {
    if (a != 0 && b > limit / a)
        throw UsageError(fmt::format("{}: more than {}, beyond nettopo's 32-bit ids", what, limit));
    return a * b;
}

inline std::uint64_t checked_add(std::uint64_t a, std::uint64_t b, std::string_view what,
                                 std::uint64_t limit = max_vertices) {
    if (a > limit || b > limit - a)
        throw UsageError(fmt::format("{}: more than {}, beyond nettopo's 32-bit ids", what, limit));
    return a + b;
}

// Refuses a parameter below `least`.
inline void require_at_least(std::string_view family, std::string_view param, std::uint64_t value,
                             std::uint64_t least) {
    if (value < least)
        throw UsageError(
            fmt::format("{}: {} must be at least {} (got {})", family, param, least, value));
}

} // namespace nettopo::detail
