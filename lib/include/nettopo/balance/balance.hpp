/// \file
/// Load balancing strategies: one interface, so Greedy, Refine, SmartLB,
/// Grapevine, PackDrop, Neighbor and the topology-aware variants can be
/// swapped and compared on the same state.
///
/// A state is what Charm++'s runtime hands a strategy: every task's load
/// (seconds of work at speed 1, as measured), who talks to whom, the PEs'
/// relative speeds and the current mapping task -> PE. A PE's load is the sum
/// of its tasks' loads divided by its speed. The job runs on every PE of the
/// cluster.
///
/// Centralised strategies compute the new mapping directly. Distributed ones
/// (Grapevine, PackDrop, Neighbor) run their message protocol: every PE is an
/// agent with only its own state and what messages brought it, messages go
/// through a simulated network that counts them and can lose or delay them
/// (FaultModel), and the mapping is whatever the protocol ends with.
///
/// \threads A Strategy's balance() is used by one thread at a time (some
/// strategies keep scratch space); distinct Strategy objects, and the free
/// functions here, may run in several threads at once over one const
/// CommModel; name() and distributed() from several threads at once.
/// \cost Balancing: each strategy's own; the centralised ones look at every
/// task, edge and PE a bounded number of times (Refine and SmartLB: per
/// pass), the distributed ones cost their protocol's rounds times the
/// messages of a round (BalanceOutcome counts both). The calls throw
/// UsageError for bad input or options, and std::bad_alloc; name(),
/// distributed() and FaultModel::active() are O(1) and throw nothing.
#pragma once

#include "nettopo/balance/comm_model.hpp"
#include "nettopo/balance/task_graph.hpp"
#include "nettopo/support/ids.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// The state a strategy balances (see the file's comment); it refers to
/// what the caller holds, which must outlive it.
struct BalanceInput {
    const CommModel& comm_model;        ///< the cluster and what messages cost
    std::span<const double> task_loads; ///< per task, seconds at speed 1, >= 0
    const TaskGraph& task_graph;        ///< num_tasks() == task_loads.size()
    std::span<const double> pe_speeds;  ///< per PE (> 0); empty: all 1
    std::span<const PeId> mapping;      ///< per task, the PE it is on now
    /// Which balancing step of a run this is: mixed into the strategy's seed
    /// so successive steps draw differently yet reproducibly.
    std::uint32_t step = 0;
    /// The loads are means over this many iterations. Charm++ hands its
    /// strategies sums (wall time since the previous step); the strategies
    /// with absolute thresholds (grapevine-6.8's whole seconds, the 0.1 ms
    /// cut-off) multiply by it.
    std::uint32_t measured_iterations = 1;
};

/// Loads per PE (sum of task loads / speed) under a mapping. O(tasks + PEs).
/// Unchecked: `in` must pass check_balance_input and `mapping` name PEs of
/// the cluster, one per task; throws only std::bad_alloc.
std::vector<double> pe_loads(const BalanceInput& in, std::span<const PeId> mapping);
/// Throws UsageError naming the first inconsistency: sizes, a PE out of
/// range, a negative or non-finite load or speed. O(tasks + PEs).
void check_balance_input(const BalanceInput& in);

/// Seeded loss and delay of protocol messages. Collectives (the reductions
/// that give the average and the maximum) are the runtime's and reliable.
struct FaultModel {
    double loss_probability = 0;        ///< each message independently lost
    double delay_probability = 0;       ///< each delivered message independently late
    std::uint32_t max_delay_rounds = 0; ///< a late message is 1..max rounds late
    /// Whether any message may be lost or delayed.
    bool active() const { return loss_probability > 0 || delay_probability > 0; }
};

