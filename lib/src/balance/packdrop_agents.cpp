// PackDrop: a distributed balancer that moves packs of tasks (Freitas,
// Pilla et al., "PackDrop: Distributed Load Balancing with Task Packs",
// SBAC-PAD 2018; the authors' PackDropLB.C, built on DistributedLB), PE by
// PE: each PE applies the rules with what it knows. This program is the
// protocol: the simulator runs it in process (packdrop.cpp), --mpi one PE
// per rank.
//
// Two reductions give the average load and the number of tasks. A PE above
// (1 + v) avg is overloaded: it takes its smallest tasks first into packs,
// closing a pack once its load exceeds s = (avg P / tasks) (2 - P / tasks),
// and stops as soon as what stays is under (1 + v) avg. The others gossip
// their (PE, load) pair as Grapevine does (agents.hpp). After the
// synchronisation every overloaded PE offers each pack to a random PE it
// heard of whose load, as it knows it (plus what it has sent there), leaves
// room for the pack; the receiver adds the pack to its committed and
// reserved load and accepts iff the sum stays < (1 + v) avg (a
// reservation), else refuses; on acceptance the sender commits the pack and
// confirms; on refusal, or no reply within the timeout, it offers the pack
// elsewhere, up to packdrop_max_tries offers, then keeps it. A late reply to
// an offer given up on is ignored. An offer carries the pack's number on
// its sender and its load at speed 1; the reply carries the offer's serial
// number.
//
// Departures from the authors' code, and why:
//  - It forces acceptance from the second try on; we never do, so no
//    receiver ever ends above (1 + v) avg, which is the paper's own claim
//    ("no receiver becomes the new bottleneck").
//  - Its receivers judge a pack by the average pack load times its size and
//    its ps uses integer division (2 whenever tasks > P); ours use the
//    pack's real load and ps = 2 - P / tasks as the paper writes it.
//  - It keeps adding to one running pack load (never reset) when closing
//    packs at s (1 - v); we close at s, as the paper says, per pack.
//  - With no known receiver it draws any PE; we keep the pack: only PEs that
//    announced themselves underloaded receive.
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

struct Offer {
    std::uint32_t pack, to, deadline;
    bool open;
};

// Message sizes: a pack number and a load (offer), a serial (replies).
constexpr double offer_bytes = protocol::envelope_bytes + 16,
                 reply_bytes = protocol::envelope_bytes + 8;

struct Pe {
    double load = 0;
    std::vector<Pack> packs;
    std::vector<std::uint32_t> count_prefix; // known PEs before each 64-PE word
    protocol::SentTally sent;
    std::vector<Offer> offers; // by serial
    std::size_t next_deadline = 0;
    std::uint32_t pending = 0;
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
    const KnownLists known = gossip(c, starts, loads);
    const std::uint32_t W = known.words();
    std::uint64_t waiting = 0; // open offers of the local PEs
    Waiters waiters(L);

