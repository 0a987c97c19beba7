// Rails in a drawing (dot_writer.hpp): the colours a rail's switches and
// cables are drawn in, and the rails of a generated rail-optimized cluster.
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

// By switch id, the rail of each switch of a cluster that nettopo-gen made
// as rail-optimized and that still has the family's numbers of machines,
// switches and links: leaf u*R + r serves rail r, the spines none
// (no_rail). Empty for any other cluster: the archive does not record a real
// fabric's adapters, so its rails are not known here.
std::vector<std::uint32_t> generated_switch_rails(const Cluster& c);

} // namespace nettopo::detail
