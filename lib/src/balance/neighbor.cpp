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
// `neighbor-charm` is the same protocol on Charm++'s own default
// neighbourhood, LBTopo_torus_nd<5> (+LBTopo torus_nd_5; src/conv-ldb/
// topology.C, v6.8.1): the PEs laid out on a virtual 5-D torus of
// dimensions c_i = ceil((P / c_0 ... c_{i-1})^(1/(5-i)) - 1e-5), dimension 0
// fastest; neighbour k steps dimension k/2 by +1 (k even) or -1 (k odd),
// wrapping, and on past ids >= P; the PE itself and a repeat of the
// previous neighbour are dropped. At most 10 neighbours, wherever the PEs
// are: the Net Topo thesis compared this (NeighborLB) with net_neighbors
// (myNeighborLB).
//
// Departure: Charm++ scales each neighbour's reported times by (my speed /
// its speed); we compare loads as nettopo defines them everywhere (work /
// speed, a time), and count a moved task at its time on the sender, as
// Charm++ counts an object's measured wall time.
#include "balance/protocol.hpp"
#include "balance/strategies.hpp"
#include "nettopo/balance/detail/neighbor_rule.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace nettopo {

namespace protocol {

namespace {
enum Kind : std::uint32_t { load_kind = 1, migrate_kind };
} // namespace

namespace {

BalanceOutcome run_on(const BalanceInput& in, const StrategyOptions& options, Trace* trace,
                      bool charm_torus) {
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
    const Neighborhoods nb =
        charm_torus ? torus_nd_neighborhoods(P, 5) : neighborhoods(in.comm_model);
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
        lightest.clear();
        for (std::uint32_t i = base; i < nb.offsets[p + 1]; ++i)
            if (heard[i] >= 0) lightest.emplace_back(heard[i], i);
        tasks.clear();
        for (std::uint32_t t : held.of(p)) tasks.emplace_back(in.task_loads[t] / speed(p), t);
        for (const auto& [task, slot] : neighbor_lb_moves(my_load[p], tasks, lightest)) {
            ++moves[slot];
            out.mapping[task] = PeId(nb.pes[slot]);
            if (trace) trace->commits.push_back({task, p, nb.pes[slot]});
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

} // namespace

BalanceOutcome run_neighbor(const BalanceInput& in, const StrategyOptions& options, Trace* trace) {
    return run_on(in, options, trace, false);
}

BalanceOutcome run_neighbor_charm(const BalanceInput& in, const StrategyOptions& options,
                                  Trace* trace) {
    return run_on(in, options, trace, true);
}

Neighborhoods torus_nd_neighborhoods(std::uint32_t P, std::uint32_t dimensions) {
    std::vector<std::uint64_t> card(dimensions);
    double pp = P;
    for (std::uint32_t i = 0; i < dimensions; ++i) {
        card[i] =
            static_cast<std::uint64_t>(std::ceil(std::pow(pp, 1.0 / (dimensions - i)) - 1e-5));
        pp = pp / static_cast<double>(card[i]);
    }
    std::vector<std::uint64_t> co(dimensions);
    const auto coordinates = [&](std::uint64_t id) {
        for (std::uint32_t i = 0; i < dimensions; ++i) {
            co[i] = id % card[i];
            id /= card[i];
        }
    };
    const auto id_of = [&] {
        std::uint64_t id = 0;
        for (std::uint32_t i = dimensions; i-- > 0;) id = id * card[i] + co[i];
        return id;
    };
    Neighborhoods n;
    n.offsets.assign(std::size_t(P) + 1, 0);
    std::vector<std::uint32_t> list;
    for (std::uint32_t p = 0; p < P; ++p) {
        list.clear();
        for (std::uint32_t k = 0; k < 2 * dimensions; ++k) {
            // GetNeighborID: step on in the same direction past holes.
            coordinates(p);
            const std::uint32_t d = k / 2;
            std::uint64_t id;
            do {
                co[d] = k % 2 ? (co[d] + card[d] - 1) % card[d] : (co[d] + 1) % card[d];
                id = id_of();
            } while (id >= P);
            const auto q = static_cast<std::uint32_t>(id);
            if (q != p && (list.empty() || list.back() != q)) list.push_back(q);
        }
        // Kept sorted and unique for the protocol's lookups; Charm++'s list
        // has no other repeat for P <= 1,099 (checked there), and a repeat
        // would only weigh one neighbour twice in its average.
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
        n.pes.insert(n.pes.end(), list.begin(), list.end());
        n.offsets[p + 1] = static_cast<std::uint32_t>(n.pes.size());
    }
    return n;
}

} // namespace protocol

std::vector<std::pair<std::uint32_t, std::uint32_t>>
neighbor_lb_moves(double my_load, std::vector<std::pair<double, std::uint32_t>> tasks,
                  std::vector<std::pair<double, std::uint32_t>> heard) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> moves;
    double sum = my_load;
    for (const auto& h : heard) sum += h.first;
    double mine = my_load;
    const double average = sum / (1.0 + heard.size());
    if (heard.empty() || !(mine > average)) return moves;
    // Biggest first: tasks[next] is the top of NeighborLB's max-heap of
    // objects; the ones before it were moved or discarded.
    std::sort(tasks.begin(), tasks.end(), std::greater<>{});
    std::make_heap(heard.begin(), heard.end(), std::greater<>{});
    std::size_t here = tasks.size(), next = 0;
    do {
        if (here <= 1) break; // NeighborLB always leaves one object
        std::pop_heap(heard.begin(), heard.end(), std::greater<>{});
        auto& [nload, slot] = heard.back();
        while (next < tasks.size() && !(nload + tasks[next].first < mine - tasks[next].first))
            ++next; // discarded for good, as in NeighborLB
        if (next == tasks.size()) break;
        const auto [load, task] = tasks[next++];
        --here;
        nload += load;
        mine -= load;
        moves.emplace_back(task, slot);
        std::push_heap(heard.begin(), heard.end(), std::greater<>{});
    } while (mine > average);
    return moves;
}

std::vector<std::vector<std::uint32_t>> neighbor_lists(const CommModel& model, bool charm_torus) {
    const std::uint32_t P = model.cluster().num_pes();
    const protocol::Neighborhoods n =
        charm_torus ? protocol::torus_nd_neighborhoods(P, 5) : protocol::neighborhoods(model);
    std::vector<std::vector<std::uint32_t>> lists(P);
    for (std::uint32_t p = 0; p < P; ++p) lists[p].assign(n.of(p).begin(), n.of(p).end());
    return lists;
}

std::unique_ptr<Strategy> make_neighbor(const StrategyOptions& options) {
    return std::make_unique<protocol::ProtocolStrategy>("neighbor", protocol::run_neighbor,
                                                        options);
}

std::unique_ptr<Strategy> make_neighbor_charm(const StrategyOptions& options) {
    return std::make_unique<protocol::ProtocolStrategy>("neighbor-charm",
                                                        protocol::run_neighbor_charm, options);
}

} // namespace nettopo
