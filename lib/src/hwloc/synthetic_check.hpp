// Our own check of an hwloc synthetic description, run before hwloc sees it:
// hwloc only answers EINVAL, and users deserve to know which token is wrong.
#pragma once

#include <cstdint>
#include <string_view>

namespace nettopo::detail {

// Throws InputError naming the first bad token. Returns the number of PUs
// the description implies, which hwloc's result must then have.
std::uint64_t check_synthetic(std::string_view description);

} // namespace nettopo::detail
