// PackDrop as its authors coded and ran it (github viniciusmctf/packdrop-
// code, branch SBAC-Release, PackDropLB.C): the `packdrop-sbac` strategy.
// `packdrop` (packdrop.cpp) follows the paper's text; this code differs:
//  - packs are filled with the LARGEST tasks first (a max-heap of measured
//    loads), while the PE is above 1.05 avg; a pack closes once a running
//    sum that is never reset exceeds 0.95 x the pack load, so after the
//    first pack every task is a pack of its own;
//  - the pack load is avg x P / tasks x (2 - P / tasks) with an integer
//    division (2 whenever there are more tasks than PEs);
//  - receivers: the known PEs whose gossiped load + 1.05 x the pack load is
//    under 1.05 avg; with fewer than P / 4 of them, any random PE;
//  - every pack is offered at once; the receiver accepts if its load plus
//    the NOMINAL pack load is under 1.05 avg, and adds that nominal load;
//    after a refusal the pack is offered to another random receiver, and
//    from the PE's second try on the offer forces acceptance (the tries are
//    counted per PE, not per pack);
//  - two messages per offer (offer, reply): no confirmation;
//  - the PE's migration message holds as many moves as packs were accepted:
//    the task moves past that count are dropped (a pack of several tasks
//    moves only as many of them as there were accepted packs).
// Loads are measured wall times on the sender (Charm++ ignores speeds
// here). The gossip is DistributedLB's (protocol.hpp).
#include "balance/protocol.hpp"
#include "balance/strategies.hpp"

#include <algorithm>
#include <functional>

namespace nettopo {

namespace protocol {

namespace {

enum Kind : std::uint32_t { offer_kind = 1, accept_kind, refuse_kind };

struct Donor {
    std::vector<std::vector<std::uint32_t>> packs; // tasks, largest first
    std::vector<std::uint32_t> receivers;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> moves; // (task, to), acceptance order
    std::uint32_t tries = 0, acks_needed = 0, accepted_packs = 0;
    bool done = false;
};

} // namespace

BalanceOutcome run_packdrop_sbac(const BalanceInput& in, const StrategyOptions& options,
                                 Trace* trace) {
    check_balance_input(in);
    const std::uint32_t P = in.comm_model.cluster().num_pes();
    const auto N = static_cast<std::uint32_t>(in.task_loads.size());
    Network net = make_network(in, options, 0x73626163ULL);
    BalanceOutcome out;
    out.mapping.assign(in.mapping.begin(), in.mapping.end());
    auto speed = [&](std::uint32_t p) { return in.pe_speeds.empty() ? 1.0 : in.pe_speeds[p]; };

    PackDropSetup setup = packdrop_setup(in, net);
    std::vector<double>& my_load = setup.load;
    const double avg = setup.avg;
    if (!setup.balances) {
        net.report(out);
        return out;
    }
    const double v = options.packdrop_tolerance;
    const double ceil = avg * (1 + v);
    const double pack_load = (P * avg / N) * static_cast<double>(2 - static_cast<int>(P / N));
    const double pack_floor = pack_load * (1 - v);

    const PeTasks held = tasks_by_pe(P, in.mapping);
    std::vector<Donor> donors(P);
    std::vector<std::uint8_t> starts(P, 0);
    std::vector<std::pair<double, std::uint32_t>> heap;
    for (std::uint32_t pe = 0; pe < P; ++pe) {
        if (!(my_load[pe] > ceil)) {
            starts[pe] = 1;
            continue;
        }
        heap.clear();
        for (std::uint32_t t : held.of(pe)) heap.emplace_back(in.task_loads[t] / speed(pe), t);
        std::make_heap(heap.begin(), heap.end()); // largest first
        Donor& d = donors[pe];
        d.packs.emplace_back();
        double pack_load_now = 0; // never reset, as in Chare_Setup
        while (my_load[pe] > ceil && !heap.empty()) {
            std::pop_heap(heap.begin(), heap.end());
            const auto [load, task] = heap.back();
            heap.pop_back();
            d.packs.back().push_back(task);
            pack_load_now += load;
            my_load[pe] -= load;
            if (pack_load_now > pack_floor) d.packs.emplace_back();
        }
    }
    const std::vector<double> announced = my_load;
    const KnownSets known = gossip(net, starts, options.gossip_fanout);

    std::vector<std::uint32_t> ids;
    auto find_receiver = [&](std::uint32_t pe) {
        const Donor& d = donors[pe];
        std::uint32_t to;
        // Below 4 PEs the code's test is never true and an empty list would
        // be drawn from (rand() % 0): any random PE then, as with few.
        if (d.receivers.size() < P / 4 || d.receivers.empty()) {
            do to = uniform_below(net.rng(), P);
            while (to == pe);
        } else {
            to = d.receivers[uniform_below(net.rng(),
                                           static_cast<std::uint32_t>(d.receivers.size()))];
        }
        return to;
    };
    auto send_offer = [&](std::uint32_t pe, std::uint32_t id, bool force) {
        Donor& d = donors[pe];
        ++d.acks_needed;
        net.send({pe, find_receiver(pe), offer_kind, id, force ? 1u : 0u, pack_load,
                  envelope_bytes + 13});
    };
    auto finish = [&](std::uint32_t pe) {
        Donor& d = donors[pe];
        d.done = true;
        // The migration message holds accepted_packs moves: the rest are dropped.
        const std::size_t kept = std::min<std::size_t>(d.accepted_packs, d.moves.size());
        for (std::size_t i = 0; i < kept; ++i) {
            const auto [task, to] = d.moves[i];
            out.mapping[task] = PeId(to);
            if (trace) trace->commits.push_back({task, pe, to});
        }
    };

    for (std::uint32_t pe = 0; pe < P; ++pe) {
        Donor& d = donors[pe];
        if (d.packs.empty()) continue;
        known.list(pe, ids);
        for (std::uint32_t q : ids)
            if (q != pe && announced[q] + pack_load * (1 + v) < ceil) d.receivers.push_back(q);
        ++d.tries; // PackSend
        for (std::uint32_t id = 0; id < d.packs.size(); ++id)
            if (!d.packs[id].empty()) send_offer(pe, id, false);
        if (d.acks_needed == 0) finish(pe);
    }
    while (!net.idle()) {
        for (const Message& m : net.next_round()) {
            if (m.kind == offer_kind) {
                const bool accept = my_load[m.dst] + m.value < ceil || m.serial == 1;
                if (accept) {
                    my_load[m.dst] += m.value;
                    if (trace) trace->acceptances.push_back({m.dst, my_load[m.dst], ceil});
                }
                net.send({m.dst, m.src, accept ? accept_kind : refuse_kind, m.item, 0, 0,
                          envelope_bytes + 9});
                continue;
            }
            Donor& d = donors[m.dst];
            --d.acks_needed;
            if (m.kind == accept_kind) {
                for (std::uint32_t task : d.packs[m.item]) d.moves.emplace_back(task, m.src);
                d.packs[m.item].clear();
                ++d.accepted_packs;
                if (d.acks_needed == 0) finish(m.dst);
            } else {
                const bool force = d.tries >= 2;
                ++d.tries;
                send_offer(m.dst, m.item, force);
            }
        }
    }
    net.collective(); // Final_Barrier before the runtime migrates
    net.report(out);
    return out;
}

} // namespace protocol

std::unique_ptr<Strategy> make_packdrop_sbac(const StrategyOptions& options) {
    return std::make_unique<protocol::ProtocolStrategy>("packdrop-sbac",
                                                        protocol::run_packdrop_sbac, options);
}

} // namespace nettopo
