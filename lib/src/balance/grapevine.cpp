// Grapevine: Charm++'s DistributedLB (Menon & Kale, "A distributed dynamic
// load balancer for iterative applications", SC13; src/ck-ldb/DistributedLB.C),
// run as a message protocol between PE agents.
//
// One reduction gives the average and the maximum load; if max/avg is
// within the tolerance nothing happens. PEs under tolerance x avg gossip
// their (PE, load) pair (protocol.hpp: fanout 2, at most 2 log2 P + 1 sends
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
// Two forms (GrapevineForm): today's, above (Charm++ master, src/ck-ldb/
// DistributedLB.C since 6.9.0 and 7.0.0: T = max(tolerance x avg,
// (max + avg) / 2), a PE underloaded at the start never donates), named
// `grapevine`; and 6.7.0-6.8.2's (v6.8.1, commit e212121), which the PackDrop
// paper ran, named `grapevine-6.8`:
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
// draws itself as receiver; lists are bitsets with the announced loads looked up (same
// content); tasks of load 0 are not offered (DistributedLB's cut-off is an
// absolute 0.1 ms); a sender's view of a receiver adds the task's load at
// speed 1 (it does not know the receiver's speed); a lost or late reply
// counts as a refusal after the reply timeout, so phases end under any loss.
#include "balance/protocol.hpp"
#include "balance/strategies.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace nettopo {

