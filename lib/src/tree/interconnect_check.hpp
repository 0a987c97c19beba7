// The check MachineTree::Builder::finish makes of a GPU interconnect matrix
// (tree/gpu_interconnect.hpp), whatever made it: hwloc's conversion, a
// signature or an archive.
#pragma once

#include "nettopo/tree/gpu_interconnect.hpp"

#include <cstddef>

namespace nettopo::detail {

// Throws InputError unless `m` has endpoints^2 values, endpoints in range
// (`devices`, `pci` and CPU-side `objects` of its tree) and distinct, and a
// known kind (NVLink with its link bandwidth).
void check_interconnect(const Interconnect& m, std::size_t devices, std::size_t pci,
                        std::size_t objects);

} // namespace nettopo::detail
