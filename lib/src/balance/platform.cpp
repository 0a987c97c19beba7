// The cost settings of the papers' platforms (platform.hpp). Sources, all in
// share/doc/balance.md with the numbers they gave:
//  - message overheads: InfiniBand, netgauge's LogGP measurement of MVAPICH
//    on ANL's Tukey (o_s, o_r 1.1-1.3 us for up to 1 KiB, g 1.1 us);
//    shared memory, netgauge's intra-node example (o_s 0.27, o_r 0.55 us,
//    g 0.45 us); Ethernet, SimGrid's calibration of Open MPI's TCP path on
//    Grid'5000 (o_s 3.8, o_r 3.5 us on 10 GbE; Charm++'s netlrts over UDP on
//    Gigabit Ethernet is taken to cost no less);
//  - round floor: one message's time when nothing arrives (latency + 2o);
//  - statistics: the fields of LDObjData, LDCommData and MigrateInfo
//    (src/ck-ldb/lbdb.h, Charm++ 6.8.1), counted by hand;
//  - migration: the migration phase of GreedyLB in the PackDrop authors'
//    Charm++ 6.8.1 logs (Santos Dumont, 144 PEs: 35,712 objects moved in
//    0.051 s, ~500 sends and receives per PE: 100 us each);
//  - local computation: NeighborLB's strategy took 4-7 us for 300-450
//    objects per PE in the Net Topo thesis' logs (~20 ns per task);
//  - load noise: 2 %, the run-to-run spread the PackDrop paper reports
//    (<= 2 %), standing in for the noise of one measurement.
#include "nettopo/balance/detail/platform.hpp"

#include "nettopo/support/error.hpp"

#include <array>
#include <fmt/format.h>

namespace nettopo {

namespace {

constexpr double us = 1e-6;

constexpr StepCosts charm_step() {
    StepCosts s;
    s.gather_statistics = true;
    s.stats_bytes_per_pe = 64;
    s.stats_bytes_per_task = 72;
    s.stats_bytes_per_edge = 64;
    s.decision_bytes_per_migration = 48;
    s.local_seconds_per_task = 0.02 * us;
    s.migration_seconds_per_task = 100 * us;
    s.load_noise = 0.02;
    return s;
}

constexpr MessageCosts shm{0.4 * us, 0.45 * us};

const std::array<PlatformCosts, 4> platforms{{
    {"none",
     "no software costs: a message costs latency + bytes / bandwidth, a step its "
     "decision and its bytes",
     {},
     {},
     0,
     {}},
    {"gige",
     "Gigabit Ethernet, Charm++ netlrts (UDP): o 4 us, g 4 us; shared memory inside "
     "a machine",
     {4 * us, 4 * us},
     shm,
     23 * us + 8 * us,
     charm_step()},
    {"ib",
     "InfiniBand, Charm++ over verbs or MPI: o 1.2 us, g 1.1 us; shared memory inside "
     "a machine",
     {1.2 * us, 1.1 * us},
     shm,
     6.8 * us + 2.4 * us,
     charm_step()},
    {"shm", "one machine, shared memory: o 0.4 us, g 0.45 us", shm, shm, 0.6 * us + 0.8 * us,
     charm_step()},
}};

} // namespace

std::span<const PlatformCosts> platform_costs() {
    return platforms;
}

const PlatformCosts& platform_costs(std::string_view name) {
    for (const PlatformCosts& p : platforms)
        if (p.name == name) return p;
    throw UsageError(fmt::format("unknown network kind '{}' (known: none, gige, ib, shm)", name));
}

void apply_platform(const PlatformCosts& platform, CommModelOptions& model, StepCosts& step) {
    model.network_costs = platform.network;
    model.intra_machine_costs = platform.intra_machine;
    model.min_round_seconds = platform.min_round_seconds;
    step = platform.step;
}

void apply_costs(const PlatformCosts& platform, const CostOverrides& o, CommModelOptions& m,
                 StepCosts& step) {
    apply_platform(platform, m, step);
    constexpr double us = 1e-6;
    if (o.overhead_us) m.network_costs.overhead_seconds = *o.overhead_us * us;
    if (o.gap_us) m.network_costs.gap_seconds = *o.gap_us * us;
    if (o.intra_overhead_us) m.intra_machine_costs.overhead_seconds = *o.intra_overhead_us * us;
    if (o.intra_gap_us) m.intra_machine_costs.gap_seconds = *o.intra_gap_us * us;
    if (o.round_us) m.min_round_seconds = *o.round_us * us;
    if (o.migration_us) step.migration_seconds_per_task = *o.migration_us * us;
    if (o.local_ns) step.local_seconds_per_task = *o.local_ns * 1e-9;
    if (o.noise) step.load_noise = *o.noise;
    if (o.gather) step.gather_statistics = *o.gather;
}

} // namespace nettopo
