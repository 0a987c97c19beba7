// The simulated runtime under the distributed strategies (Grapevine,
// PackDrop, Neighbor): synchronous rounds, a network of counted messages
// that the FaultModel can lose or delay and the runtime's reliable
// collectives. Neighbor runs over it directly; the gossip protocols
// (Grapevine, PackDrop) are per-PE programs (agents.hpp) that the
// in-process runtime runs over it (pe_agents.cpp).
//
// Rules every protocol here keeps, so that no task is lost or duplicated
// and no protocol runs forever:
//  - a task changes PE only when its SENDER commits (the runtime migrates
//    from the sender); a receiver only reserves load;
//  - a sender waits reply_wait_rounds() for a reply, then treats the offer
//    as refused; a late reply to an offer it gave up on is ignored;
//  - a receiver never releases a reservation during a protocol (it cannot
//    know whether a commit it was not told about happened), so under loss
//    its own estimate only ever exceeds its true load.
#pragma once

#include "nettopo/balance/balance.hpp"

#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace nettopo::protocol {

// One message; the fields mean what the protocol says they mean.
struct Message {
    std::uint32_t src = 0, dst = 0;
    std::uint32_t kind = 0;
    std::uint32_t item = 0;   // a task, a pack or a gossip snapshot
    std::uint64_t serial = 0; // which offer a reply answers
    double value = 0;         // a load
    double bytes = 0;         // its size on the wire
};

// Message sizes: ids are 4 bytes, loads 8, plus an 8-byte envelope.
inline constexpr double envelope_bytes = 8;

class Network {
public:
    Network(const CommModel& model, const FaultModel& faults, std::uint32_t reply_timeout_rounds,
            std::uint64_t seed);

    std::uint32_t num_pes() const { return num_pes_; }
    // Rounds elapsed so far; messages sent now are sent in round round().
    std::uint32_t round() const { return round_; }
    // The protocol's one random source, drawn in a fixed order.
    std::mt19937_64& rng() { return rng_; }

    // Sends in the current round: delivered in round()+1, later when the
    // fault model delays it, never when it loses it (returns false then).
    bool send(const Message& m);
    // Advances one round; the messages delivered in it, in the order sent.
    // The round costs the slowest of them (latency + bytes / bandwidth);
    // with software costs (CommModel::has_software_costs), also the busiest
    // sender's max(o, g) per message sent in the round before, the busiest
    // receiver's o per message delivered, and at least min_round_seconds,
    // even when nothing arrives (a PE waiting for a reply or a timeout).
    std::span<const Message> next_round();
    bool idle() const { return in_flight_ == 0; }

    // A reduction or broadcast of the runtime: reliable, counted apart, and
    // charged a tree's depth of the slowest latency out of PE 0, both ways
    // (reduce then broadcast): 2 ceil(log2 P) L; with message overheads,
    // 2 ceil(log2 P) (L + 2o), a level's sender and receiver each paying o.
    void collective();
    // Rounds a sender waits for the reply to an offer sent in round r:
    // max(2, reply_timeout_rounds), 2 being the fault-free round trip.
    std::uint32_t reply_deadline(std::uint32_t sent_round) const;

    // Fills messages, losses, collectives, rounds and protocol time.
    void report(BalanceOutcome& out) const;

private:
    const CommModel* model_;
    FaultModel faults_;
    std::uint32_t num_pes_;
    std::uint32_t reply_timeout_ = 4;
    std::mt19937_64 rng_;
    std::uint32_t round_ = 0;
    std::vector<std::vector<Message>> buckets_; // ring: a round's deliveries
    std::vector<Message> delivered_;
    std::uint64_t in_flight_ = 0, sent_ = 0, lost_ = 0, collectives_ = 0;
    // Software costs of the round in progress, per PE (only with them).
    std::vector<double> send_busy_, receive_busy_;
    std::vector<std::uint32_t> busy_pes_;
    double seconds_ = 0, collective_seconds_ = -1;
};

// The network of one balance() call: the seed mixed with the step and the
// strategy's salt, so strategies and steps draw apart.
Network make_network(const BalanceInput& in, const StrategyOptions& options, std::uint64_t salt);

// Draws from any 64-bit generator: the network's std::mt19937_64 or a PE
// program's own stream (agents.hpp).
template <class Rng> double uniform01(Rng& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}
template <class Rng> std::uint32_t uniform_below(Rng& rng, std::uint32_t n) {
    return static_cast<std::uint32_t>(rng() % n);
}

