// What a drawing (dot_writer.hpp) shows in colour: the machines, switches
// and links of one shortest path, or of an allocation of machines.
//
// Text form, as a user gives it (read_dot_highlight):
//   path:A,B   the shortest path (least latency, QueryEngine::path) between
//              A and B, each a PE index (digits only, as the path query takes
//              them) or a machine name;
//   HOSTLIST   anything else: machines as a Slurm hostlist ("node[01-04]",
//              "a,b", one name), drawn with the switches and links that join
//              them: the union of the shortest paths from its first machine
//              to each other one (on a tree, the subtree spanning them).
#pragma once

#include "common/dot_writer.hpp"
#include "nettopo/model/cluster.hpp"

#include <span>
#include <string_view>

namespace nettopo {

// The path between two PEs' machines; caption "path NAME - NAME". UsageError
// when no path joins them.
DotHighlight highlight_path(const Cluster& cluster, PeId a, PeId b);

// The machines (at least one; repeats ignored) and the shortest paths from
// the first to each other one; caption "N machines: HOSTLIST". UsageError
// when one cannot be reached from the first. One search per machine.
DotHighlight highlight_machines(const Cluster& cluster, std::span<const MachineId> machines);

// Reads the text form above. ValueError naming the text for a malformed
// one, a PE index past the end, or names no machine has (all of them, as a
// hostlist: "no machine named node[05-06]").
DotHighlight read_dot_highlight(const Cluster& cluster, std::string_view text);

} // namespace nettopo
