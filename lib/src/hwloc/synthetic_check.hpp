// Our own check of an hwloc synthetic description, run before hwloc sees it:
// hwloc only answers EINVAL, and users deserve to know which token is wrong.
// It also takes out nettopo's own words, the devices (gpu:N nic:N), which
// hwloc's syntax does not have.
#pragma once

#include "nettopo/tree/generated_devices.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace nettopo::detail {

// A synthetic description, read.
struct CheckedSynthetic {
    std::uint64_t pus = 0;  // PUs the levels imply, which hwloc's result must then have
    std::string levels;     // the description without its device words: hwloc's part
    DeviceCounts devices{}; // gpu:N and nic:N, 0 when absent
};

// Throws InputError naming the first bad token.
CheckedSynthetic check_synthetic(std::string_view description);

} // namespace nettopo::detail
