// What the per-PE programs (pe_agents.hpp) share: the local PEs' context
// (their random streams, the runtime, the counts), the round loop, and
// DistributedLB's gossip as each PE runs it.
#pragma once

#include "nettopo/balance/detail/pe_agents.hpp"

#include <cstdint>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace nettopo::agents {

using PeLoad = std::pair<std::uint32_t, double>;

class Context {
public:
    // Each local PE draws from its own stream: the seed mixed with the
    // step, the strategy's salt and the PE id.
    Context(AgentRuntime& runtime, std::span<const AgentPe> local, const StrategyOptions& options,
            std::uint32_t step, std::uint64_t salt);

    AgentRuntime& runtime() { return *runtime_; }
    std::span<const AgentPe> local() const { return local_; }
    std::uint32_t num_pes() const { return num_pes_; }
    const StrategyOptions& options() const { return *options_; }
    // A local PE's index in local() (never empty: the constructor checks).
    std::size_t index(std::uint32_t pe) const { return pe - local_.front().pe; }
    std::mt19937_64& rng(std::size_t index) { return rngs_[index]; }

    double sum(std::span<const double> local);
    double max(std::span<const double> local);
    // Rounds until one in which no PE sends: `out` holds the first round's
    // messages; round(in, out) handles a round's deliveries to the local
    // PEs and appends what they send in the next one.
    template <class Round> void run_rounds(std::vector<AgentMessage> out, Round round) {
        std::vector<AgentMessage> in;
        for (;;) {
            result_.messages += out.size();
            if (runtime_->exchange(out, in) == 0) return;
            ++result_.rounds;
            out.clear();
            round(in, out);
        }
    }
    void move(std::uint32_t task, std::uint32_t to) { result_.moves.emplace_back(task, to); }
    AgentResult take_result() { return std::move(result_); }

private:
    AgentRuntime* runtime_;
    std::span<const AgentPe> local_;
    const StrategyOptions* options_;
    std::uint32_t num_pes_;
    std::vector<std::mt19937_64> rngs_;
    AgentResult result_;
};

// A PE's load: its tasks' work, then divided by its speed, as pe_loads()
// adds them, so that both give the same doubles.
double pe_load(const AgentPe& pe);

// PackDrop's start, both forms: each local PE's load, then Load_Setup (the
// sum of the loads) and Chare_Setup (the number of tasks), two reductions.
struct PackDropStart {
    std::vector<double> loads; // per local PE
    double total = 0, tasks = 0;
};
PackDropStart packdrop_start(Context& c);

// DistributedLB's gossip, PE by PE (the simulated form is protocol.hpp's
// gossip(): the same rules). A starting PE sends its (PE, load) pair to
// `fanout` distinct random other PEs; a PE merges every list of a round
// into its own, then, for each message it received, sends its whole list
// to `fanout` such PEs, at most 2 ceil(log2 P) + 1 times in all. Returns
// each local PE's list, sorted by PE.
std::vector<std::vector<PeLoad>> gossip(Context& c, std::span<const std::uint8_t> starts,
                                        std::span<const double> loads);

// The programs (grapevine_agents.cpp, packdrop_agents.cpp,
// packdrop_sbac_agents.cpp).
void run_grapevine(Context& c, bool charm68, std::uint32_t measured_iterations);
void run_packdrop(Context& c);
void run_packdrop_sbac(Context& c);

} // namespace nettopo::agents
