// The simulated runtime of the distributed strategies: rounds, a lossy
// counted network, reliable collectives and DistributedLB's gossip
// (Menon & Kale, SC13; Charm++ src/ck-ldb/DistributedLB.C). See protocol.hpp
// for the rules that keep tasks from being lost or duplicated.
#include "balance/protocol.hpp"

#include "balance/mix.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace nettopo::protocol {

using balance_detail::ceil_log2;
using balance_detail::splitmix64;

Network::Network(const CommModel& model, const FaultModel& faults,
                 std::uint32_t reply_timeout_rounds, std::uint64_t seed)
    : model_(&model), faults_(faults), num_pes_(model.cluster().num_pes()),
      reply_timeout_(reply_timeout_rounds), rng_(seed),
      buckets_(std::size_t(faults.max_delay_rounds) + 2) {
    if (!(faults.loss_probability >= 0 && faults.loss_probability <= 1) ||
        !(faults.delay_probability >= 0 && faults.delay_probability <= 1))
        throw UsageError("fault probabilities must lie in [0, 1]");
    if (model.has_software_costs()) {
        send_busy_.assign(num_pes_, 0.0);
        receive_busy_.assign(num_pes_, 0.0);
    }
}

Network make_network(const BalanceInput& in, const StrategyOptions& options, std::uint64_t salt) {
    const std::uint64_t seed =
        splitmix64(options.seed ^ splitmix64(salt ^ (std::uint64_t(in.step) << 32)));
    return Network(in.comm_model, options.faults, options.reply_timeout_rounds, seed);
}

bool Network::send(const Message& m) {
    ++sent_;
    // The sender pays for a message even when the network then loses it.
    if (!send_busy_.empty()) {
        if (send_busy_[m.src] == 0 && receive_busy_[m.src] == 0) busy_pes_.push_back(m.src);
        send_busy_[m.src] += model_->send_seconds(PeId(m.src), PeId(m.dst));
    }
    if (faults_.loss_probability > 0 && uniform01(rng_) < faults_.loss_probability) {
        ++lost_;
        return false;
    }
    std::uint32_t late = 0;
    if (faults_.delay_probability > 0 && faults_.max_delay_rounds > 0 &&
        uniform01(rng_) < faults_.delay_probability)
        late = 1 + uniform_below(rng_, faults_.max_delay_rounds);
    buckets_[(round_ + 1 + late) % buckets_.size()].push_back(m);
    ++in_flight_;
    return true;
}

std::span<const Message> Network::next_round() {
    ++round_;
    delivered_.clear();
    delivered_.swap(buckets_[round_ % buckets_.size()]);
    in_flight_ -= delivered_.size();
    double slowest = 0;
    for (const Message& m : delivered_)
        slowest = std::max(slowest, model_->transfer_seconds(PeId(m.src), PeId(m.dst), m.bytes));
    if (send_busy_.empty()) {
        seconds_ += slowest;
        return delivered_;
    }
    for (const Message& m : delivered_) {
        if (send_busy_[m.dst] == 0 && receive_busy_[m.dst] == 0) busy_pes_.push_back(m.dst);
        receive_busy_[m.dst] += model_->receive_seconds(PeId(m.src), PeId(m.dst));
    }
    double sending = 0, receiving = 0;
    for (std::uint32_t p : busy_pes_) {
        sending = std::max(sending, send_busy_[p]);
        receiving = std::max(receiving, receive_busy_[p]);
        send_busy_[p] = receive_busy_[p] = 0;
    }
    busy_pes_.clear();
    seconds_ += std::max(model_->min_round_seconds(), sending + slowest + receiving);
    return delivered_;
}