    auto fits = [&](const Pe& d, const Pack& p, std::uint32_t q) {
        return d.sent.view(known.load(q), q) + p.work < ceil &&
               std::find(p.refused_by.begin(), p.refused_by.end(), q) == p.refused_by.end();
    };
    // The n-th PE (from 0) local PE i knows of.
    auto select = [&](std::size_t i, std::uint32_t n) {
        const Pe& d = pes[i];
        const auto it = std::upper_bound(d.count_prefix.begin(), d.count_prefix.end(), n);
        const auto w = static_cast<std::uint32_t>(it - d.count_prefix.begin() - 1);
        std::uint64_t bits = known.bits(i)[w];
        for (std::uint32_t left = n - d.count_prefix[w]; left > 0; --left) bits &= bits - 1;
        return w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
    };
    // A receiver drawn uniformly among the known PEs the pack fits: a few
    // blind draws among all known PEs (most fit, and a draw costs no scan
    // of the list), then a draw from the exact list of those that fit.
    std::vector<std::uint32_t> eligible;
    auto choose = [&](std::size_t i, const Pack& p) -> std::uint32_t {
        const Pe& d = pes[i];
        const std::uint32_t n = d.count_prefix.back();
        if (n == 0) return P;
        for (int attempt = 0; attempt < 16; ++attempt) {
            const std::uint32_t q = select(i, protocol::uniform_below(c.rng(i), n));
            if (fits(d, p, q)) return q;
        }
        eligible.clear();
        known.for_each(i, [&](std::uint32_t q, double) {
            if (fits(d, p, q)) eligible.push_back(q);
        });
        if (eligible.empty()) return P;
        return eligible[protocol::uniform_below(c.rng(i),
                                                static_cast<std::uint32_t>(eligible.size()))];
    };
    auto send_offer = [&](std::size_t i, std::uint32_t id, std::vector<AgentMessage>& out) {
        Pe& d = pes[i];
        Pack& p = d.packs[id];
        const std::uint32_t to = choose(i, p);
        if (to == P) {
            d.load += p.load; // no one to take it: it stays
            return;
        }
        ++p.tries;
        AgentMessage m;
        m.src = c.local()[i].pe;
        m.dst = to;
        m.kind = offer_kind;
        m.item = id;
        m.flag = static_cast<std::uint32_t>(d.offers.size());
        m.value = p.work;
        m.bytes = offer_bytes;
        d.offers.push_back({id, to, c.reply_deadline(), true});
        ++d.pending;
        ++waiting;
        waiters.add(i);
        out.push_back(std::move(m));
    };
    auto reply = [&](const AgentMessage& m, Kind kind, std::vector<AgentMessage>& out) {
        AgentMessage r;
        r.src = m.dst;
        r.dst = m.src;
        r.kind = kind;
        r.item = m.item;
        r.flag = m.flag;
        r.bytes = reply_bytes;
        out.push_back(std::move(r));
    };
    auto close = [&](Pe& d, Offer& offer) {
        offer.open = false;
        --d.pending;
        --waiting;
    };
    auto refused = [&](std::size_t i, Offer& offer, std::vector<AgentMessage>& out) {
        Pe& d = pes[i];
        close(d, offer);
        const std::uint32_t id = offer.pack;
        Pack& p = d.packs[id];
        p.refused_by.push_back(offer.to);
        if (p.tries < o.packdrop_max_tries)
            send_offer(i, id, out);
        else
            d.load += p.load;
    };
    auto round = [&](const std::vector<AgentMessage>& in, std::vector<AgentMessage>& out) {
        for (const AgentMessage& m : in) {
            const std::size_t i = c.index(m.dst);
            Pe& d = pes[i];
            if (m.kind == offer_kind) {
                // Committed plus reserved, after this pack.
                const double after = d.load + m.value / c.local()[i].speed;
                const bool accept = after < ceil;
                if (accept) {
                    d.load = after;
                    c.accepted(m.dst, after, ceil);
                }
                reply(m, accept ? accept_kind : refuse_kind, out);
            } else if (m.kind == confirm_kind) {
                // The reservation is now a commitment; the load estimate stays.
            } else if (Offer& offer = d.offers[m.flag]; !offer.open) {
                continue; // a late reply to an offer given up on
            } else if (m.kind == accept_kind) {
                close(d, offer);
                const Pack& p = d.packs[offer.pack];
                for (std::uint32_t task : p.tasks) c.move(task, m.dst, m.src);
                d.sent.add(m.src, p.work);
                reply(m, confirm_kind, out);
            } else {
                refused(i, offer, out);
            }
        }
        // Offers whose reply is overdue count as refused (a lost message).
        waiters.expire_overdue(pes, c.round(),
                               [&](std::size_t i, Offer& offer) { refused(i, offer, out); });
    };

    std::vector<AgentMessage> out;
    for (std::size_t i = 0; i < L; ++i) {
        Pe& d = pes[i];
        if (d.packs.empty()) continue;
        d.count_prefix.assign(std::size_t(W) + 1, 0);
        for (std::uint32_t w = 0; w < W; ++w)
            d.count_prefix[w + 1] =
                d.count_prefix[w] + static_cast<std::uint32_t>(std::popcount(known.bits(i)[w]));
        for (std::uint32_t id = 0; id < d.packs.size(); ++id) send_offer(i, id, out);
    }
    c.run_rounds(std::move(out), round, [&] { return waiting; });
    c.sum(loads); // the final barrier before the runtime migrates
}

} // namespace nettopo::agents
