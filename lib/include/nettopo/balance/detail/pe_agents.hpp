// The gossip protocols (Grapevine in both forms, PackDrop in both forms) as
// per-PE programs: each PE knows its own tasks and what messages bring it,
// and draws from its own random stream. An AgentRuntime carries their
// messages in synchronous rounds and runs their reductions: in one process
// (run_agents_in_process) or with one MPI rank per PE (nettopo-balance
// --mpi, which owns the MPI runtime; the library knows no MPI). With the
// same rounds and the same order of delivery the two runs are the same run,
// so they must end with the same mapping and message count.
//
// The simulated protocols (protocol.hpp) are the same protocols written
// over the whole state at once, for speed (bitsets for gossip lists, one
// random stream for all PEs): the check that they are the protocol is that
// their decisions' quality and message counts match these programs' over
// many seeds (share/doc/balance.md, "The protocol over MPI").
#pragma once

#include "nettopo/balance/balance.hpp"

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace nettopo {

// One message between PE programs; the fields mean what the protocol says.
struct AgentMessage {
    std::uint32_t src = 0, dst = 0;
    std::uint32_t kind = 0;
    std::uint32_t item = 0; // a task or a pack
    std::uint32_t flag = 0; // an offer's serial number, or a forced offer
    double value = 0;       // a load
    std::vector<std::pair<std::uint32_t, double>> list; // gossip: (PE, load)
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
    // One round: sends `out` (the local PEs' messages), then fills `in` with
    // every message sent to a local PE in this round, ordered by
    // destination, then source, then the order its source sent them.
    // Returns how many messages all PEs sent in the round (0: quiescence).
    virtual std::uint64_t exchange(const std::vector<AgentMessage>& out,
                                   std::vector<AgentMessage>& in) = 0;
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
    std::uint32_t reductions = 0; // each sum or max apart (the simulator counts
                                  // grapevine's sum and max as one collective)
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

// Every PE's program in this process, over a runtime that delivers each
// round's messages in the order exchange() promises: the mapping after the
// moves, the messages and rounds.
BalanceOutcome run_agents_in_process(std::string_view strategy, const BalanceInput& in,
                                     const StrategyOptions& options);

} // namespace nettopo
