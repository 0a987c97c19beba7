// Writes a cluster as a Scotch target architecture (a .tgt file), so that
// Scotch (gmap, gpart -t, SCOTCH_archLoad) maps a process graph onto its PEs.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <ostream>

namespace nettopo {

// A decomposition-defined target holds the distance between every two of its
// terminals (N(N-1)/2 numbers) and Scotch builds a table over its domains
// (about 2N(2N-1)/2 numbers): beyond this many PEs the file and Scotch's
// table grow past what a mapping run should load (4096 PEs: about 8.4
// million distances, 40 MB of text, 134 MB in Scotch).
inline constexpr std::uint32_t max_scotch_target_pes = 4096;

// The cluster as Scotch's "deco 0" (decomposition-defined) architecture,
// the format Scotch's amk_grf writes and atst reads:
//
//   deco
//   0
//   N  MAX                    terminals (PEs), largest terminal domain number
//   PE  1  DOMAIN             one line per PE in PE order: label, weight, domain
//   D(1,0)                    then one line per PE i = 1..N-1: its distances
//   D(2,0) D(2,1)             to PEs 0..i-1
//   ...
//
// Terminals are the PEs (label = PE id, weight 1), so a mapping names the PE
// each process goes to, and two PEs of one machine are closer than two of
// different machines. Distances are nettopo's latencies (QueryEngine::
// distance: the meeting level's latency inside a machine, the least total link
// latency between machines) in nanoseconds rounded to the nearest integer,
// at least 1 (Scotch refuses 0). Domain numbers come from a recursive
// bisection of the PE range (domain d splits into 2d and 2d+1, the root is
// 1): each range is cut where the latency between neighbouring PEs is largest
// among the cuts that keep both halves within the next power of two, so the
// halves follow machines, switches and packages while MAX stays below 4N.
// Scotch's recursive bipartitioning mapper descends this decomposition.
//
// Throws InputError when the cluster has more than max_scotch_target_pes PEs
// or two PEs that no path joins; nothing is written then. Cost: N(N-1)/2
// distance queries (one network search per PE's machine).
void write_scotch_target(const Cluster& cluster, std::ostream& out);

} // namespace nettopo
