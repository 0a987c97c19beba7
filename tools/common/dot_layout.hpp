// Where a DOT drawing puts things (dot_writer.cpp): the layers of an
// unplaced drawing, and a family's coordinates with the collapsed boxes set
// among them for a placed one.
#pragma once

#include "common/dot_groups.hpp"
#include "nettopo/families/family.hpp"
#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nettopo::detail {

// Hops from the nearest machine: edges are written from the farther end, so
// that `dot` ranks core switches above leaves and leaves above machines.
std::vector<std::uint32_t> levels(const Network& net);

// Where each vertex goes when the cluster is drawn at its family's
// coordinates (empty otherwise), and the family that says so.
struct Layout {
    std::unique_ptr<Family> family;
    std::vector<PlanePoint> points;
};
Layout family_layout(const Cluster& c);

// A point of a family's layout as a DOT attribute: pos="X,Y!" in inches.
std::string position(PlanePoint p);

// Where a placed drawing puts each vertex and each collapsed box: what is
// drawn of a switch's machines (boxes, and machines alone, in machine id
// order) takes the places of its first machines, nearest the switch, so that
// nothing lands on a box; a few items where many machines were laid out go
// on one arc around the direction the machines went instead.
struct Places {
    std::vector<PlanePoint> vertices, groups;
};
Places place(const Cluster& c, const std::vector<PlanePoint>& laid_out, const DotGroups& d);

} // namespace nettopo::detail