void Network::collective() {
    if (collective_seconds_ < 0) {
        double slowest_ns = 0;
        for (std::uint32_t p = 1; p < num_pes_; ++p)
            slowest_ns = std::max(slowest_ns, model_->latency_ns(PeId(0), PeId(p)));
        // o of the slowest pair's kind: the network's when the job spans machines.
        double overhead = 0;
        for (std::uint32_t p = 1; p < num_pes_; ++p)
            overhead = std::max(overhead, model_->receive_seconds(PeId(0), PeId(p)));
        collective_seconds_ = 2.0 * ceil_log2(num_pes_) * slowest_ns * 1e-9;
        if (overhead > 0) collective_seconds_ += 2.0 * ceil_log2(num_pes_) * 2 * overhead;
    }
    ++collectives_;
    seconds_ += collective_seconds_;
}

std::uint32_t Network::reply_deadline(std::uint32_t sent_round) const {
    return sent_round + std::max<std::uint32_t>(2, reply_timeout_);
}

void Network::report(BalanceOutcome& out) const {
    out.messages = sent_;
    out.messages_lost = lost_;
    out.collectives = collectives_;
    out.rounds = round_;
    out.protocol_seconds = seconds_;
}

PackDropSetup packdrop_setup(const BalanceInput& in, Network& net) {
    PackDropSetup s;
    s.load = pe_loads(in, in.mapping);
    net.collective(); // Load_Setup: total load
    net.collective(); // Chare_Setup: total tasks
    double total = 0;
    for (double l : s.load) total += l;
    const std::uint32_t P = net.num_pes();
    s.avg = total / P;
    s.balances = P >= 2 && !in.task_loads.empty() && s.avg > 0;
    return s;
}

PeTasks tasks_by_pe(std::uint32_t num_pes, std::span<const PeId> mapping) {
    PeTasks r;
    r.offsets.assign(std::size_t(num_pes) + 1, 0);
    for (PeId p : mapping) ++r.offsets[p.value + 1];
    for (std::uint32_t p = 0; p < num_pes; ++p) r.offsets[p + 1] += r.offsets[p];
    r.tasks.resize(mapping.size());
    std::vector<std::uint32_t> next(r.offsets.begin(), r.offsets.end() - 1);
    for (std::uint32_t t = 0; t < mapping.size(); ++t) r.tasks[next[mapping[t].value]++] = t;
    return r;
}

void KnownSets::list(std::uint32_t pe, std::vector<std::uint32_t>& out) const {
    out.clear();
    const std::uint64_t* w = bits_.data() + std::size_t(pe) * words_;
    for (std::uint32_t i = 0; i < words_; ++i)
        for (std::uint64_t b = w[i]; b != 0; b &= b - 1)
            out.push_back(i * 64 + static_cast<std::uint32_t>(std::countr_zero(b)));
}

namespace {

// Snapshots of lists in flight, shared by the messages of one PE's round
// and freed when the last of them is delivered or lost.
class SnapshotPool {
public:
    explicit SnapshotPool(std::uint32_t words) : words_(words) {}
    std::uint32_t take(const std::uint64_t* from) {
        std::uint32_t slot;
        if (!free_.empty()) {
            slot = free_.back();
            free_.pop_back();
        } else {
            slot = static_cast<std::uint32_t>(refs_.size());
            refs_.push_back(0);
            words_store_.resize(words_store_.size() + words_);
        }
        std::copy(from, from + words_, words_store_.data() + std::size_t(slot) * words_);
        refs_[slot] = 0;
        return slot;
    }
    const std::uint64_t* data(std::uint32_t slot) const {
        return words_store_.data() + std::size_t(slot) * words_;
    }
    void hold(std::uint32_t slot) { ++refs_[slot]; }
    void release(std::uint32_t slot) {
        if (--refs_[slot] == 0) free_.push_back(slot);
    }
    void release_if_unused(std::uint32_t slot) {
        if (refs_[slot] == 0) free_.push_back(slot);
    }

private:
    std::uint32_t words_;
    std::vector<std::uint64_t> words_store_;
    std::vector<std::uint32_t> refs_, free_;
};

} // namespace

