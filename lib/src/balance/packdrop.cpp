// PackDrop: a distributed balancer that moves packs of tasks (Freitas,
// Pilla et al., "PackDrop: Distributed Load Balancing with Task Packs",
// SBAC-PAD 2018; the authors' PackDropLB.C, built on DistributedLB), run as
// a message protocol between PE agents.
//
// Two reductions give the average load and the number of tasks. A PE above
// (1 + v) avg is overloaded: it takes its smallest tasks first into packs,
// closing a pack once its load exceeds s = (avg P / tasks) (2 - P / tasks),
// and stops as soon as what stays is under (1 + v) avg. The others gossip
// their (PE, load) pair as Grapevine does (protocol.hpp). After the
// synchronisation every overloaded PE offers each pack to a random PE it
// heard of whose load, as it knows it (plus what it has sent there), leaves
// room for the pack; the receiver adds the pack to its committed and
// reserved load and accepts iff the sum stays < (1 + v) avg (a
// reservation), else refuses; on acceptance the sender commits the pack and
// confirms; on refusal, or no reply within the timeout, it offers the pack
// elsewhere, up to packdrop_max_tries offers, then keeps it.
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
#include "balance/protocol.hpp"
#include "balance/strategies.hpp"

#include <algorithm>

namespace nettopo {

namespace protocol {

namespace {

enum Kind : std::uint32_t { offer_kind = 1, accept_kind, refuse_kind, confirm_kind };

struct Pack {
    std::uint32_t owner, first, last; // tasks [first, last) of the pack list
    double work = 0;                  // at speed 1
    double load = 0;                  // on its owner
    std::uint32_t tries = 0;
    std::vector<std::uint32_t> refused_by;
};

struct OpenOffer {
    std::uint32_t pack, to, deadline;
    bool open;
};

// What an overloaded PE knows: the underloaded PEs it heard of (bitset
// words with a running count, to draw the i-th) and what it sent to whom.
struct Sender {
    std::vector<std::uint32_t> count_prefix;
    SentTally sent;
};

} // namespace

BalanceOutcome run_packdrop(const BalanceInput& in, const StrategyOptions& options, Trace* trace) {
    check_balance_input(in);
    const std::uint32_t P = in.comm_model.cluster().num_pes();
    const auto N = static_cast<std::uint32_t>(in.task_loads.size());
    Network net = make_network(in, options, 0x7061636bULL);
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
    const double ceil = (1 + options.packdrop_tolerance) * avg;
    const double pack_target = (avg * P / N) * (2 - static_cast<double>(P) / N);

    // Packs, smallest tasks first, only as many as it takes to get under ceil.
    const PeTasks held = tasks_by_pe(P, in.mapping);
    std::vector<Pack> packs;
    std::vector<std::uint32_t> pack_tasks;
    std::vector<std::uint8_t> starts(P, 0);
    std::vector<std::uint32_t> first_pack(std::size_t(P) + 1, 0);
    std::vector<std::pair<double, std::uint32_t>> mine;
    for (std::uint32_t pe = 0; pe < P; ++pe) {
        first_pack[pe] = static_cast<std::uint32_t>(packs.size());
        if (my_load[pe] <= ceil) {
            starts[pe] = 1;
            continue;
        }
        mine.clear();
        for (std::uint32_t t : held.of(pe)) mine.emplace_back(in.task_loads[t] / speed(pe), t);
        std::sort(mine.begin(), mine.end());
        Pack open{pe, static_cast<std::uint32_t>(pack_tasks.size()), 0, 0, 0, 0, {}};
        for (const auto& [load, task] : mine) {
            if (my_load[pe] <= ceil) break;
            pack_tasks.push_back(task);
            open.work += in.task_loads[task];
            open.load += load;
            my_load[pe] -= load;
            if (open.load > pack_target) {
                open.last = static_cast<std::uint32_t>(pack_tasks.size());
                packs.push_back(open);
                open = Pack{pe, open.last, 0, 0, 0, 0, {}};
            }
        }
        if (open.first < pack_tasks.size()) {
            open.last = static_cast<std::uint32_t>(pack_tasks.size());
            packs.push_back(open);
        }
    }
    first_pack[P] = static_cast<std::uint32_t>(packs.size());
    const std::vector<double> announced = my_load;

    const KnownSets known = gossip(net, starts, options.gossip_fanout);
    const std::uint32_t W = known.words();

    std::vector<Sender> senders(P);
    std::vector<OpenOffer> offers;
    std::vector<std::uint32_t> deadlines;
    std::size_t next_deadline = 0;
    std::uint64_t pending = 0;
    std::vector<std::uint32_t> eligible;

    auto fits = [&](const Sender& s, const Pack& p, std::uint32_t q) {
        return s.sent.view(announced[q], q) + p.work < ceil &&
               std::find(p.refused_by.begin(), p.refused_by.end(), q) == p.refused_by.end();
    };
    // The i-th PE (from 0) the sender knows of.
    auto select = [&](std::uint32_t pe, const Sender& s, std::uint32_t i) {
        const auto it = std::upper_bound(s.count_prefix.begin(), s.count_prefix.end(), i);
        const auto w = static_cast<std::uint32_t>(it - s.count_prefix.begin() - 1);
        std::uint32_t left = i - s.count_prefix[w];
        for (std::uint32_t b = 0;; ++b)
            if (known.knows(pe, w * 64 + b) && left-- == 0) return w * 64 + b;
    };
    // A receiver drawn uniformly among the known PEs the pack fits: a few
    // blind draws, then the exact list.
    auto choose = [&](std::uint32_t pe, const Pack& p) -> std::uint32_t {
        const Sender& s = senders[pe];
        const std::uint32_t n = s.count_prefix.back();
        if (n == 0) return P;
        for (int attempt = 0; attempt < 16; ++attempt) {
            const std::uint32_t q = select(pe, s, uniform_below(net.rng(), n));
            if (fits(s, p, q)) return q;
        }
        known.list(pe, eligible);
        std::erase_if(eligible, [&](std::uint32_t q) { return !fits(s, p, q); });
        if (eligible.empty()) return P;
        return eligible[uniform_below(net.rng(), static_cast<std::uint32_t>(eligible.size()))];
    };
    auto offer = [&](std::uint32_t id) {
        Pack& p = packs[id];
        const std::uint32_t to = choose(p.owner, p);
        if (to == P) {
            my_load[p.owner] += p.load; // no one to take it: it stays
            return;
        }
        ++p.tries;
        const auto serial = static_cast<std::uint32_t>(offers.size());
        offers.push_back({id, to, net.reply_deadline(net.round()), true});
        deadlines.push_back(serial);
        ++pending;
        net.send({p.owner, to, offer_kind, id, serial, p.work, envelope_bytes + 16});
    };
    auto refused = [&](std::uint32_t serial) {
        offers[serial].open = false;
        --pending;
        Pack& p = packs[offers[serial].pack];
        p.refused_by.push_back(offers[serial].to);
        if (p.tries < options.packdrop_max_tries)
            offer(offers[serial].pack);
        else
            my_load[p.owner] += p.load;
    };
    auto handle = [&](const Message& m) {
        if (m.kind == offer_kind) {
            // Committed plus reserved, after this pack.
            const double after = my_load[m.dst] + m.value / speed(m.dst);
            const bool accept = after < ceil;
            if (accept) {
                my_load[m.dst] = after;
                if (trace) trace->acceptances.push_back({m.dst, after, ceil});
            }
            net.send({m.dst, m.src, accept ? accept_kind : refuse_kind, m.item, m.serial, 0,
                      envelope_bytes + 8});
        } else if (m.kind == confirm_kind) {
            // The reservation is now a commitment; the load estimate stays.
        } else if (offers[m.serial].open) {
            if (m.kind == refuse_kind) {
                refused(static_cast<std::uint32_t>(m.serial));
                return;
            }
            OpenOffer& o = offers[m.serial];
            o.open = false;
            --pending;
            const Pack& p = packs[o.pack];
            for (std::uint32_t i = p.first; i < p.last; ++i) {
                out.mapping[pack_tasks[i]] = PeId(o.to);
                if (trace) trace->commits.push_back({pack_tasks[i], p.owner, o.to});
            }
            Sender& s = senders[p.owner];
            s.sent.add(o.to, p.work);
            net.send({p.owner, o.to, confirm_kind, o.pack, m.serial, 0, envelope_bytes + 8});
        }
    };

    for (std::uint32_t pe = 0; pe < P; ++pe) {
        if (first_pack[pe] == first_pack[pe + 1]) continue;
        Sender& s = senders[pe];
        s.count_prefix.assign(std::size_t(W) + 1, 0);
        std::vector<std::uint32_t> ids;
        known.list(pe, ids);
        for (std::uint32_t q : ids) ++s.count_prefix[q / 64 + 1];
        for (std::uint32_t w = 0; w < W; ++w) s.count_prefix[w + 1] += s.count_prefix[w];
        for (std::uint32_t id = first_pack[pe]; id < first_pack[pe + 1]; ++id) offer(id);
    }
    while (pending > 0) {
        for (const Message& m : net.next_round()) handle(m);
        while (next_deadline < deadlines.size() &&
               offers[deadlines[next_deadline]].deadline <= net.round()) {
            const std::uint32_t s = deadlines[next_deadline++];
            if (offers[s].open) refused(s);
        }
    }
    // Confirmations and late offers still in flight: delivered, answered, no
    // longer able to move anything (every offer is closed).
    while (!net.idle())
        for (const Message& m : net.next_round()) handle(m);
    net.collective(); // the final barrier before the runtime migrates
    net.report(out);
    return out;
}

} // namespace protocol

std::unique_ptr<Strategy> make_packdrop(const StrategyOptions& options) {
    return std::make_unique<protocol::ProtocolStrategy>("packdrop", protocol::run_packdrop,
                                                        options);
}

} // namespace nettopo