// Each PE's tasks, as the runtime's database on that PE holds them (CSR).
struct PeTasks {
    std::vector<std::uint32_t> offsets; // num_pes + 1
    std::vector<std::uint32_t> tasks;
    std::span<const std::uint32_t> of(std::uint32_t pe) const {
        return {tasks.data() + offsets[pe], tasks.data() + offsets[pe + 1]};
    }
};
PeTasks tasks_by_pe(std::uint32_t num_pes, std::span<const PeId> mapping);

// What the tests check the protocols against: every commit, and every
// acceptance a receiver made with the rule it applied.
struct Commit {
    std::uint32_t task, from, to;
};
struct Acceptance {
    std::uint32_t receiver;
    double load_after; // the receiver's own estimate, after reserving
    double limit;      // what the rule required (<= for Grapevine, < for PackDrop)
};
struct Trace {
    std::vector<Commit> commits;
    std::vector<Acceptance> acceptances;
};

// What one sender has sent to each receiver during a protocol. Its view of a
// receiver is the load the receiver announced plus that; a sender feeds few
// receivers, so a short list beats a map.
class SentTally {
public:
    double view(double announced, std::uint32_t receiver) const {
        for (const auto& [r, load] : sent_)
            if (r == receiver) return announced + load;
        return announced;
    }
    void add(std::uint32_t receiver, double load) {
        for (auto& [r, sum] : sent_)
            if (r == receiver) {
                sum += load;
                return;
            }
        sent_.emplace_back(receiver, load);
    }

private:
    std::vector<std::pair<std::uint32_t, double>> sent_;
};

// Reusable entry points with a trace, behind the registry's strategies
// (the gossip protocols' run their per-PE programs in process).
BalanceOutcome run_grapevine(const BalanceInput& in, const StrategyOptions& options,
                             Trace* trace = nullptr);
BalanceOutcome run_packdrop(const BalanceInput& in, const StrategyOptions& options,
                            Trace* trace = nullptr);
BalanceOutcome run_neighbor(const BalanceInput& in, const StrategyOptions& options,
                            Trace* trace = nullptr);
// Charm++ 6.8's forms: DistributedLB before 6.9 (grapevine_agents.cpp) and
// NeighborLB on its default torus_nd_5 neighbourhood (neighbor.cpp).
BalanceOutcome run_grapevine_68(const BalanceInput& in, const StrategyOptions& options,
                                Trace* trace = nullptr);
BalanceOutcome run_neighbor_charm(const BalanceInput& in, const StrategyOptions& options,
                                  Trace* trace = nullptr);
// PackDrop as its authors coded it (packdrop_sbac_agents.cpp).
BalanceOutcome run_packdrop_sbac(const BalanceInput& in, const StrategyOptions& options,
                                 Trace* trace = nullptr);

// The registry's face of a protocol: its name and the entry point that runs it.
class ProtocolStrategy final : public Strategy {
public:
    using Run = BalanceOutcome (*)(const BalanceInput&, const StrategyOptions&, Trace*);
    ProtocolStrategy(std::string_view name, Run run, const StrategyOptions& options)
        : name_(name), run_(run), options_(options) {}
    std::string_view name() const override { return name_; }
    bool distributed() const override { return true; }
    BalanceOutcome balance(const BalanceInput& in) const override {
        return run_(in, options_, nullptr);
    }

private:
    std::string_view name_;
    Run run_;
    StrategyOptions options_;
};

// NeighborLB's neighbourhood of each PE: the other PEs of its machine and
// those of CommModel::adjacent_machines(its machine), increasing (CSR).
struct Neighborhoods {
    std::vector<std::uint32_t> offsets;
    std::vector<std::uint32_t> pes;
    std::span<const std::uint32_t> of(std::uint32_t pe) const {
        return {pes.data() + offsets[pe], pes.data() + offsets[pe + 1]};
    }
};
Neighborhoods neighborhoods(const CommModel& model);
// Charm++'s LBTopo_torus_nd<dimensions> over P PEs (neighbor.cpp), sorted.
Neighborhoods torus_nd_neighborhoods(std::uint32_t P, std::uint32_t dimensions);

} // namespace nettopo::protocol
