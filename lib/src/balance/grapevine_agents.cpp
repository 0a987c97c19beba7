// Grapevine: Charm++'s DistributedLB (Menon & Kale, "A distributed dynamic
// load balancer for iterative applications", SC13; src/ck-ldb/DistributedLB.C),
// PE by PE: each PE applies the rules with what it knows. This program is
// the protocol: the simulator runs it in process (grapevine.cpp), --mpi one
// PE per rank.
//
// One reduction gives the average and the maximum load; if max/avg is
// within the tolerance nothing happens. PEs under tolerance x avg gossip
// their (PE, load) pair (agents.hpp: fanout 2, at most 2 log2 P + 1 sends
// each, whole lists). Then phases: with threshold T, starting at
// (max + avg) / 2, every PE above T takes its smallest tasks first and, for
// each, draws a known underloaded PE with probability proportional to
// (T0 - load) / T0 (the distribution is built once, with the first phase's
// T0, as DistributedLB's Setup does) until its own view of that PE's load
// plus the task is under T (at most P draws per PE over the whole step),
// keeps at least one task, and sends an offer. The receiver accepts if its
// load plus the task is <= T (a reservation), else refuses. On a refusal the
// sender retries the task once more through the same draw while its refusals
// stay under 1 % of the PEs it knows, else keeps it. A reduction of the
// maximum ends each phase; T becomes (max + avg) / 2 again if max/avg moved
// by 0.01 or more, else relaxes to (T + avg) / 2; at most grapevine_phases
// phases, and none once T <= tolerance x avg.
//
// Two forms: today's, above (Charm++ master, src/ck-ldb/DistributedLB.C
// since 6.9.0 and 7.0.0: T = max(tolerance x avg, (max + avg) / 2), a PE
// underloaded at the start never donates), named `grapevine`; and
// 6.7.0-6.8.2's (v6.8.1, commit e212121), which the PackDrop paper ran,
// named `grapevine-6.8`:
//  - one reduction, of the sum only: no max/avg test, one pass, no phases;
//  - PEs strictly under the average gossip;
//  - one threshold, thr = ceil(1.05 avg) computed on Charm++'s loads, the
//    wall time since the previous step in seconds, so rounded up to a whole
//    second (the loads here are per iteration: thr = ceil(1.05 avg W) / W,
//    W = BalanceInput::measured_iterations);
//  - a PE donates if its load >= thr, smallest tasks first, only tasks
//    above 0.1 ms (as measured over the W iterations), and stops before a
//    task would take it under thr (that task stays);
//  - a receiver is drawn until its known load plus the task is under the
//    average (not thr); it accepts while its load plus the task is <= thr;
//  - the task's load travels as measured on the sender and is added as is
//    (Charm++'s DistributedLB ignores speeds);
//  - after a refusal, while the refusals so far are at most 10 % of the PEs
//    it knows, the sender puts the load back and tries the task again; past
//    that it drops the task without putting its load back (as 6.8 does: the
//    sender then believes itself lighter than it is);
//  - a barrier reduction ends the step.
//
// Departures: a donor that once was underloaded knows itself and never
// draws itself as receiver; tasks of load 0 are not offered
// (DistributedLB's cut-off is an absolute 0.1 ms); a sender's view of a
// receiver adds the task's load at speed 1 (it does not know the
// receiver's speed); a lost or late reply counts as a refusal after the
// reply timeout, and a late reply is then ignored, so phases end under any
// loss. An offer carries the task and its load; the receiver's reply
// carries the offer's serial number, local to the sender.
#include "balance/agents.hpp"
#include "balance/protocol.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <tuple>

