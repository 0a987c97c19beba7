#include "nettopo/support/limits.hpp"

#include <fmt/format.h>

namespace nettopo {

void require_within_limit(std::uint64_t count, std::uint64_t limit, std::string_view what,
                          Remedy remedy) {
    if (count > limit)
        throw InputError(fmt::format("{}: {}, more than the limit of {}", what, count, limit),
                         remedy);
}

} // namespace nettopo
