// Rails in a drawing (dot_writer.hpp): the colours a rail's switches and
// cables are drawn in, and which rail each switch serves.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace nettopo::detail {

// A rail's fill (light, under black text) and line colour: ColorBrewer's
// Set2 and Dark2, hue for hue (their greys replaced by Paired's blues), so
// that a leaf and its cables read as one colour. Eight colours, repeating
// beyond: a DGX host has eight rails.
std::string_view rail_fill(std::uint32_t rail);
std::string_view rail_line(std::uint32_t rail);

// By switch id, the rail each switch serves by the rails of the cluster's
// adapters (infer_rails(Cluster): an assembled fabric's, or the
// rail-optimized family's), no_rail for a spine or a leaf serving several;
// empty when the cluster keeps no adapters or they form no rail.
std::vector<std::uint32_t> switch_rails(const Cluster& c);

} // namespace nettopo::detail