KnownSets gossip(Network& net, std::span<const std::uint8_t> starts, std::uint32_t fanout) {
    const std::uint32_t P = net.num_pes();
    KnownSets k;
    k.words_ = (P + 63) / 64;
    k.bits_.assign(std::size_t(P) * k.words_, 0);
    const std::uint32_t W = k.words_;
    // DistributedLB: kMaxGossipMsgCount = 2 log2 P, and a PE stops only once
    // it has sent more than that.
    const std::uint32_t max_sends = 2 * ceil_log2(P) + 1;
    const std::uint32_t targets = std::min(fanout, P - 1);
    std::vector<std::uint32_t> sends(P, 0), received(P, 0), touched, chosen;
    SnapshotPool pool(W);

    auto forward = [&](std::uint32_t pe, std::uint32_t times) {
        const std::uint64_t* mine = k.bits_.data() + std::size_t(pe) * W;
        std::uint32_t count = 0;
        for (std::uint32_t i = 0; i < W; ++i) count += std::popcount(mine[i]);
        const double bytes = envelope_bytes + 12.0 * count;
        bool have_slot = false;
        std::uint32_t slot = 0;
        for (std::uint32_t n = 0; n < times && sends[pe] < max_sends && targets > 0; ++n) {
            chosen.clear();
            while (chosen.size() < targets) {
                const std::uint32_t to = uniform_below(net.rng(), P);
                if (to != pe && std::find(chosen.begin(), chosen.end(), to) == chosen.end())
                    chosen.push_back(to);
            }
            if (!have_slot) {
                slot = pool.take(mine);
                have_slot = true;
            }
            for (std::uint32_t to : chosen)
                if (net.send({pe, to, 0, slot, 0, 0, bytes})) pool.hold(slot);
            ++sends[pe];
        }
        if (have_slot) pool.release_if_unused(slot);
    };

    for (std::uint32_t p = 0; p < P; ++p)
        if (starts[p]) {
            k.bits_[std::size_t(p) * W + p / 64] |= std::uint64_t(1) << (p % 64);
            forward(p, 1);
        }
    while (!net.idle()) {
        touched.clear();
        for (const Message& m : net.next_round()) {
            std::uint64_t* into = k.bits_.data() + std::size_t(m.dst) * W;
            const std::uint64_t* from = pool.data(m.item);
            for (std::uint32_t i = 0; i < W; ++i) into[i] |= from[i];
            pool.release(m.item);
            if (received[m.dst]++ == 0) touched.push_back(m.dst);
        }
        std::sort(touched.begin(), touched.end());
        for (std::uint32_t pe : touched) {
            forward(pe, received[pe]);
            received[pe] = 0;
        }
    }
    net.collective(); // quiescence detection ends the gossip
    return k;
}

Neighborhoods neighborhoods(const CommModel& model) {
    const Cluster& c = model.cluster();
    const std::uint32_t P = c.num_pes(), M = c.num_machines();
    // Adjacent machines once per machine, then PEs by machine.
    std::vector<std::vector<MachineId>> adjacent(M);
    for (std::uint32_t m = 0; m < M; ++m) adjacent[m] = model.adjacent_machines(MachineId(m));
    Neighborhoods n;
    n.offsets.assign(std::size_t(P) + 1, 0);
    std::vector<std::uint32_t> scratch;
    for (std::uint32_t p = 0; p < P; ++p) {
        const MachineId m = c.machine_of(PeId(p));
        scratch.clear();
        const PeRange own = c.pes_of_machine(m);
        for (std::uint32_t i = 0; i < own.count; ++i)
            if (own[i].value != p) scratch.push_back(own[i].value);
        for (MachineId a : adjacent[m.value]) {
            const PeRange r = c.pes_of_machine(a);
            for (std::uint32_t i = 0; i < r.count; ++i) scratch.push_back(r[i].value);
        }
        std::sort(scratch.begin(), scratch.end());
        n.pes.insert(n.pes.end(), scratch.begin(), scratch.end());
        n.offsets[p + 1] = static_cast<std::uint32_t>(n.pes.size());
    }
    return n;
}

} // namespace nettopo::protocol
