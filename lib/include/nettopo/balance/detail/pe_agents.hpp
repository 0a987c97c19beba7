// The gossip protocols (Grapevine in both forms, PackDrop in both forms) as
// per-PE programs: each PE knows its own tasks and what messages bring it,
// and draws from its own random stream. An AgentRuntime carries their
// messages in synchronous rounds and runs their reductions: in one process
// (run_agents_in_process) or with one MPI rank per PE (nettopo-balance
// --mpi, which owns the MPI runtime; the library knows no MPI). With the
// same rounds and the same order of delivery the two runs are the same run,
// so they must end with the same mapping and message count.
//
// These programs are the protocols' only definition: the simulator's
// strategies of the same names run them in process (run_agents_in_process),
// its runtime losing and delaying messages as the FaultModel says and
// charging each round, message and reduction its time.
#pragma once

#include "nettopo/balance/balance.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace nettopo {

// A gossip list, the (PE, load) pairs a PE knows, as a set of PEs (a bitset
// over every PE) and where their loads are read: a PE's announced load is
// the same in every list that names it, so a list needs no copy of the
// loads. One snapshot is shared by the messages a PE sends in a round.
struct GossipList {
    std::vector<std::uint64_t> bits; // (P + 63) / 64 words
    const double* loads = nullptr;   // indexed by PE, valid where a bit is set
    std::vector<double> own_loads;   // what `loads` points to, for a list read off a wire
    std::uint32_t count = 0;         // PEs named
};

// One message between PE programs; the fields mean what the protocol says.
struct AgentMessage {
    std::uint32_t src = 0, dst = 0;
    std::uint32_t kind = 0;
    std::uint32_t item = 0;                 // a task or a pack
    std::uint32_t flag = 0;                 // an offer's serial number, or a forced offer
    double value = 0;                       // a load
    double bytes = 0;                       // its size on the wire, as the simulator charges it
    std::shared_ptr<const GossipList> list; // gossip only
};

// What carries the programs' messages between the PEs, those of this
// process (its local PEs: contiguous ids, increasing) and the others.
class AgentRuntime {
public:
    virtual ~AgentRuntime() = default;
    virtual std::uint32_t num_pes() const = 0;
    // Reductions over every PE: `local` holds one value per local PE.
    virtual double sum(std::span<const double> local) = 0;
    virtual double max(std::span<const double> local) = 0;
    // The sum and the maximum in one reduction; by default two.
    virtual std::pair<double, double> sum_max(std::span<const double> local) {
        const double s = sum(local);
        return {s, max(local)};
    }
    // One round: sends `out` (the local PEs' messages, which it may move
    // from), then fills `in` with every message delivered to a local PE in
    // this round, ordered by destination, then source, then the order its
    // source sent them.
    // `waiting`: how many replies the local PEs wait for. Returns 0, runs no
    // round, at quiescence: no PE sent or waits and no message is in flight
    // (a runtime that loses or delays messages goes on while a PE waits, so
    // that its timeout can pass).
    virtual std::uint64_t exchange(std::vector<AgentMessage>& out, std::vector<AgentMessage>& in,
                                   std::uint64_t waiting) = 0;
};

// One PE at the start of the step: its tasks and their loads at speed 1.
struct AgentPe {
    std::uint32_t pe = 0;
    double speed = 1;
    std::vector<std::pair<std::uint32_t, double>> tasks; // (task, load)
};

struct AgentResult {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> moves; // (task, new PE), local PEs'
    std::uint64_t messages = 0;                                 // sent by the local PEs
    std::uint32_t rounds = 0;                                   // rounds in which any PE sent
    std::uint32_t reductions = 0;                               // a sum_max counts one
};

// grapevine, grapevine-6.8, packdrop and packdrop-sbac have per-PE programs.
bool has_pe_agents(std::string_view strategy);

// Runs `strategy`'s program on the runtime's local PEs (`local`, contiguous
// and increasing). `step` and `measured_iterations` are BalanceInput's; `options`
// the strategy's (its fault model is not used: MPI does not lose messages).
// Throws UsageError for a strategy without per-PE programs.
AgentResult run_pe_agents(std::string_view strategy, const StrategyOptions& options,
                          std::uint32_t step, std::uint32_t measured_iterations,
                          std::span<const AgentPe> local, AgentRuntime& runtime);

// Each PE's AgentPe under in.mapping (speeds from in.pe_speeds).
std::vector<AgentPe> agent_pes(const BalanceInput& in);

// Every PE's program in this process, over the simulator's network
// (protocol.hpp's Network: options.faults, the CommModel's costs): the
// mapping after the moves, messages, lost messages, reductions, rounds and
// protocol time, as the simulator reports them. Fault-free, it is the run
// of the same programs over MPI, move for move.
BalanceOutcome run_agents_in_process(std::string_view strategy, const BalanceInput& in,
                                     const StrategyOptions& options);

} // namespace nettopo
