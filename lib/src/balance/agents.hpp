// What the per-PE programs (pe_agents.hpp) share: the local PEs' context
// (their random streams, the runtime, the counts), the round loop, and
// DistributedLB's gossip as each PE runs it.
#pragma once

#include "balance/protocol.hpp"
#include "nettopo/balance/detail/pe_agents.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace nettopo::agents {

using PeLoad = std::pair<std::uint32_t, double>;

// A PE's own random stream: splitmix64 (Steele, Lea & Flood, OOPSLA 2014),
// 8 bytes of state where a Mersenne twister holds 2.5 KB, which at 16,384
// PEs in one process was 40 MB to seed and page in.
class PeStream {
public:
    using result_type = std::uint64_t;
    explicit PeStream(std::uint64_t seed) : state_(seed) {}
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }
    result_type operator()() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

private:
    std::uint64_t state_;
};

class Context {
public:
    // Each local PE draws from its own stream: the seed mixed with the
    // step, the strategy's salt and the PE id.
    // `trace`, when given, collects every commit and acceptance (the tests'
    // view of the rules kept).
    Context(AgentRuntime& runtime, std::span<const AgentPe> local, const StrategyOptions& options,
            std::uint32_t step, std::uint64_t salt, protocol::Trace* trace = nullptr);

    AgentRuntime& runtime() { return *runtime_; }
    std::span<const AgentPe> local() const { return local_; }
    std::uint32_t num_pes() const { return num_pes_; }
    const StrategyOptions& options() const { return *options_; }
    // A local PE's index in local() (never empty: the constructor checks).
    std::size_t index(std::uint32_t pe) const { return pe - local_.front().pe; }
    PeStream& rng(std::size_t index) { return rngs_[index]; }

    double sum(std::span<const double> local);
    double max(std::span<const double> local);
    std::pair<double, double> sum_max(std::span<const double> local);
    // Rounds run so far: a message sent now is sent in round round() and
    // arrives in round() + 1 at the earliest.
    std::uint32_t round() const { return result_.rounds; }
    // The last round a sender waits for the reply to what it sends now:
    // max(2, reply_timeout_rounds) later, 2 being the fault-free round trip.
    std::uint32_t reply_deadline() const {
        return round() + std::max<std::uint32_t>(2, options_->reply_timeout_rounds);
    }
    // Rounds until quiescence: `out` holds the first round's messages;
    // round(in, out) handles a round's deliveries to the local PEs (and the
    // timeouts due in it) and appends what they send in the next one;
    // waiting() says how many replies the local PEs wait for.
    template <class Round, class Waiting>
    void run_rounds(std::vector<AgentMessage> out, Round round, Waiting waiting) {
        std::vector<AgentMessage>& in = in_;
        for (;;) {
            result_.messages += out.size();
            if (runtime_->exchange(out, in, waiting()) == 0) return;
            ++result_.rounds;
            out.clear();
            round(in, out);
        }
    }
    template <class Round> void run_rounds(std::vector<AgentMessage> out, Round round) {
        run_rounds(std::move(out), round, [] { return std::uint64_t(0); });
    }
    // The sender commits a move: the runtime migrates `task` from `from`.
    void move(std::uint32_t task, std::uint32_t from, std::uint32_t to) {
        result_.moves.emplace_back(task, to);
        if (trace_) trace_->commits.push_back({task, from, to});
    }
    // A receiver reserved load under its rule (recorded for the tests).
    void accepted(std::uint32_t receiver, double load_after, double limit) {
        if (trace_) trace_->acceptances.push_back({receiver, load_after, limit});
    }
    AgentResult take_result() { return std::move(result_); }

private:
    AgentRuntime* runtime_;
    std::span<const AgentPe> local_;
    const StrategyOptions* options_;
    std::uint32_t num_pes_;
    std::vector<PeStream> rngs_;
    std::vector<AgentMessage> in_; // a round's deliveries, its capacity kept
    protocol::Trace* trace_;
    AgentResult result_;
};

