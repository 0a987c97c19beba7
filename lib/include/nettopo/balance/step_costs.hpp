/// \file
/// What a balancing step costs a real run beyond the strategy's own decision
/// and the bytes of the task state it moves: the statistics a centralised
/// strategy gathers and the decisions it sends back, the distributed
/// strategies' local computation, a fixed cost per migrated task, and the
/// noise of measured loads. Every cost is zero by default, and a step then
/// costs what it did before these existed; the papers' platform presets
/// (workload_presets.hpp) set them, with their sources in share/doc/balance.md.
///
/// \threads The functions may be called from several threads at once over
/// one const CommModel (apply_load_noise writes only its `loads`); a
/// StepCosts is a value.
#pragma once

#include "nettopo/balance/comm_model.hpp"
#include "nettopo/balance/task_graph.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace nettopo {

/// What a balancing step costs beyond the decision and the bytes moved (see
/// the file's comment). A value.
struct StepCosts {
    /// Centralised strategies: every PE sends its statistics to PE 0 (Charm++
    /// CentralLB's ReceiveStats, point to point), which decides and
    /// broadcasts the list of migrations to every PE (ReceiveMigration).
    bool gather_statistics = false;
    double stats_bytes_per_pe = 0;           ///< a PE's message header and own record
    double stats_bytes_per_task = 0;         ///< one task's record (LDObjData)
    double stats_bytes_per_edge = 0;         ///< one communication record (LDCommData)
    double decision_bytes_per_migration = 0; ///< one entry of the migration list
    /// Distributed strategies: a PE's own computation in a step, per task it
    /// holds; the step waits for the busiest PE.
    double local_seconds_per_task = 0;
    /// Every strategy: a migrated task costs this at its sender (pack) and
    /// again at its receiver (unpack, location update), on top of its bytes.
    double migration_seconds_per_task = 0;
    /// The loads a strategy sees: each task's measured mean times
    /// max(0, 1 + load_noise z), z standard normal drawn from (seed, step,
    /// task). Charm++ balances on measured wall times; with exact loads a
    /// deterministic strategy rebuilds the same placement every step.
    double load_noise = 0;

    /// Throws UsageError (no cost named) when a cost or the noise is negative
    /// or not finite. O(1).
    void check() const;
};

/// Statistics gathering of a centralised step: the slowest latency to PE 0,
/// plus, as PE 0 takes the messages one after another, each message's
/// receive overhead and bytes over its link, plus the busiest sender's
/// overhead. A PE's message holds its header, its tasks and the
/// communication records of its tasks (one per partner, as the sender of
/// each direction records it). 0 when gather_statistics is off. O(tasks +
/// PEs x a CommModel query); allocates O(PEs), so throws only std::bad_alloc.
double statistics_gather_seconds(const CommModel& model, const TaskGraph& graph,
                                 std::span<const PeId> mapping, const StepCosts& costs);

/// The broadcast of a centralised decision over a binary spanning tree from
/// PE 0: ceil(log2 P) levels, each the slowest latency from PE 0, a send and
/// a receive overhead and the list's bytes at the narrowest bandwidth from
/// PE 0. 0 when gather_statistics is off. O(PEs x a CommModel query);
/// throws what CommModel's queries throw (std::bad_alloc at most).
double decision_broadcast_seconds(const CommModel& model, std::uint64_t migrations,
                                  const StepCosts& costs);

/// Measured loads with noise applied in place (nothing when load_noise is 0):
/// task t's factor depends on (seed, step, t) only. O(loads), throws nothing.
void apply_load_noise(std::span<double> loads, double load_noise, std::uint64_t seed,
                      std::uint32_t step);

} // namespace nettopo
