// The per-PE programs' common parts: the context, DistributedLB's gossip PE
// by PE, the dispatch by strategy name, and the in-process runtime, which
// is the simulator's: the protocol strategies run the programs through it.
#include "balance/agents.hpp"
#include "balance/mix.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <fmt/format.h>
#include <numeric>

namespace nettopo {

namespace agents {

using balance_detail::ceil_log2;
using balance_detail::splitmix64;

Context::Context(AgentRuntime& runtime, std::span<const AgentPe> local,
                 const StrategyOptions& options, std::uint32_t step, std::uint64_t salt,
                 protocol::Trace* trace)
    : runtime_(&runtime), local_(local), options_(&options), num_pes_(runtime.num_pes()),
      trace_(trace) {
    // index() and the runtimes count on contiguous increasing local PEs.
    if (local.empty() || local.back().pe >= num_pes_ ||
        local.back().pe - local.front().pe + 1 != local.size())
        throw UsageError("a runtime's local PEs must be a non-empty run of contiguous PE ids");
    const std::uint64_t base =
        splitmix64(options.seed ^ splitmix64(salt ^ (std::uint64_t(step) << 32)));
    rngs_.reserve(local.size());
    for (const AgentPe& p : local) rngs_.emplace_back(splitmix64(base ^ splitmix64(p.pe + 1)));
}

double pe_load(const AgentPe& pe) {
    double work = 0;
    for (const auto& [task, w] : pe.tasks) work += w;
    return pe.speed == 1 ? work : work / pe.speed;
}

PackDropStart packdrop_start(Context& c) {
    PackDropStart s;
    std::vector<double> counts;
    for (const AgentPe& pe : c.local()) {
        s.loads.push_back(pe_load(pe));
        counts.push_back(static_cast<double>(pe.tasks.size()));
    }
    s.total = c.sum(s.loads); // Load_Setup
    s.tasks = c.sum(counts);  // Chare_Setup
    return s;
}

double Context::sum(std::span<const double> local) {
    ++result_.reductions;
    return runtime_->sum(local);
}

double Context::max(std::span<const double> local) {
    ++result_.reductions;
    return runtime_->max(local);
}

std::pair<double, double> Context::sum_max(std::span<const double> local) {
    ++result_.reductions;
    return runtime_->sum_max(local);
}

KnownLists gossip(Context& c, std::span<const std::uint8_t> starts, std::span<const double> loads) {
    const std::uint32_t P = c.num_pes();
    const std::size_t L = c.local().size();
    const std::uint32_t max_sends = 2 * ceil_log2(P) + 1;
    const std::uint32_t targets = std::min(c.options().gossip_fanout, P - 1);
    KnownLists known(L, P);
    const std::uint32_t W = known.words();
    std::vector<std::uint32_t> sends(L, 0), received(L, 0), chosen;
    // Snapshots are reused once no message holds them any more: a new
    // allocation per forward would cost page faults and cold caches.
    std::vector<std::shared_ptr<GossipList>> pool;
    std::vector<std::size_t> unused;
    std::deque<std::size_t> handed; // pool entries handed out, oldest first
    // Snapshots are freed about in the order they were handed out (two
    // rounds later without delays), so the oldest are looked at until one
    // is still held: a snapshot is looked at about once, not every round.
    auto collect_unused = [&] {
        while (!handed.empty() && pool[handed.front()].use_count() == 1) {
            unused.push_back(handed.front());
            handed.pop_front();
        }
        // Pairs with the release of the last holder's decrement (other
        // threads' runtimes in the tests) before a snapshot is rewritten.
        std::atomic_thread_fence(std::memory_order_acquire);
    };

    auto forward = [&](std::size_t i, std::uint32_t times, std::vector<AgentMessage>& out) {
        const std::uint32_t pe = c.local()[i].pe;
        // One snapshot of the list for every message of this round.
        std::shared_ptr<const GossipList> snapshot;
        for (std::uint32_t n = 0; n < times && sends[i] < max_sends && targets > 0; ++n) {
            chosen.clear();
            while (chosen.size() < targets) {
                const auto to = static_cast<std::uint32_t>(c.rng(i)() % P);
                if (to != pe && std::find(chosen.begin(), chosen.end(), to) == chosen.end())
                    chosen.push_back(to);
            }
            if (!snapshot) {
                if (unused.empty()) {
                    pool.push_back(std::make_shared<GossipList>());
                    unused.push_back(pool.size() - 1);
                }
                GossipList& list = *pool[unused.back()];
                list.bits.assign(known.bits(i), known.bits(i) + W);
                list.loads = known.loads();
                list.count = 0;
                for (std::uint64_t w : list.bits) list.count += std::popcount(w);
                snapshot = pool[unused.back()];
                handed.push_back(unused.back());
                unused.pop_back();
            }
            for (std::uint32_t to : chosen) {
                AgentMessage m;
                m.src = pe;
                m.dst = to;
                m.bytes = protocol::envelope_bytes + 12.0 * snapshot->count; // (PE, load) pairs
                m.list = snapshot;
                out.push_back(std::move(m));
            }
            ++sends[i];
        }
    };

    std::vector<AgentMessage> first;
    for (std::size_t i = 0; i < L; ++i)
        if (starts[i]) {
            const std::uint32_t pe = c.local()[i].pe;
            known.bits(i)[pe / 64] |= std::uint64_t(1) << (pe % 64);
            known.loads()[pe] = loads[i];
            forward(i, 1, first);
        }
    c.run_rounds(
        std::move(first), [&](const std::vector<AgentMessage>& in, std::vector<AgentMessage>& out) {
            for (const AgentMessage& m : in) {
                const std::size_t i = c.index(m.dst);
                std::uint64_t* mine = known.bits(i);
                const GossipList& list = *m.list;
                if (list.loads == known.loads()) { // a list of this process: its loads are here
                    for (std::uint32_t w = 0; w < W; ++w) mine[w] |= list.bits[w];
                } else {
                    for (std::uint32_t w = 0; w < W; ++w) {
                        const std::uint64_t fresh = list.bits[w] & ~mine[w];
                        for (std::uint64_t b = fresh; b != 0; b &= b - 1) {
                            const std::uint32_t q =
                                w * 64 + static_cast<std::uint32_t>(std::countr_zero(b));
                            known.loads()[q] = list.loads[q];
                        }
                        mine[w] |= fresh;
                    }
                }
                ++received[i];
            }
            collect_unused();
            for (std::size_t i = 0; i < L; ++i) {
                if (received[i] == 0) continue;
                forward(i, received[i], out);
                received[i] = 0;
            }
        });
    c.sum(std::array<double, 1>{0}); // quiescence detection ends the gossip
    return known;
}

namespace {

constexpr std::uint64_t grapevine_salt = 0x6772617065ULL, packdrop_salt = 0x7061636bULL,
                        sbac_salt = 0x73626163ULL;

std::uint64_t salt_of(std::string_view strategy) {
    if (strategy == "grapevine" || strategy == "grapevine-6.8") return grapevine_salt;
    return strategy == "packdrop" ? packdrop_salt : sbac_salt;
}

// Every PE in this process, over the simulator's network: it loses and
// delays what the FaultModel says, charges each round its time and each
// reduction a collective's; a round's deliveries are sorted by
// (destination, source), each source's in the order it sent them.
class InProcessRuntime final : public AgentRuntime {
public:
    InProcessRuntime(protocol::Network& net, const FaultModel& faults)
        : net_(&net), delays_(faults.delay_probability > 0 && faults.max_delay_rounds > 0) {}
    std::uint32_t num_pes() const override { return net_->num_pes(); }
    double sum(std::span<const double> local) override {
        net_->collective();
        return add(local);
    }
    double max(std::span<const double> local) override {
        net_->collective();
        return largest(local);
    }
    std::pair<double, double> sum_max(std::span<const double> local) override {
        net_->collective();
        return {add(local), largest(local)};
    }
    std::uint64_t exchange(std::vector<AgentMessage>& out, std::vector<AgentMessage>& in,
                           std::uint64_t waiting) override {
        // Without delays a message arrives in the next round or never: it
        // stays in `out` until then, named by its index there; with delays
        // it is kept in a slot until it arrives.
        for (std::uint32_t k = 0; k < out.size(); ++k) {
            const AgentMessage& m = out[k];
            protocol::Message sent{m.src, m.dst, m.kind, k, 0, m.value, m.bytes};
            if (delays_) sent.item = keep(std::move(out[k]));
            const std::uint32_t slot = sent.item;
            if (!net_->send(sent) && delays_) {
                kept_[slot] = AgentMessage{}; // lost
                free_.push_back(slot);
            }
        }
        if (out.empty() && waiting == 0 && net_->idle()) return 0;
        // Delivered in send order; sorted by (destination, source) with two
        // stable counting passes (source, then destination), so that each
        // source's messages keep their send order.
        const std::span<const protocol::Message> delivered = net_->next_round();
        by_source_.resize(delivered.size());
        by_destination_.resize(delivered.size());
        // Often (the gossip's rounds) already in source order: no first pass.
        bool sorted = true;
        for (std::size_t k = 1; k < delivered.size() && sorted; ++k)
            sorted = delivered[k - 1].src <= delivered[k].src;
        if (sorted)
            std::iota(by_source_.begin(), by_source_.end(), 0u);
        else
            count_pass(delivered, by_source_, [&](std::size_t k) { return delivered[k].src; });
        count_pass(delivered, by_destination_,
                   [&](std::size_t k) { return delivered[by_source_[k]].dst; });
        in.clear();
        for (std::uint32_t k : by_destination_) {
            const std::uint32_t slot = delivered[by_source_[k]].item;
            if (!delays_) {
                in.push_back(std::move(out[slot]));
                continue;
            }
            in.push_back(std::move(kept_[slot]));
            kept_[slot] = AgentMessage{};
            free_.push_back(slot);
        }
        return 1 + out.size() + in.size() + waiting;
    }

private:
    static double add(std::span<const double> local) {
        double s = 0;
        for (double v : local) s += v;
        return s;
    }
    static double largest(std::span<const double> local) {
        double m = local.empty() ? 0 : local[0];
        for (double v : local) m = std::max(m, v);
        return m;
    }
    // order[j] = the j-th index k in increasing key(k), ties in order of k.
    template <class Key>
    void count_pass(std::span<const protocol::Message> delivered, std::vector<std::uint32_t>& order,
                    Key key) {
        counts_.assign(std::size_t(net_->num_pes()) + 1, 0);
        for (std::size_t k = 0; k < delivered.size(); ++k) ++counts_[key(k) + 1];
        for (std::size_t p = 0; p + 1 < counts_.size(); ++p) counts_[p + 1] += counts_[p];
        for (std::size_t k = 0; k < delivered.size(); ++k)
            order[counts_[key(k)]++] = static_cast<std::uint32_t>(k);
    }
    // Messages in flight, by the slot the network's message names.
    std::uint32_t keep(AgentMessage&& m) {
        if (free_.empty()) {
            kept_.push_back(std::move(m));
            return static_cast<std::uint32_t>(kept_.size() - 1);
        }
        const std::uint32_t slot = free_.back();
        free_.pop_back();
        kept_[slot] = std::move(m);
        return slot;
    }
    protocol::Network* net_;
    bool delays_;
    std::vector<AgentMessage> kept_;
    std::vector<std::uint32_t> free_, by_source_, by_destination_, counts_;
};

} // namespace

AgentResult run_programs(std::string_view strategy, const StrategyOptions& options,
                         std::uint32_t step, std::uint32_t measured_iterations,
                         std::span<const AgentPe> local, AgentRuntime& runtime,
                         protocol::Trace* trace) {
    Context c(runtime, local, options, step, salt_of(strategy), trace);
    if (strategy == "grapevine" || strategy == "grapevine-6.8")
        run_grapevine(c, strategy == "grapevine-6.8", measured_iterations);
    else if (strategy == "packdrop")
        run_packdrop(c);
    else
        run_packdrop_sbac(c);
    return c.take_result();
}

BalanceOutcome run_in_process(std::string_view strategy, const BalanceInput& in,
                              const StrategyOptions& options, protocol::Trace* trace) {
    if (!has_pe_agents(strategy))
        throw UsageError(fmt::format("'{}' has no per-PE program", strategy));
    const std::vector<AgentPe> pes = agent_pes(in);
    // The faults draw from their own stream, apart from every PE's.
    protocol::Network net =
        protocol::make_network(in, options, salt_of(strategy) ^ 0x6661756c7473ULL);
    InProcessRuntime runtime(net, options.faults);
    const AgentResult r =
        run_programs(strategy, options, in.step, in.measured_iterations, pes, runtime, trace);
    BalanceOutcome out;
    out.mapping.assign(in.mapping.begin(), in.mapping.end());
    for (const auto& [task, to] : r.moves) out.mapping[task] = PeId(to);
    net.report(out);
    return out;
}

} // namespace agents

namespace {

constexpr std::array<std::string_view, 4> agent_strategies{"grapevine", "grapevine-6.8", "packdrop",
                                                           "packdrop-sbac"};

} // namespace

bool has_pe_agents(std::string_view strategy) {
    return std::find(agent_strategies.begin(), agent_strategies.end(), strategy) !=
           agent_strategies.end();
}

AgentResult run_pe_agents(std::string_view strategy, const StrategyOptions& options,
                          std::uint32_t step, std::uint32_t measured_iterations,
                          std::span<const AgentPe> local, AgentRuntime& runtime) {
    if (!has_pe_agents(strategy))
        throw UsageError(fmt::format("'{}' has no per-PE program (those that do: {})", strategy,
                                     fmt::join(agent_strategies, ", ")));
    return agents::run_programs(strategy, options, step, measured_iterations, local, runtime,
                                nullptr);
}

std::vector<AgentPe> agent_pes(const BalanceInput& in) {
    check_balance_input(in);
    const std::uint32_t P = in.comm_model.cluster().num_pes();
    std::vector<AgentPe> pes(P);
    for (std::uint32_t p = 0; p < P; ++p) {
        pes[p].pe = p;
        pes[p].speed = in.pe_speeds.empty() ? 1.0 : in.pe_speeds[p];
    }
    std::vector<std::uint32_t> held(P, 0);
    for (PeId p : in.mapping) ++held[p.value];
    for (std::uint32_t p = 0; p < P; ++p) pes[p].tasks.reserve(held[p]);
    for (std::uint32_t t = 0; t < in.mapping.size(); ++t)
        pes[in.mapping[t].value].tasks.emplace_back(t, in.task_loads[t]);
    return pes;
}

BalanceOutcome run_agents_in_process(std::string_view strategy, const BalanceInput& in,
                                     const StrategyOptions& options) {
    return agents::run_in_process(strategy, in, options, nullptr);
}

} // namespace nettopo
