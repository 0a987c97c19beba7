// PackDrop as the paper writes it, PE by PE: packdrop.cpp's rules (see its
// comment), each PE applying them with what it knows. An offer carries the
// pack's number on its sender and its load at speed 1; the reply carries
// the offer's serial number; an accepted pack is confirmed.
#include "balance/agents.hpp"
#include "balance/protocol.hpp"

#include <algorithm>
#include <tuple>

namespace nettopo::agents {

namespace {

enum Kind : std::uint32_t { offer_kind = 1, accept_kind, refuse_kind, confirm_kind };

struct Pack {
    std::vector<std::uint32_t> tasks;
    double work = 0; // at speed 1
    double load = 0; // on its owner
    std::uint32_t tries = 0;
    std::vector<std::uint32_t> refused_by;
};

struct Pe {
    double load = 0;
    std::vector<Pack> packs;
    std::vector<PeLoad> known;
    protocol::SentTally sent;
    std::vector<std::uint32_t> offers; // serial -> pack
    std::vector<std::uint32_t> offered_to;
};

} // namespace

void run_packdrop(Context& c) {
    const std::uint32_t P = c.num_pes();
    const std::size_t L = c.local().size();
    const StrategyOptions& o = c.options();
    PackDropStart start = packdrop_start(c);
    std::vector<double>& loads = start.loads;
    std::vector<Pe> pes(L);
    for (std::size_t i = 0; i < L; ++i) pes[i].load = loads[i];
    const double N = start.tasks;
    const double avg = start.total / P;
    if (P < 2 || N == 0 || !(avg > 0)) return;
    const double ceil = (1 + o.packdrop_tolerance) * avg;
    const double pack_target = (avg * P / N) * (2 - P / N);

    // Packs, smallest tasks first, only as many as it takes to get under ceil.
    std::vector<std::uint8_t> starts(L, 0);
    std::vector<std::tuple<double, std::uint32_t, double>> mine; // (load, task, work)
    for (std::size_t i = 0; i < L; ++i) {
        Pe& d = pes[i];
        if (d.load <= ceil) {
            starts[i] = 1;
            continue;
        }
        const double speed = c.local()[i].speed;
        mine.clear();
        for (const auto& [task, work] : c.local()[i].tasks)
            mine.emplace_back(work / speed, task, work);
        std::sort(mine.begin(), mine.end());
        Pack open;
        for (const auto& [load, task, work] : mine) {
            if (d.load <= ceil) break;
            open.tasks.push_back(task);
            open.work += work;
            open.load += load;
            d.load -= load;
            if (open.load > pack_target) {
                d.packs.push_back(std::move(open));
                open = Pack{};
            }
        }
        if (!open.tasks.empty()) d.packs.push_back(std::move(open));
    }
    for (std::size_t i = 0; i < L; ++i) loads[i] = pes[i].load;
    std::vector<std::vector<PeLoad>> known = gossip(c, starts, loads);
    for (std::size_t i = 0; i < L; ++i) pes[i].known = std::move(known[i]);

    // A receiver drawn uniformly among the known PEs the pack fits.
    std::vector<std::uint32_t> eligible;
    auto offer = [&](std::size_t i, std::uint32_t id, std::vector<AgentMessage>& out) {
        Pe& d = pes[i];
        Pack& p = d.packs[id];
        eligible.clear();
        for (const auto& [q, l] : d.known)
            if (d.sent.view(l, q) + p.work < ceil &&
                std::find(p.refused_by.begin(), p.refused_by.end(), q) == p.refused_by.end())
                eligible.push_back(q);
        if (eligible.empty()) {
            d.load += p.load; // no one to take it: it stays
            return;
        }
        const std::uint32_t to = eligible[protocol::uniform_below(
            c.rng(i), static_cast<std::uint32_t>(eligible.size()))];
        ++p.tries;
        AgentMessage m;
        m.src = c.local()[i].pe;
        m.dst = to;
        m.kind = offer_kind;
        m.item = id;
        m.flag = static_cast<std::uint32_t>(d.offers.size());
        m.value = p.work;
        d.offers.push_back(id);
        d.offered_to.push_back(to);
        out.push_back(std::move(m));
    };
    auto reply = [&](const AgentMessage& m, Kind kind, std::vector<AgentMessage>& out) {
        AgentMessage r;
        r.src = m.dst;
        r.dst = m.src;
        r.kind = kind;
        r.item = m.item;
        r.flag = m.flag;
        out.push_back(std::move(r));
    };
    auto round = [&](const std::vector<AgentMessage>& in, std::vector<AgentMessage>& out) {
        for (const AgentMessage& m : in) {
            const std::size_t i = c.index(m.dst);
            Pe& d = pes[i];
            if (m.kind == offer_kind) {
                // Committed plus reserved, after this pack.
                const double after = d.load + m.value / c.local()[i].speed;
                const bool accept = after < ceil;
                if (accept) d.load = after;
                reply(m, accept ? accept_kind : refuse_kind, out);
            } else if (m.kind == accept_kind) {
                Pack& p = d.packs[d.offers[m.flag]];
                for (std::uint32_t task : p.tasks) c.move(task, m.src);
                d.sent.add(m.src, p.work);
                reply(m, confirm_kind, out);
            } else if (m.kind == refuse_kind) {
                const std::uint32_t id = d.offers[m.flag];
                Pack& p = d.packs[id];
                p.refused_by.push_back(d.offered_to[m.flag]);
                if (p.tries < o.packdrop_max_tries)
                    offer(i, id, out);
                else
                    d.load += p.load;
            }
            // confirm_kind: the reservation is now a commitment.
        }
    };
    std::vector<AgentMessage> out;
    for (std::size_t i = 0; i < L; ++i)
        for (std::uint32_t id = 0; id < pes[i].packs.size(); ++id) offer(i, id, out);
    c.run_rounds(std::move(out), round);
    c.sum(loads); // the final barrier before the runtime migrates
}

} // namespace nettopo::agents