namespace nettopo::agents {

namespace {

enum Kind : std::uint32_t { offer_kind = 1, accept_kind, refuse_kind };

// (load here, task, load at speed 1), lightest first.
using Task = std::tuple<double, std::uint32_t, double>;
using Heap = std::vector<Task>;
using MinFirst = std::greater<Task>;

struct Offer {
    Task task;
    std::uint32_t to, deadline;
    bool open;
};

// Message sizes: a task id and a load (offer), a task id (reply).
constexpr double offer_bytes = protocol::envelope_bytes + 16,
                 reply_bytes = protocol::envelope_bytes + 8;

// One PE: its load, and what it knows and holds while it donates.
struct Pe {
    double load = 0;
    bool start = false, set_up = false;
    // The weights (T0 - load) / T0 of the known PEs under T0, summed by
    // 64-PE word and then along the words: a draw finds its word by a
    // binary search and its PE within that word, and a donor holds W + 1
    // numbers rather than a list of thousands of receivers.
    std::vector<double> word_prefix;
    protocol::SentTally sent;
    Heap heap;
    std::uint32_t objs_count = 0, known_count = 0, negacks = 0;
    std::int64_t trials_left = 0;
    std::vector<Offer> offers;
    std::size_t next_deadline = 0; // offers before it are closed
    std::uint32_t pending = 0;     // open offers
};

} // namespace

void run_grapevine(Context& c, bool classic, std::uint32_t measured_iterations) {
    const std::uint32_t P = c.num_pes();
    const std::size_t L = c.local().size();
    const StrategyOptions& o = c.options();
    const double window = std::max<std::uint32_t>(measured_iterations, 1);
    std::vector<Pe> pes(L);
    std::vector<double> loads(L);
    for (std::size_t i = 0; i < L; ++i) {
        pes[i].load = pe_load(c.local()[i]);
        loads[i] = pes[i].load;
    }
    // One reduction: the sum (and the max, today).
    double total = 0, max_load = 0;
    if (classic)
        total = c.sum(loads);
    else
        std::tie(total, max_load) = c.sum_max(loads);
    const double avg = total / P;
    const double tol = o.grapevine_tolerance;
    if (P < 2 || !(avg > 0) || (!classic && max_load / avg <= tol)) return;

    std::vector<std::uint8_t> starts(L);
    for (std::size_t i = 0; i < L; ++i) {
        pes[i].start = pes[i].load < (classic ? avg : tol * avg);
        starts[i] = pes[i].start;
    }
    const KnownLists known = gossip(c, starts, loads);

    double T = classic ? std::ceil(tol * avg * window) / window
                       : std::max(tol * avg, (max_load + avg) / 2);
    const double T0 = T;
    std::uint64_t waiting = 0; // open offers of the local PEs
    Waiters waiters(L);
    const std::uint32_t W = known.words();
    // A receiver's chance, as DistributedLB weighs it.
    const auto weight = [&](double load) { return (T0 - load) / T0; };

    auto setup = [&](std::size_t i) {
        Pe& d = pes[i];
        if (d.set_up) return;
        d.set_up = true;
        // PEs that gossiped (under 1.05 avg) may still be above T0 when
        // max/avg < 1.1: weight 0, never drawn, not counted as known.
        d.word_prefix.assign(std::size_t(W) + 1, 0);
        for (std::uint32_t w = 0; w < W; ++w) {
            double sum = 0;
            for (std::uint64_t b = known.bits(i)[w]; b != 0; b &= b - 1) {
                const double l =
                    known.load(w * 64 + static_cast<std::uint32_t>(std::countr_zero(b)));
                if (l < T0) {
                    sum += weight(l);
                    ++d.known_count;
                }
            }
            d.word_prefix[w + 1] = d.word_prefix[w] + sum;
        }
        const double speed = c.local()[i].speed;
        for (const auto& [task, work] : c.local()[i].tasks) {
            const double measured = work / speed;
            if (classic ? measured * window > 1e-4 : measured > 0)
                d.heap.emplace_back(measured, task, work);
        }
        std::make_heap(d.heap.begin(), d.heap.end(), MinFirst{});
        d.objs_count = static_cast<std::uint32_t>(d.heap.size());
        d.trials_left = P;
    };
    // PickRandReceiverPeIdx: the first known PE whose cumulative weight
    // reaches a uniform draw.
    auto pick = [&](std::size_t i) -> std::uint32_t {
        const Pe& d = pes[i];
        const double target = protocol::uniform01(c.rng(i)) * d.word_prefix[W];
        const auto it = std::lower_bound(d.word_prefix.begin() + 1, d.word_prefix.end(), target);
        const auto w =
            static_cast<std::uint32_t>(std::min<std::ptrdiff_t>(it - d.word_prefix.begin(), W) - 1);
        double cum = d.word_prefix[w];
        std::uint32_t last = P;
        for (std::uint64_t b = known.bits(i)[w]; b != 0; b &= b - 1) {
            const std::uint32_t q = w * 64 + static_cast<std::uint32_t>(std::countr_zero(b));
            if (!(known.load(q) < T0)) continue;
            cum += weight(known.load(q));
            last = q;
            if (cum >= target) return q;
        }
        return last; // rounding at the top end: the word's last known PE
    };
    // A receiver is drawn from the known list, so it is in it.
    auto announced = [&](std::size_t i, std::uint32_t q) {
        if (!known.knows(i, q))
            throw std::logic_error("grapevine: a receiver the donor never heard of");
        return known.load(q);
    };
    auto map_objs = [&](std::size_t i, Heap& heap, std::vector<AgentMessage>& out) {
        Pe& d = pes[i];
        const std::uint32_t pe = c.local()[i].pe;
        while (d.load > T) {
            if (d.objs_count < 2 || heap.empty()) break;
            std::pop_heap(heap.begin(), heap.end(), MinFirst{});
            const Task popped = heap.back();
            const auto [load, task, work_at_1] = popped;
            heap.pop_back();
            if (classic && d.load - load < T) break;
            bool success = false;
            std::uint32_t to = P;
            do {
                to = pick(i);
                if (to == P) break;
                if (to != pe && d.sent.view(announced(i, to), to) + load < (classic ? avg : T))
                    success = true;
                --d.trials_left;
            } while (!success && d.trials_left > 0);
            if (!success) {
                heap.push_back(popped);
                std::push_heap(heap.begin(), heap.end(), MinFirst{});
                break;
            }
            --d.objs_count;
            // What travels: 6.8 the load as measured here, today the work.
            const double work = classic ? load : work_at_1;
            d.sent.add(to, work);
            d.load -= load;
            AgentMessage m;
            m.src = pe;
            m.dst = to;
            m.kind = offer_kind;
            m.item = task;
            m.flag = static_cast<std::uint32_t>(d.offers.size());
            m.value = work;
            m.bytes = offer_bytes;
            d.offers.push_back({popped, to, c.reply_deadline(), true});
            ++d.pending;
            ++waiting;
            waiters.add(i);
            out.push_back(std::move(m));
        }
    };
    auto close = [&](Pe& d, Offer& offer) {
        offer.open = false;
        --d.pending;
        --waiting;
    };
    auto refused = [&](std::size_t i, Offer& offer, std::vector<AgentMessage>& out) {
        Pe& d = pes[i];
        close(d, offer);
        ++d.objs_count;
        const bool drop = d.negacks > (classic ? 0.1 : 0.01) * d.known_count;
        ++d.negacks;
        if (!classic || !drop) d.load += std::get<0>(offer.task);
        if (!drop) {
            Heap one{offer.task};
            map_objs(i, one, out);
        }
    };
    auto round = [&](const std::vector<AgentMessage>& in, std::vector<AgentMessage>& out) {
        for (const AgentMessage& m : in) {
            const std::size_t i = c.index(m.dst);
            Pe& d = pes[i];
            if (m.kind == offer_kind) {
                const double after = d.load + (classic ? m.value : m.value / c.local()[i].speed);
                const bool accept = after <= T;
                if (accept) {
                    d.load = after;
                    c.accepted(m.dst, after, T);
                }
                AgentMessage r;
                r.src = m.dst;
                r.dst = m.src;
                r.kind = accept ? accept_kind : refuse_kind;
                r.item = m.item;
                r.flag = m.flag;
                r.bytes = reply_bytes;
                out.push_back(std::move(r));
            } else if (Offer& offer = d.offers[m.flag]; !offer.open) {
                continue; // a late reply to an offer given up on
            } else if (m.kind == accept_kind) {
                close(d, offer);
                c.move(m.item, m.dst, m.src);
            } else {
                refused(i, offer, out);
            }
        }
        // Offers whose reply is overdue count as refused (a lost message).
        waiters.expire_overdue(pes, c.round(),
                               [&](std::size_t i, Offer& offer) { refused(i, offer, out); });
    };

    std::uint32_t phase = 0;
    double ratio = max_load / avg;
    for (;;) {
        std::vector<AgentMessage> out;
        for (std::size_t i = 0; i < L; ++i) {
            Pe& d = pes[i];
            if (classic ? d.load < T : (d.load <= T || d.start)) continue;
            setup(i);
            if (d.known_count == 0) continue;
            map_objs(i, d.heap, out);
        }
        c.run_rounds(std::move(out), round, [&] { return waiting; });
        ++phase;
        for (std::size_t i = 0; i < L; ++i) loads[i] = pes[i].load;
        if (classic) {
            c.sum(loads); // the barrier before migrating
            break;
        }
        max_load = c.max(loads); // DoneWithLBPhase
        const double old_ratio = ratio;
        ratio = max_load / avg;
        if (!(ratio > tol && T > tol * avg && phase < o.grapevine_phases)) break;
        T = std::max(tol * avg,
                     std::abs(ratio - old_ratio) < 0.01 ? (T + avg) / 2 : (max_load + avg) / 2);
    }
}

} // namespace nettopo::agents
