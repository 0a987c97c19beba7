// Grapevine (Charm++'s DistributedLB) PE by PE, both forms: the rules are
// grapevine.cpp's (see its comment), each PE applying them with what it
// knows. An offer carries the task and its load; the receiver's reply
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
    std::uint32_t to;
};

// One PE: its load, and what it knows and holds while it donates.
struct Pe {
    double load = 0;
    bool start = false, set_up = false;
    std::vector<PeLoad> known;     // from the gossip
    std::vector<PeLoad> receivers; // known PEs under T0, with (T0 - load) / T0
    double total_weight = 0;
    protocol::SentTally sent;
    Heap heap;
    std::uint32_t objs_count = 0, known_count = 0, negacks = 0;
    std::int64_t trials_left = 0;
    std::vector<Offer> offers;
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
    const double total = c.sum(loads);
    double max_load = classic ? 0 : c.max(loads);
    const double avg = total / P;
    const double tol = o.grapevine_tolerance;
    if (P < 2 || !(avg > 0) || (!classic && max_load / avg <= tol)) return;

    std::vector<std::uint8_t> starts(L);
    for (std::size_t i = 0; i < L; ++i) {
        pes[i].start = pes[i].load < (classic ? avg : tol * avg);
        starts[i] = pes[i].start;
    }
    std::vector<std::vector<PeLoad>> known = gossip(c, starts, loads);
    for (std::size_t i = 0; i < L; ++i) pes[i].known = std::move(known[i]);

    double T = classic ? std::ceil(tol * avg * window) / window
                       : std::max(tol * avg, (max_load + avg) / 2);
    const double T0 = T;

    auto setup = [&](std::size_t i) {
        Pe& d = pes[i];
        if (d.set_up) return;
        d.set_up = true;
        for (const auto& [q, l] : d.known)
            if (l < T0) {
                d.receivers.emplace_back(q, (T0 - l) / T0);
                d.total_weight += (T0 - l) / T0;
                ++d.known_count;
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
    // The first known PE whose cumulative weight reaches a uniform draw.
    auto pick = [&](std::size_t i) -> std::uint32_t {
        const Pe& d = pes[i];
        const double target = protocol::uniform01(c.rng(i)) * d.total_weight;
        double cum = 0;
        for (const auto& [q, w] : d.receivers) {
            cum += w;
            if (cum >= target) return q;
        }
        return d.receivers.empty() ? P : d.receivers.back().first;
    };
    // A receiver is drawn from the known list, so it is in it.
    auto announced = [&](const Pe& d, std::uint32_t q) {
        const auto it = std::lower_bound(d.known.begin(), d.known.end(), PeLoad{q, -1e300});
        if (it == d.known.end() || it->first != q)
            throw std::logic_error("grapevine: a receiver the donor never heard of");
        return it->second;
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
                if (to != pe && d.sent.view(announced(d, to), to) + load < (classic ? avg : T))
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
            d.offers.push_back({popped, to});
            out.push_back(std::move(m));
        }
    };
    auto refused = [&](std::size_t i, const Offer& offer, std::vector<AgentMessage>& out) {
        Pe& d = pes[i];
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
                if (accept) d.load = after;
                AgentMessage r;
                r.src = m.dst;
                r.dst = m.src;
                r.kind = accept ? accept_kind : refuse_kind;
                r.item = m.item;
                r.flag = m.flag;
                out.push_back(std::move(r));
            } else if (m.kind == accept_kind) {
                c.move(m.item, m.src);
            } else {
                refused(i, d.offers[m.flag], out);
            }
        }
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
        c.run_rounds(std::move(out), round);
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
