// nettopo-balance --mpi over Open MPI: a distributed strategy's protocol
// with one rank per PE, on the state the simulator balances. Each rank knows
// only its own tasks and what messages bring it.
//
// NeighborLB, as Charm++'s NborBaseLB runs it: a rank sends its load to the
// PEs that count it as a neighbour, waits for its neighbours' loads, applies
// NeighborLB's rule (neighbor_rule.hpp, the same code as the simulated
// protocol's), and sends each neighbour one migration notice. With no
// message lost and no randomness, it must end with the simulator's mapping
// and number of messages.
//
// The gossip protocols (Grapevine, PackDrop): the rank runs its PE's program
// (pe_agents.hpp) over MpiAgentRuntime. The simulator runs the same
// programs in one process, so the MPI run must end with the simulator's
// mapping and number of messages too.
//
// Rank 0 gathers the moves and the message counts and compares.
#include "nettopo-balance/mpi_balance.hpp"

#include "common/mpi_session.hpp"
#include "common/tool_support.hpp"
#include "nettopo-balance/mpi_agent_runtime.hpp"
#include "nettopo/balance/detail/balance_summary.hpp"
#include "nettopo/balance/detail/neighbor_rule.hpp"
#include "nettopo/balance/detail/pe_agents.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <iostream>
#include <mpi.h>

