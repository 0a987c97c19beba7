// The per-PE programs' common parts: the context, DistributedLB's gossip PE
// by PE, the dispatch by strategy name, and the in-process runtime.
#include "balance/agents.hpp"
#include "balance/mix.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>

namespace nettopo {

namespace agents {

using balance_detail::ceil_log2;
using balance_detail::splitmix64;

Context::Context(AgentRuntime& runtime, std::span<const AgentPe> local,
                 const StrategyOptions& options, std::uint32_t step, std::uint64_t salt)
    : runtime_(&runtime), local_(local), options_(&options), num_pes_(runtime.num_pes()) {
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

std::vector<std::vector<PeLoad>> gossip(Context& c, std::span<const std::uint8_t> starts,
                                        std::span<const double> loads) {
    const std::uint32_t P = c.num_pes();
    const std::size_t L = c.local().size();
    const std::uint32_t max_sends = 2 * ceil_log2(P) + 1;
    const std::uint32_t targets = std::min(c.options().gossip_fanout, P - 1);
    std::vector<std::vector<PeLoad>> known(L);
    std::vector<std::uint32_t> sends(L, 0), received(L, 0), chosen;

    auto forward = [&](std::size_t i, std::uint32_t times, std::vector<AgentMessage>& out) {
        const std::uint32_t pe = c.local()[i].pe;
        for (std::uint32_t n = 0; n < times && sends[i] < max_sends && targets > 0; ++n) {
            chosen.clear();
            while (chosen.size() < targets) {
                const auto to = static_cast<std::uint32_t>(c.rng(i)() % P);
                if (to != pe && std::find(chosen.begin(), chosen.end(), to) == chosen.end())
                    chosen.push_back(to);
            }
            for (std::uint32_t to : chosen) {
                AgentMessage m;
                m.src = pe;
                m.dst = to;
                m.list = known[i];
                out.push_back(std::move(m));
            }
            ++sends[i];
        }
    };

    std::vector<AgentMessage> first;
    for (std::size_t i = 0; i < L; ++i)
        if (starts[i]) {
            known[i].emplace_back(c.local()[i].pe, loads[i]);
            forward(i, 1, first);
        }
    c.run_rounds(std::move(first), [&](const std::vector<AgentMessage>& in,
                                       std::vector<AgentMessage>& out) {
        for (const AgentMessage& m : in) {
            const std::size_t i = c.index(m.dst);
            known[i].insert(known[i].end(), m.list.begin(), m.list.end());
            ++received[i];
        }
        for (std::size_t i = 0; i < L; ++i) {
            if (received[i] == 0) continue;
            std::sort(known[i].begin(), known[i].end());
            known[i].erase(
                std::unique(known[i].begin(), known[i].end(),
                            [](const PeLoad& a, const PeLoad& b) { return a.first == b.first; }),
                known[i].end());
            forward(i, received[i], out);
            received[i] = 0;
        }
    });
    c.sum(std::array<double, 1>{0}); // quiescence detection ends the gossip
    return known;
}

} // namespace agents

namespace {

constexpr std::array<std::string_view, 4> agent_strategies{"grapevine", "grapevine-6.8", "packdrop",
                                                           "packdrop-sbac"};

// Every PE in this process: a round's messages are delivered sorted by
// (destination, source), each source's in the order it sent them.
class InProcessRuntime final : public AgentRuntime {
public:
    explicit InProcessRuntime(std::uint32_t num_pes) : num_pes_(num_pes) {}
    std::uint32_t num_pes() const override { return num_pes_; }
    double sum(std::span<const double> local) override {
        double s = 0;
        for (double v : local) s += v;
        return s;
    }
    double max(std::span<const double> local) override {
        double m = local.empty() ? 0 : local[0];
        for (double v : local) m = std::max(m, v);
        return m;
    }
    std::uint64_t exchange(const std::vector<AgentMessage>& out,
                           std::vector<AgentMessage>& in) override {
        in = out;
        std::stable_sort(in.begin(), in.end(), [](const AgentMessage& a, const AgentMessage& b) {
            return a.dst != b.dst ? a.dst < b.dst : a.src < b.src;
        });
        return out.size();
    }

private:
    std::uint32_t num_pes_;
};

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
    // The salts are the simulated protocols' (protocol.hpp's make_network).
    if (strategy == "grapevine" || strategy == "grapevine-6.8") {
        agents::Context c(runtime, local, options, step, 0x6772617065ULL);
        agents::run_grapevine(c, strategy == "grapevine-6.8", measured_iterations);
        return c.take_result();
    }
    if (strategy == "packdrop") {
        agents::Context c(runtime, local, options, step, 0x7061636bULL);
        agents::run_packdrop(c);
        return c.take_result();
    }
    agents::Context c(runtime, local, options, step, 0x73626163ULL);
    agents::run_packdrop_sbac(c);
    return c.take_result();
}

std::vector<AgentPe> agent_pes(const BalanceInput& in) {
    check_balance_input(in);
    const std::uint32_t P = in.comm_model.cluster().num_pes();
    std::vector<AgentPe> pes(P);
    for (std::uint32_t p = 0; p < P; ++p) {
        pes[p].pe = p;
        pes[p].speed = in.pe_speeds.empty() ? 1.0 : in.pe_speeds[p];
    }
    for (std::uint32_t t = 0; t < in.mapping.size(); ++t)
        pes[in.mapping[t].value].tasks.emplace_back(t, in.task_loads[t]);
    return pes;
}

BalanceOutcome run_agents_in_process(std::string_view strategy, const BalanceInput& in,
                                     const StrategyOptions& options) {
    const std::vector<AgentPe> pes = agent_pes(in);
    InProcessRuntime runtime(static_cast<std::uint32_t>(pes.size()));
    const AgentResult r =
        run_pe_agents(strategy, options, in.step, in.measured_iterations, pes, runtime);
    BalanceOutcome out;
    out.mapping.assign(in.mapping.begin(), in.mapping.end());
    for (const auto& [task, to] : r.moves) out.mapping[task] = PeId(to);
    out.messages = r.messages;
    out.collectives = r.reductions;
    out.rounds = r.rounds;
    return out;
}

} // namespace nettopo
