// Neighbor: Charm++'s NeighborLB (src/ck-ldb/NborBaseLB.C, NeighborLB.C), run
// as a message protocol between PE agents, with the neighbourhood taken
// from the cluster instead of Charm++'s fixed shape (a 5-D torus by
// default), as the Net Topo thesis did with net_neighbors: a PE's
// neighbours are the other PEs of its machine and the PEs of the machines
// adjacent to it (CommModel::adjacent_machines).
//
// One exchange step per balance() call, as NborBaseLB does: every PE sends
// its load to each PE it is a neighbour of; once a PE has heard from all
// its neighbours (or the reply timeout passed: it goes on with those it
// heard from), it runs NeighborLB::Strategy on what it heard. If its load
// exceeds the average of itself and its neighbours, it repeats, while its
// load stays above that average and more than one of its tasks is left:
// take the lightest neighbour (as it knows it, updated by its own moves);
// take its biggest task not yet considered, and while that neighbour's load
// plus the task is not under its own load minus the task, discard the task
// for good (it is not tried again on a later neighbour) and take the next
// biggest; move the first that fits, or stop if none does. (A discarded
// task would not fit later either: the lightest neighbour's load only
// grows, ours only shrinks.) It then sends every neighbour one migration
// message (NborBaseLB's LBMigrateMsg, empty or not) listing the tasks it
// sends there; the sender's decision is the commit.
//
// Departure: Charm++ scales each neighbour's reported times by (my speed /
// its speed); we compare loads as nettopo defines them everywhere (work /
// speed, a time), and count a moved task at its time on the sender, as
// Charm++ counts an object's measured wall time.
#include "balance/protocol.hpp"
#include "balance/strategies.hpp"

#include <algorithm>
#include <functional>

namespace nettopo {

namespace protocol {

namespace {
enum Kind : std::uint32_t { load_kind = 1, migrate_kind };
} // namespace

BalanceOutcome run_neighbor(const BalanceInput& in, const StrategyOptions& options, Trace* trace) {
    check_balance_input(in);
    const std::uint32_t P = in.comm_model.cluster().num_pes();
    Network net = make_network(in, options, 0x6e626f72ULL);
    BalanceOutcome out;
    out.mapping.assign(in.mapping.begin(), in.mapping.end());
    auto speed = [&](std::uint32_t p) { return in.pe_speeds.empty() ? 1.0 : in.pe_speeds[p]; };
    if (P < 2) {
        net.report(out);
        return out;
    }
    std::vector<double> my_load = pe_loads(in, in.mapping);
    const Neighborhoods nb = neighborhoods(in.comm_model);
    const PeTasks held = tasks_by_pe(P, in.mapping);

    // Nearest machines are not a symmetric relation (a host may be nearest
    // to a host whose own nearest ones are elsewhere), while NborBaseLB's
    // shapes are: a PE waits for the load of each of its neighbours. So each
    // PE sends its load to the PEs that count it as a neighbour (CSR of the
    // reverse relation); on a symmetric neighbourhood these are its own.
    std::vector<std::uint32_t> listen_offsets(std::size_t(P) + 1, 0), listeners(nb.pes.size());
    for (std::uint32_t q : nb.pes) ++listen_offsets[q + 1];
    for (std::uint32_t p = 0; p < P; ++p) listen_offsets[p + 1] += listen_offsets[p];
    std::vector<std::uint32_t> fill(listen_offsets.begin(), listen_offsets.end() - 1);
    for (std::uint32_t p = 0; p < P; ++p)
        for (std::uint32_t q : nb.of(p)) listeners[fill[q]++] = p;
    for (std::uint32_t p = 0; p < P; ++p)
        for (std::uint32_t i = listen_offsets[p]; i < listen_offsets[p + 1]; ++i)
            net.send({p, listeners[i], load_kind, 0, 0, my_load[p], envelope_bytes + 8});

    // Per neighbour slot (aligned with nb.pes): what p heard, what p sends.
    std::vector<double> heard(nb.pes.size(), -1);
    std::vector<std::uint32_t> heard_count(P, 0), moves(nb.pes.size(), 0);
    std::vector<std::uint8_t> decided(P, 0);
    std::uint32_t undecided = P;
    const std::uint32_t deadline = net.reply_deadline(0);
    std::vector<std::pair<double, std::uint32_t>> tasks, lightest;

    auto decide = [&](std::uint32_t p) {
        decided[p] = 1;
        --undecided;
        const std::uint32_t base = nb.offsets[p];
        double sum = my_load[p];
        lightest.clear();
        for (std::uint32_t i = base; i < nb.offsets[p + 1]; ++i)
            if (heard[i] >= 0) {
                sum += heard[i];
                lightest.emplace_back(heard[i], i);
            }
        double mine = my_load[p];
        const double average = sum / (1.0 + lightest.size());
        if (!lightest.empty() && mine > average) {
            // Biggest first: tasks[next] is the top of NeighborLB's max-heap
            // of objects; the ones before it were moved or discarded.
            tasks.clear();
            for (std::uint32_t t : held.of(p)) tasks.emplace_back(in.task_loads[t] / speed(p), t);
            std::sort(tasks.begin(), tasks.end(), std::greater<>{});
            std::make_heap(lightest.begin(), lightest.end(), std::greater<>{});
            std::size_t here = tasks.size(), next = 0;
            do {
                if (here <= 1) break; // NeighborLB always leaves one object
                std::pop_heap(lightest.begin(), lightest.end(), std::greater<>{});
                auto& [nload, slot] = lightest.back();
                while (next < tasks.size() &&
                       !(nload + tasks[next].first < mine - tasks[next].first))
                    ++next; // discarded for good, as in NeighborLB
                if (next == tasks.size()) break;
                const auto [load, task] = tasks[next++];
                --here;
                nload += load;
                mine -= load;
                ++moves[slot];
                out.mapping[task] = PeId(nb.pes[slot]);
                if (trace) trace->commits.push_back({task, p, nb.pes[slot]});
                std::push_heap(lightest.begin(), lightest.end(), std::greater<>{});
            } while (mine > average);
        }
        for (std::uint32_t i = base; i < nb.offsets[p + 1]; ++i)
            net.send(
                {p, nb.pes[i], migrate_kind, moves[i], 0, 0, envelope_bytes + 4 + 4.0 * moves[i]});
    };

    while (undecided > 0) {
        for (const Message& m : net.next_round()) {
            if (m.kind != load_kind) continue; // migration notices: the runtime's to act on
            const auto mine = nb.of(m.dst);
            const auto it = std::lower_bound(mine.begin(), mine.end(), m.src);
            if (it == mine.end() || *it != m.src) continue; // cannot happen: sent to listeners
            const std::size_t slot = nb.offsets[m.dst] + (it - mine.begin());
            if (heard[slot] >= 0 || decided[m.dst]) continue; // too late to count
            heard[slot] = m.value;
            ++heard_count[m.dst];
        }
        for (std::uint32_t p = 0; p < P; ++p)
            if (!decided[p] && (heard_count[p] == nb.of(p).size() || net.round() >= deadline))
                decide(p);
    }
    while (!net.idle()) net.next_round();
    net.report(out);
    return out;
}

} // namespace protocol

std::unique_ptr<Strategy> make_neighbor(const StrategyOptions& options) {
    return std::make_unique<protocol::ProtocolStrategy>("neighbor", protocol::run_neighbor,
                                                        options);
}

} // namespace nettopo