namespace protocol {

namespace {

enum Kind : std::uint32_t { offer_kind = 1, accept_kind, refuse_kind };

struct OpenOffer {
    std::uint32_t task, from, to, deadline;
    double load; // in the sender's units
    bool open;
};

// What a PE above T knows and holds while it donates.
struct Donor {
    std::vector<double> word_prefix;                    // weight of the known PEs, by 64-PE word
    SentTally sent;                                     // its own sends, per receiver
    std::vector<std::pair<double, std::uint32_t>> heap; // (load, task), min first
    std::uint32_t objs_count = 0, known_count = 0, negacks = 0, pending = 0;
    std::int64_t trials_left = 0;
};

using MinFirst = std::greater<std::pair<double, std::uint32_t>>;

} // namespace

namespace {

enum class GrapevineForm { today, charm68 };

BalanceOutcome run_form(const BalanceInput& in, const StrategyOptions& options, Trace* trace,
                        GrapevineForm form) {
    check_balance_input(in);
    const bool classic = form == GrapevineForm::charm68;
    const double window = std::max<std::uint32_t>(in.measured_iterations, 1);
    const std::uint32_t P = in.comm_model.cluster().num_pes();
    Network net = make_network(in, options, 0x6772617065ULL);
    BalanceOutcome out;
    out.mapping.assign(in.mapping.begin(), in.mapping.end());
    auto speed = [&](std::uint32_t p) { return in.pe_speeds.empty() ? 1.0 : in.pe_speeds[p]; };

    std::vector<double> my_load = pe_loads(in, in.mapping);
    net.collective(); // one reduction: the sum (and the max, today)
    double total = 0, max_load = 0;
    for (double l : my_load) {
        total += l;
        max_load = std::max(max_load, l);
    }
    const double avg = total / P;
    const double tol = options.grapevine_tolerance;
    if (P < 2 || !(avg > 0) || (!classic && max_load / avg <= tol)) {
        net.report(out);
        return out;
    }

    const std::vector<double> announced = my_load;
    std::vector<std::uint8_t> starts(P);
    for (std::uint32_t p = 0; p < P; ++p) starts[p] = my_load[p] < (classic ? avg : tol * avg);
    const KnownSets known = gossip(net, starts, options.gossip_fanout);
    const std::uint32_t W = known.words();

    double T = classic ? std::ceil(tol * avg * window) / window
                       : std::max(tol * avg, (max_load + avg) / 2);
    // The sender's test on a receiver: under the average in 6.8, under T today.
    const auto receiver_limit = [&] { return classic ? avg : T; };
    const double T0 = T;
    const PeTasks held = tasks_by_pe(P, in.mapping);
    std::vector<std::int32_t> donor_of(P, -1);
    std::vector<Donor> donors;
    std::vector<OpenOffer> offers;
    std::vector<std::uint32_t> deadlines; // open offers by send order
    std::size_t next_deadline = 0;
    std::uint64_t pending_total = 0;

    // A receiver's chance, as DistributedLB weighs it: (T0 - load) / T0.
    const auto weight = [&](std::uint32_t q) { return (T0 - announced[q]) / T0; };
    auto setup = [&](std::uint32_t pe) -> Donor& {
        if (donor_of[pe] >= 0) return donors[donor_of[pe]];
        Donor d;
        d.word_prefix.assign(std::size_t(W) + 1, 0);
        for (std::uint32_t w = 0; w < W; ++w) {
            double sum = 0;
            for (std::uint32_t b = 0; b < 64; ++b) {
                const std::uint32_t q = w * 64 + b;
                // PEs that gossiped (under 1.05 avg) may still be above T0 when
                // max/avg < 1.1: weight 0, never drawn, not counted as known.
                if (q < P && known.knows(pe, q) && announced[q] < T0) {
                    sum += weight(q);
                    ++d.known_count;
                }
            }
            d.word_prefix[w + 1] = d.word_prefix[w] + sum;
        }
        for (std::uint32_t t : held.of(pe)) {
            const double measured = in.task_loads[t] / speed(pe);
            if (classic ? measured * window > 1e-4 : measured > 0) d.heap.emplace_back(measured, t);
        }
        std::make_heap(d.heap.begin(), d.heap.end(), MinFirst{});
        d.objs_count = static_cast<std::uint32_t>(d.heap.size());
        d.trials_left = P;
        donor_of[pe] = static_cast<std::int32_t>(donors.size());
        donors.push_back(std::move(d));
        return donors.back();
    };
    // PickRandReceiverPeIdx: the first known PE whose cumulative weight reaches r.
    auto pick = [&](std::uint32_t pe, const Donor& d) -> std::uint32_t {
        const double target = uniform01(net.rng()) * d.word_prefix[W];
        const auto it = std::lower_bound(d.word_prefix.begin() + 1, d.word_prefix.end(), target);
        const std::uint32_t w =
            static_cast<std::uint32_t>(std::min<std::ptrdiff_t>(it - d.word_prefix.begin(), W) - 1);
        double cum = d.word_prefix[w];
        std::uint32_t last = P;
        for (std::uint32_t b = 0; b < 64; ++b) {
            const std::uint32_t q = w * 64 + b;
            if (q >= P || !known.knows(pe, q) || !(announced[q] < T0)) continue;
            cum += weight(q);
            last = q;
            if (cum >= target) return q;
        }
        return last; // rounding at the top end: the last known PE of the word
    };
    // MapObjsToPe over the donor's heap (or one refused task's).
    auto map_objs = [&](std::uint32_t pe, Donor& d,
                        std::vector<std::pair<double, std::uint32_t>>& heap) {
        while (my_load[pe] > T) {
            if (d.objs_count < 2 || heap.empty()) break;
            std::pop_heap(heap.begin(), heap.end(), MinFirst{});
            const auto [load, task] = heap.back();
            heap.pop_back();
            if (classic && my_load[pe] - load < T) break; // 6.8: never under thr
            bool success = false;
            std::uint32_t to = P;
            do {
                to = pick(pe, d);
                if (to == P) break;
                if (to != pe && d.sent.view(announced[to], to) + load < receiver_limit())
                    success = true; // never itself
                --d.trials_left;
            } while (!success && d.trials_left > 0);
            if (!success) {
                heap.emplace_back(load, task);
                std::push_heap(heap.begin(), heap.end(), MinFirst{});
                break;
            }
            --d.objs_count;
            // What travels: 6.8 the load as measured here, today the work.
            const double sent = classic ? load : in.task_loads[task];
            d.sent.add(to, sent);
            my_load[pe] -= load;
            const auto serial = static_cast<std::uint32_t>(offers.size());
            offers.push_back({task, pe, to, net.reply_deadline(net.round()), load, true});
            deadlines.push_back(serial);
            ++d.pending;
            ++pending_total;
            net.send({pe, to, offer_kind, task, serial, sent, envelope_bytes + 16});
        }
    };
    auto refused = [&](std::uint32_t serial) {
        OpenOffer& o = offers[serial];
        o.open = false;
        Donor& d = donors[donor_of[o.from]];
        --d.pending;
        --pending_total;
        ++d.objs_count;
        const bool drop = d.negacks > (classic ? 0.1 : 0.01) * d.known_count;
        ++d.negacks;
        if (!classic || !drop) my_load[o.from] += o.load;
        if (!drop) {
            std::vector<std::pair<double, std::uint32_t>> one{{o.load, o.task}};
            map_objs(o.from, d, one);
        }
    };

    auto handle = [&](const Message& m) {
        if (m.kind == offer_kind) {
            const double after = my_load[m.dst] + (classic ? m.value : m.value / speed(m.dst));
            const bool accept = after <= T;
            if (accept) {
                my_load[m.dst] = after;
                if (trace) trace->acceptances.push_back({m.dst, after, T});
            }
            net.send({m.dst, m.src, accept ? accept_kind : refuse_kind, m.item, m.serial, 0,
                      envelope_bytes + 8});
        } else if (offers[m.serial].open) {
            if (m.kind == refuse_kind) {
                refused(static_cast<std::uint32_t>(m.serial));
                return;
            }
            OpenOffer& o = offers[m.serial];
            o.open = false;
            --donors[donor_of[o.from]].pending;
            --pending_total;
            out.mapping[o.task] = PeId(o.to);
            if (trace) trace->commits.push_back({o.task, o.from, o.to});
        }
    };

    std::uint32_t phase = 0;
    double ratio = max_load / avg;
    for (;;) {
        for (std::uint32_t pe = 0; pe < P; ++pe) {
            // 6.8: load >= thr donates. Today: above T, and never a PE that
            // was underloaded at the start.
            if (classic ? my_load[pe] < T : (my_load[pe] <= T || starts[pe])) continue;
            Donor& d = setup(pe);
            if (d.known_count == 0) continue;
            map_objs(pe, d, d.heap);
        }
        while (pending_total > 0) {
            for (const Message& m : net.next_round()) handle(m);
            while (next_deadline < deadlines.size() &&
                   offers[deadlines[next_deadline]].deadline <= net.round()) {
                const std::uint32_t s = deadlines[next_deadline++];
                if (offers[s].open) refused(s);
            }
        }
        ++phase;
        net.collective(); // DoneWithLBPhase (6.8: the barrier before migrating)
        if (classic) break;
        max_load = *std::max_element(my_load.begin(), my_load.end());
        const double old_ratio = ratio;
        ratio = max_load / avg;
        if (!(ratio > tol && T > tol * avg && phase < options.grapevine_phases)) break;
        T = std::max(tol * avg,
                     std::abs(ratio - old_ratio) < 0.01 ? (T + avg) / 2 : (max_load + avg) / 2);
    }
    // Late offers and replies still in flight: answered, unable to move
    // anything (every offer is closed).
    while (!net.idle())
        for (const Message& m : net.next_round()) handle(m);
    net.report(out);
    return out;
}

} // namespace

BalanceOutcome run_grapevine(const BalanceInput& in, const StrategyOptions& options, Trace* trace) {
    return run_form(in, options, trace, GrapevineForm::today);
}

BalanceOutcome run_grapevine_68(const BalanceInput& in, const StrategyOptions& options,
                                Trace* trace) {
    return run_form(in, options, trace, GrapevineForm::charm68);
}

} // namespace protocol

std::unique_ptr<Strategy> make_grapevine(const StrategyOptions& options) {
    return std::make_unique<protocol::ProtocolStrategy>("grapevine", protocol::run_grapevine,
                                                        options);
}

std::unique_ptr<Strategy> make_grapevine_68(const StrategyOptions& options) {
    return std::make_unique<protocol::ProtocolStrategy>("grapevine-6.8", protocol::run_grapevine_68,
                                                        options);
}

} // namespace nettopo