namespace nettopo {

namespace {

constexpr int tag_load = 1, tag_migrate = 2;

double max_over_avg(const std::vector<double>& loads) {
    double sum = 0, max = 0;
    for (double l : loads) {
        sum += l;
        max = std::max(max, l);
    }
    return sum > 0 ? max / (sum / static_cast<double>(loads.size())) : 1;
}

// NeighborLB on this rank: the moves it decided, (task, destination PE).
std::vector<std::uint32_t> run_neighbor_rank(const MpiBalanceState& s, int rank,
                                             std::uint64_t& messages_sent) {
    const auto P = static_cast<std::uint32_t>(s.model->cluster().num_pes());
    const auto me = static_cast<std::uint32_t>(rank);
    const auto lists = neighbor_lists(*s.model, s.strategy == "neighbor-charm");
    const std::vector<std::uint32_t>& mine = lists[me];
    std::vector<std::uint32_t> listeners; // the PEs that count me as a neighbour
    for (std::uint32_t p = 0; p < P; ++p)
        if (std::binary_search(lists[p].begin(), lists[p].end(), me)) listeners.push_back(p);

    const double speed = s.speeds.empty() ? 1.0 : s.speeds[me];
    std::vector<std::pair<double, std::uint32_t>> tasks;
    double my_load = 0;
    for (std::uint32_t t = 0; t < s.mapping.size(); ++t)
        if (s.mapping[t].value == me) {
            tasks.emplace_back(s.loads[t] / speed, t);
            my_load += s.loads[t] / speed;
        }

    // My load to my listeners; my neighbours' loads to me.
    std::vector<double> heard_load(mine.size());
    std::vector<MPI_Request> requests;
    for (std::size_t i = 0; i < mine.size(); ++i) {
        requests.emplace_back();
        MPI_Irecv(&heard_load[i], 1, MPI_DOUBLE, static_cast<int>(mine[i]), tag_load,
                  MPI_COMM_WORLD, &requests.back());
    }
    for (std::uint32_t l : listeners) {
        requests.emplace_back();
        MPI_Isend(&my_load, 1, MPI_DOUBLE, static_cast<int>(l), tag_load, MPI_COMM_WORLD,
                  &requests.back());
        ++messages_sent;
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);

    std::vector<std::pair<double, std::uint32_t>> heard;
    for (std::size_t i = 0; i < mine.size(); ++i)
        heard.emplace_back(heard_load[i], static_cast<std::uint32_t>(i));
    std::vector<std::uint32_t> moves;
    std::vector<int> sent_to(mine.size(), 0);
    for (const auto& [task, slot] : neighbor_lb_moves(my_load, tasks, heard)) {
        moves.push_back(task);
        moves.push_back(mine[slot]);
        ++sent_to[slot];
    }

    // One migration notice to each neighbour (NborBaseLB's LBMigrateMsg):
    // how many tasks come its way.
    requests.clear();
    std::vector<int> incoming(listeners.size());
    for (std::size_t i = 0; i < listeners.size(); ++i) {
        requests.emplace_back();
        MPI_Irecv(&incoming[i], 1, MPI_INT, static_cast<int>(listeners[i]), tag_migrate,
                  MPI_COMM_WORLD, &requests.back());
    }
    for (std::size_t i = 0; i < mine.size(); ++i) {
        requests.emplace_back();
        MPI_Isend(&sent_to[i], 1, MPI_INT, static_cast<int>(mine[i]), tag_migrate, MPI_COMM_WORLD,
                  &requests.back());
        ++messages_sent;
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    return moves;
}

// A gossip protocol's program on this rank: its moves, (task, destination).
std::vector<std::uint32_t> run_agent_rank(const MpiBalanceState& s, int rank,
                                          std::uint64_t& messages_sent) {
    const BalanceInput in{
        *s.model, s.loads, s.graph, s.speeds, s.mapping, 0, s.measured_iterations};
    const std::vector<AgentPe> pes = agent_pes(in);
    MpiAgentRuntime runtime;
    const AgentResult r = run_pe_agents(s.strategy, s.options, in.step, in.measured_iterations,
                                        std::span<const AgentPe>(&pes[rank], 1), runtime);
    messages_sent = r.messages;
    std::vector<std::uint32_t> moves;
    for (const auto& [task, to] : r.moves) {
        moves.push_back(task);
        moves.push_back(to);
    }
    return moves;
}

bool is_neighbor(std::string_view strategy) {
    return strategy == "neighbor" || strategy == "neighbor-charm";
}

// 0 ok, 1 bad data, 2 bad usage: the worst over the ranks.
int agree_on_code(int code) {
    int worst = 0;
    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

} // namespace

int report_mpi_usage_error(std::string_view tool, std::string_view message) {
    const MpiSession session;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) report_usage_error(tool, message);
    MPI_Barrier(MPI_COMM_WORLD);
    return exit_bad_usage;
}

int balance_over_mpi(const MpiBalanceOptions& options) {
    const MpiSession session;
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    // Every rank builds the state; rank 0 speaks for all of them.
    MpiBalanceState state;
    std::string error;
    int code = 0;
    try {
        state = options.build();
        if (!is_neighbor(state.strategy) && !has_pe_agents(state.strategy))
            throw UsageError(fmt::format("--mpi runs the distributed strategies (neighbor, "
                                         "neighbor-charm, grapevine, grapevine-6.8, packdrop, "
                                         "packdrop-sbac), not '{}'",
                                         state.strategy));
        const std::uint32_t P = state.model->cluster().num_pes();
        if (static_cast<std::uint32_t>(size) != P)
            throw UsageError(fmt::format("--mpi needs one rank per PE: the cluster has {} PEs, "
                                         "the job {} ranks (mpirun -np {})",
                                         P, size, P));
    } catch (const UsageError& e) {
        error = error_message(e);
        code = 2;
    } catch (const std::exception& e) {
        error = error_message(e);
        code = 1;
    }
    if (const int worst = agree_on_code(code); worst != 0) {
        if (rank == 0)
            return run_guarded(options.tool, [&]() -> int {
                if (worst == 2) throw UsageError(error.empty() ? "another rank's usage" : error);
                throw InputError(error.empty() ? "another rank could not build the state" : error);
            });
        return worst;
    }

    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t sent = 0;
    const std::vector<std::uint32_t> moves = is_neighbor(state.strategy)
                                                 ? run_neighbor_rank(state, rank, sent)
                                                 : run_agent_rank(state, rank, sent);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // Rank 0 gathers the moves and the message counts.
    const int count = static_cast<int>(moves.size());
    std::vector<int> counts(rank == 0 ? size : 0), offsets;
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<std::uint32_t> all;
    if (rank == 0) {
        offsets.assign(size, 0);
        for (int r = 1; r < size; ++r) offsets[r] = offsets[r - 1] + counts[r - 1];
        all.resize(static_cast<std::size_t>(offsets.back() + counts.back()));
    }
    MPI_Gatherv(moves.data(), count, MPI_UINT32_T, all.data(), counts.data(), offsets.data(),
                MPI_UINT32_T, 0, MPI_COMM_WORLD);
    unsigned long long total_sent = 0, mine_sent = sent;
    MPI_Reduce(&mine_sent, &total_sent, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank != 0) return 0;

    return run_guarded(options.tool, [&]() -> int {
        std::vector<PeId> mapping = state.mapping;
        for (std::size_t i = 0; i + 1 < all.size(); i += 2) mapping[all[i]] = PeId(all[i + 1]);
        const BalanceInput in{*state.model,
                              state.loads,
                              state.graph,
                              state.speeds,
                              state.mapping,
                              0,
                              state.measured_iterations};
        const BalanceOutcome simulated = make_strategy(state.strategy, state.options)->balance(in);
        const BalanceOutcome& reference = simulated;
        MpiBalanceComparison c;
        c.strategy = state.strategy;
        c.reference = "simulator";
        c.reference_messages = reference.messages;
        c.cluster = state.model->cluster().name();
        c.num_tasks = static_cast<std::uint32_t>(state.loads.size());
        c.ranks = static_cast<std::uint32_t>(size);
        c.mpi_messages = total_sent;
        c.simulated_messages = simulated.messages;
        c.mpi_migrations = all.size() / 2;
        for (std::size_t t = 0; t < mapping.size(); ++t)
            c.simulated_migrations += simulated.mapping[t] != state.mapping[t];
        c.max_avg_before = max_over_avg(pe_loads(in, state.mapping));
        c.mpi_max_avg_after = max_over_avg(pe_loads(in, mapping));
        c.simulated_max_avg_after = max_over_avg(pe_loads(in, simulated.mapping));
        c.mpi_seconds = seconds;
        c.same_mapping = mapping == reference.mapping;
        options.print_on_root(c);
        return c.same_mapping && c.mpi_messages == c.reference_messages ? exit_ok
                                                                        : exit_differences;
    });
}

} // namespace nettopo
