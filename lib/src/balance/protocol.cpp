// The simulated runtime of the distributed strategies: rounds, a lossy
// counted network and reliable collectives. See protocol.hpp for the rules
// that keep tasks from being lost or duplicated.
#include "balance/protocol.hpp"

#include "balance/mix.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
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
