/// \file
/// Writes a cluster as a Scotch target architecture (a .tgt file), so that
/// Scotch (gmap, gpart -t, SCOTCH_archLoad) maps a process graph onto its PEs.
/// \threads May be called from several threads at once on one const cluster,
/// each with its own stream.
/// \cost See write_scotch_target. It throws std::bad_alloc, and Error when
/// the stream fails, besides what it says.
#pragma once

#include "nettopo/model/cluster.hpp"

#include <cstdint>
#include <ostream>

namespace nettopo {

/// A decomposition-defined target holds the distance between every two of its
/// terminals (N(N-1)/2 numbers) and Scotch builds a table over its domains
/// (about 2N(2N-1)/2 numbers): beyond this many PEs the file and Scotch's
/// table grow past what a mapping run should load (4096 PEs: about 8.4
/// million distances, 40 MB of text, 134 MB in Scotch).
inline constexpr std::uint32_t max_scotch_target_pes = 4096;

/// A tleaf target is checked on every pair of machines and every pair of PUs
/// of the machine type: up to this many of each (33 million lookups).
inline constexpr std::uint32_t max_scotch_tleaf_machines = 8192;

/// The cluster as a Scotch target architecture whose terminals are the PEs,
/// terminal i being PE i (weight 1), so that a mapping names the PE each
/// process goes to and two PEs of one machine are closer than two of
/// different machines. Distances are nettopo's latencies (QueryEngine::
/// distance: the meeting level's latency inside a machine, the least total
/// link latency between machines) in nanoseconds rounded to the nearest
/// integer, at least 1 (Scotch refuses 0). Two forms:
///
/// - "tleaf L s0 c0 s1 c1 ..." (Scotch's tree-leaf architecture, one line)
///   when the PEs form a uniform hierarchy: one machine type; consecutive
///   machines in groups (leaf switch, pod, ...) of one size per level with
///   one distance per level, growing upwards; inside the machine the same
///   over its PUs; every distance inside a machine below every distance
///   between machines. Level i has s_i children per object; PEs meeting at
///   level i are c_i + ... + c_(L-1) apart. Checked on every pair of
///   machines and of PUs, for up to max_scotch_tleaf_machines of each.
///   Generated fat-trees and trees of identical hosts are such hierarchies.
///
/// - otherwise the decomposition-defined "deco 0" architecture, the format
///   Scotch's amk_grf writes and atst reads:
///
///   deco
///   0
///   N  MAX                    terminals (PEs), largest terminal domain number
///   PE  1  DOMAIN             one line per PE in PE order: label, weight, domain
///   D(1,0)                    then one line per PE i = 1..N-1: its distances
///   D(2,0) D(2,1)             to PEs 0..i-1
///   ...
///
///   Domain numbers come from a recursive bisection of the PE range (domain d
///   splits into 2d and 2d+1, the root is 1): each range is cut where the
///   latency between neighbouring PEs is largest among the cuts that keep both
///   halves within the next power of two, so the halves follow machines,
///   switches and packages while MAX stays below 4N. Scotch's recursive
///   bipartitioning mapper descends this decomposition.
///
/// Throws InputError when the cluster is no uniform hierarchy and has more
/// than max_scotch_target_pes PEs, or has two PEs that no path joins; nothing
/// is written then. Cost: the tleaf check asks O(M^2) machine distances and
/// O(P^2) PU latencies (M machines, P PUs a machine, each at most
/// max_scotch_tleaf_machines); the deco form asks N(N-1)/2 PE distances (N
/// at most max_scotch_target_pes), of a QueryEngine planned for all pairs (a
/// distance index when it pays, else one network search per PE's machine).
void write_scotch_target(const Cluster& cluster, std::ostream& out);

} // namespace nettopo
