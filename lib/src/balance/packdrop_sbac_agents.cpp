// PackDrop as its authors coded and ran it (github viniciusmctf/packdrop-
// code, branch SBAC-Release, PackDropLB.C), PE by PE: the `packdrop-sbac`
// strategy. This program is the protocol: the simulator runs it in process
// (packdrop_sbac.cpp), --mpi one PE per rank. `packdrop`
// (packdrop_agents.cpp) follows the paper's text; this code differs:
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
// here). The gossip is DistributedLB's (agents.hpp). Like the authors' code
// it has no timeout: a PE whose offer or reply is lost never finishes, and
// moves nothing. An offer carries the pack's number, the nominal pack load
// and whether it forces acceptance; the reply carries the pack's number.
#include "balance/agents.hpp"
#include "balance/protocol.hpp"

#include <algorithm>

namespace nettopo::agents {

namespace {

enum Kind : std::uint32_t { offer_kind = 1, accept_kind, refuse_kind };

struct Pe {
    double load = 0;
    std::vector<std::vector<std::uint32_t>> packs; // tasks, largest first
    std::vector<std::uint32_t> receivers;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> moves; // (task, to), acceptance order
    std::uint32_t tries = 0, acks_needed = 0, accepted_packs = 0;
};

} // namespace

void run_packdrop_sbac(Context& c) {
    const std::uint32_t P = c.num_pes();
    const std::size_t L = c.local().size();
    PackDropStart start = packdrop_start(c);
    std::vector<double>& loads = start.loads;
    std::vector<Pe> pes(L);
    for (std::size_t i = 0; i < L; ++i) pes[i].load = loads[i];
    const auto N = static_cast<std::uint32_t>(start.tasks + 0.5);
    const double avg = start.total / P;
    if (P < 2 || N == 0 || !(avg > 0)) return;
    const double v = c.options().packdrop_tolerance;
    const double ceil = avg * (1 + v);
    const double pack_load = (P * avg / N) * static_cast<double>(2 - static_cast<int>(P / N));
    const double pack_floor = pack_load * (1 - v);

    std::vector<std::uint8_t> starts(L, 0);
    std::vector<std::pair<double, std::uint32_t>> heap;
    for (std::size_t i = 0; i < L; ++i) {
        Pe& d = pes[i];
        if (!(d.load > ceil)) {
            starts[i] = 1;
            continue;
        }
        heap.clear();
        for (const auto& [task, work] : c.local()[i].tasks)
            heap.emplace_back(work / c.local()[i].speed, task);
        std::make_heap(heap.begin(), heap.end()); // largest first
        d.packs.emplace_back();
        double pack_load_now = 0; // never reset, as in Chare_Setup
        while (d.load > ceil && !heap.empty()) {
            std::pop_heap(heap.begin(), heap.end());
            const auto [load, task] = heap.back();
            heap.pop_back();
            d.packs.back().push_back(task);
            pack_load_now += load;
            d.load -= load;
            if (pack_load_now > pack_floor) d.packs.emplace_back();
        }
    }
    for (std::size_t i = 0; i < L; ++i) loads[i] = pes[i].load;
    const KnownLists known = gossip(c, starts, loads);

    auto send_offer = [&](std::size_t i, std::uint32_t id, bool force,
                          std::vector<AgentMessage>& out) {
        Pe& d = pes[i];
        const std::uint32_t pe = c.local()[i].pe;
        ++d.acks_needed;
        std::uint32_t to;
        // Below 4 PEs the code's test is never true and an empty list would
        // be drawn from (rand() % 0): any random PE then, as with few.
        if (d.receivers.size() < P / 4 || d.receivers.empty()) {
            do to = protocol::uniform_below(c.rng(i), P);
            while (to == pe);
        } else {
            to = d.receivers[protocol::uniform_below(
                c.rng(i), static_cast<std::uint32_t>(d.receivers.size()))];
        }
        AgentMessage m;
        m.src = pe;
        m.dst = to;
        m.kind = offer_kind;
        m.item = id;
        m.flag = force ? 1 : 0;
        m.value = pack_load;
        m.bytes = protocol::envelope_bytes + 13; // pack, load, force flag
        out.push_back(std::move(m));
    };
    // The migration message holds accepted_packs moves: the rest are dropped.
    auto finish = [&](std::size_t i) {
        const Pe& d = pes[i];
        const std::size_t kept = std::min<std::size_t>(d.accepted_packs, d.moves.size());
        for (std::size_t k = 0; k < kept; ++k)
            c.move(d.moves[k].first, c.local()[i].pe, d.moves[k].second);
    };

    std::vector<AgentMessage> out;
    for (std::size_t i = 0; i < L; ++i) {
        Pe& d = pes[i];
        if (d.packs.empty()) continue;
        known.for_each(i, [&](std::uint32_t q, double l) {
            if (q != c.local()[i].pe && l + pack_load * (1 + v) < ceil) d.receivers.push_back(q);
        });
        ++d.tries; // PackSend
        for (std::uint32_t id = 0; id < d.packs.size(); ++id)
            if (!d.packs[id].empty()) send_offer(i, id, false, out);
        if (d.acks_needed == 0) finish(i);
    }
    c.run_rounds(std::move(out),
                 [&](const std::vector<AgentMessage>& in, std::vector<AgentMessage>& next) {
                     for (const AgentMessage& m : in) {
                         const std::size_t i = c.index(m.dst);
                         Pe& d = pes[i];
                         if (m.kind == offer_kind) {
                             const bool accept = d.load + m.value < ceil || m.flag == 1;
                             if (accept) {
                                 d.load += m.value;
                                 c.accepted(m.dst, d.load, ceil);
                             }
                             AgentMessage r;
                             r.src = m.dst;
                             r.dst = m.src;
                             r.kind = accept ? accept_kind : refuse_kind;
                             r.item = m.item;
                             r.bytes = protocol::envelope_bytes + 9; // pack, verdict
                             next.push_back(std::move(r));
                             continue;
                         }
                         --d.acks_needed;
                         if (m.kind == accept_kind) {
                             for (std::uint32_t task : d.packs[m.item])
                                 d.moves.emplace_back(task, m.src);
                             d.packs[m.item].clear();
                             ++d.accepted_packs;
                             if (d.acks_needed == 0) finish(i);
                         } else {
                             const bool force = d.tries >= 2;
                             ++d.tries;
                             send_offer(i, m.item, force, next);
                         }
                     }
                 });
    c.sum(loads); // Final_Barrier before the runtime migrates
}

} // namespace nettopo::agents