/// The strategies' parameters (each strategy reads its own).
struct StrategyOptions {
    std::uint64_t seed = 1; ///< seeds every random choice (with BalanceInput::step)
    /// RefineLB: a PE is heavy above tolerance x average; relaxed by
    /// refine_step towards max/avg until a solution is found.
    double refine_tolerance = 1.05;
    double refine_step = 0.01; ///< RefineLB: how much the tolerance is relaxed each time
    /// SmartLB: balance only when (load(PM) - load(Pm)) / avg exceeds
    /// smart_threshold (the text's reading: "the difference is larger than the
    /// threshold"); a task moves only if its load <= smart_gap_factor x
    /// (load(PM) - load(Pm)).
    double smart_threshold = 0.05;
    double smart_gap_factor = 1.0; ///< SmartLB: see smart_threshold
    /// SmartLB: walks over the tasks, each the pseudo-code's loop, repeated
    /// until one moves nothing; 0: no limit, 1: the single walk as printed.
    std::uint32_t smart_passes = 0;
    /// topo-greedy: a task may go near its partners only if that PE's load
    /// after placement stays within max(least possible load after placement,
    /// (1 + topo_slack) x average).
    double topo_slack = 0.03;
    /// Grapevine (Charm++ DistributedLB) and PackDrop.
    std::uint32_t gossip_fanout = 2;
    double grapevine_tolerance = 1.05;   ///< stop when max/avg <= this
    std::uint32_t grapevine_phases = 10; ///< Grapevine: gossip-and-transfer phases at most
    double packdrop_tolerance = 0.05;    ///< v: overloaded above (1 + v) x avg
    /// Offers of one pack before it stays home: the authors' code allows 8
    /// per PE (then forces acceptance, which we never do). With 3, one pack
    /// in 40 found no taker at 16,384 PEs and max/avg stayed at 1.20 (1.09 with 8).
    std::uint32_t packdrop_max_tries = 8;
    /// Protocol rounds a sender waits for a reply before treating it as lost.
    std::uint32_t reply_timeout_rounds = 4;
    FaultModel faults; ///< loss and delay of the protocols' messages
};

/// What a strategy decided, and what its protocol cost.
struct BalanceOutcome {
    std::vector<PeId> mapping;       ///< per task
    std::uint64_t messages = 0;      ///< protocol messages sent (0 for centralised)
    std::uint64_t messages_lost = 0; ///< of which the FaultModel lost
    std::uint64_t collectives = 0;   ///< reductions/broadcasts used (counted apart)
    std::uint32_t rounds = 0;        ///< protocol rounds until every agent was done
    /// Simulated wall time of the protocol on the cluster: per round, the
    /// slowest message delivered in it (from the CommModel), summed.
    double protocol_seconds = 0;
};

/// A balancing strategy (make_strategy).
class Strategy {
public:
    virtual ~Strategy() = default; ///< frees the strategy
    /// The strategy's name, as make_strategy takes it ("greedy", "topo-refine", ...).
    virtual std::string_view name() const = 0;
    /// Whether it runs as a message protocol (Grapevine, PackDrop, Neighbor).
    virtual bool distributed() const = 0;
    /// The new mapping of `in`'s tasks. Deterministic: the same input and
    /// options give the same outcome. UsageError for an inconsistent input.
    virtual BalanceOutcome balance(const BalanceInput& in) const = 0;
};

/// Every strategy's name, in the order tools list them. O(1), throws nothing.
std::span<const std::string_view> strategy_names();
/// The strategy called `name`, made with `options`. Throws UsageError for an
/// unknown name, listing the known ones. O(strategies).
std::unique_ptr<Strategy> make_strategy(std::string_view name, const StrategyOptions& options = {});
/// A comma-separated list as users write it ("greedy,refine"); empty or "all":
/// every strategy. "none" (the run without balancing) is skipped. ValueError
/// for an empty name, UsageError for an unknown one. O(length x strategies).
std::vector<std::unique_ptr<Strategy>> make_strategies(std::string_view list,
                                                       const StrategyOptions& options = {});

} // namespace nettopo
