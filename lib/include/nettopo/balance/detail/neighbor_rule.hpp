// NeighborLB's rule and neighbourhoods, shared by the simulated protocol
// (neighbor.cpp) and nettopo-balance --mpi, which runs the same rule with
// one MPI rank per PE: the check that the simulator's protocol is the
// protocol.
#pragma once

#include "nettopo/balance/comm_model.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace nettopo {

// NeighborLB::Strategy (Charm++ src/ck-ldb/NeighborLB.C, v6.8.1) on one PE:
// `tasks` are its (load, task) pairs, `heard` its neighbours' (load, slot)
// pairs, slots increasing with the neighbour's PE id. If its load exceeds
// the average of itself and what it heard, it repeats, while its load stays
// above that average and more than one task is left: the lightest
// neighbour; its biggest task not yet considered, discarding for good each
// one with neighbour + task >= mine - task; the first that fits moves.
// Returns (task, slot) moves in decision order.
std::vector<std::pair<std::uint32_t, std::uint32_t>>
neighbor_lb_moves(double my_load, std::vector<std::pair<double, std::uint32_t>> tasks,
                  std::vector<std::pair<double, std::uint32_t>> heard);

// Each PE's neighbours, sorted: nettopo's (the other PEs of its machine
// and those of the nearest machines) or Charm++'s torus_nd_5.
std::vector<std::vector<std::uint32_t>> neighbor_lists(const CommModel& model, bool charm_torus);

} // namespace nettopo