// The local PEs with open offers, so that a round's timeouts visit those
// alone rather than every PE (in any order: a PE's timeouts send only its
// own messages, and a round's deliveries are sorted by source).
class Waiters {
public:
    explicit Waiters(std::size_t local) : listed_(local, 0) {}
    void add(std::size_t i) {
        if (listed_[i]) return;
        listed_[i] = 1;
        list_.push_back(i);
    }
    // Calls f(i) on each listed PE, then keeps those still waiting(i). f
    // may add only PEs already listed (a PE re-offers only its own).
    template <class F, class Waiting> void visit(F f, Waiting waiting) {
        std::size_t kept = 0;
        for (std::size_t k = 0; k < list_.size(); ++k) {
            const std::size_t i = list_[k];
            f(i);
            if (waiting(i))
                list_[kept++] = i;
            else
                listed_[i] = 0;
        }
        list_.resize(kept);
    }
    // Offers whose reply is overdue in `round` count as refused (a lost
    // message): each listed PE's offers (pes[i].offers, each open with its
    // deadline) in the order made, from its next_deadline; refused(i, offer)
    // closes one. The two gossip programs' timeouts.
    template <class Pes, class Refused>
    void expire_overdue(Pes& pes, std::uint32_t round, Refused refused) {
        visit(
            [&](std::size_t i) {
                auto& d = pes[i];
                while (d.pending > 0 && d.next_deadline < d.offers.size()) {
                    auto& offer = d.offers[d.next_deadline];
                    if (offer.open && offer.deadline > round) break;
                    ++d.next_deadline;
                    if (offer.open) refused(i, offer);
                }
            },
            [&](std::size_t i) { return pes[i].pending > 0; });
    }

private:
    std::vector<std::uint8_t> listed_;
    std::vector<std::size_t> list_;
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

// What the local PEs know after the gossip: each one's set of PEs (a
// bitset) and the loads those PEs announced (one table: a PE announces one
// load, so every list naming it carries the same).
class KnownLists {
public:
    KnownLists(std::size_t local, std::uint32_t num_pes)
        : words_((num_pes + 63) / 64), bits_(local * words_, 0), loads_(num_pes, 0) {}
    std::uint32_t words() const { return words_; }
    bool knows(std::size_t i, std::uint32_t pe) const {
        return (bits(i)[pe / 64] >> (pe % 64)) & 1;
    }
    double load(std::uint32_t pe) const { return loads_[pe]; }
    // Calls f(pe, load) for each PE local PE i knows, increasing.
    template <class F> void for_each(std::size_t i, F f) const {
        const std::uint64_t* w = bits(i);
        for (std::uint32_t k = 0; k < words_; ++k)
            for (std::uint64_t b = w[k]; b != 0; b &= b - 1) {
                const std::uint32_t pe = k * 64 + static_cast<std::uint32_t>(std::countr_zero(b));
                f(pe, loads_[pe]);
            }
    }
    const std::uint64_t* bits(std::size_t i) const { return bits_.data() + i * words_; }
    std::uint64_t* bits(std::size_t i) { return bits_.data() + i * words_; }
    double* loads() { return loads_.data(); }

private:
    std::uint32_t words_;
    std::vector<std::uint64_t> bits_;
    std::vector<double> loads_;
};

// DistributedLB's gossip (GossipLoadInfo/SendLoadInfo), PE by PE. A
// starting PE sends its (PE, load) pair to `fanout` distinct random other
// PEs; a PE merges every list of a round into its own, then, for each
// message it received, sends its whole list to `fanout` such PEs, at most
// 2 ceil(log2 P) + 1 times in all. It ends at quiescence, which a
// reduction detects.
KnownLists gossip(Context& c, std::span<const std::uint8_t> starts, std::span<const double> loads);

// `strategy`'s program on the runtime's local PEs (has_pe_agents(strategy)).
AgentResult run_programs(std::string_view strategy, const StrategyOptions& options,
                         std::uint32_t step, std::uint32_t measured_iterations,
                         std::span<const AgentPe> local, AgentRuntime& runtime,
                         protocol::Trace* trace);
// Every PE's program in this process over the simulator's network
// (run_agents_in_process), with a trace: what the protocol strategies run.
BalanceOutcome run_in_process(std::string_view strategy, const BalanceInput& in,
                              const StrategyOptions& options, protocol::Trace* trace);

// The programs (grapevine_agents.cpp, packdrop_agents.cpp,
// packdrop_sbac_agents.cpp).
void run_grapevine(Context& c, bool charm68, std::uint32_t measured_iterations);
void run_packdrop(Context& c);
void run_packdrop_sbac(Context& c);

} // namespace nettopo::agents
