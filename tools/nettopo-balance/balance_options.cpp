#include "nettopo-balance/balance_options.hpp"

#include "common/common_options.hpp"
#include "common/completion_table.hpp"
#include "nettopo/balance/balance.hpp"
#include "nettopo/balance/workload.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

namespace {

// -s: every strategy, or all; -w: lb_test: or a preset.
std::vector<std::string> strategy_words() {
    std::vector<std::string> words{"all"};
    for (const std::string_view name : strategy_names()) words.emplace_back(name);
    return words;
}

std::vector<std::string> workload_words() {
    std::vector<std::string> words{"lb_test:"};
    for (const WorkloadPreset& p : workload_presets()) words.emplace_back(p.name);
    return words;
}

} // namespace

void add_balance_options(CLI::App& app, BalanceToolOptions& o) {
    add_input_option(app, o.input);
    app.add_option("--gen", o.gen,
                   "Cluster of a generated family, as nettopo-gen's arguments "
                   "(\"torus --dims 4x4x4 --machine 'core:8 pu:1'\")");
    add_node_level_option(app, o.node_level);
    add_latency_option(app, o.latencies);
    add_allowed_only_option(app, o.allowed_only);
    app.add_option("-w,--workload", o.workload,
                   "lb_test:tasks=N,pattern=ring|mesh2d|mesh3d|randgraph,min=US,max=US,"
                   "bytes=B,task-bytes=B,iterations=N,every=K,seed=S, or a preset (--list)")
        ->check(completion_words(workload_words()));
    app.add_option("-s,--strategy", o.strategies,
                   "Comma-separated strategies (--list), or all (the default)")
        ->check(completion_words(strategy_words()));
    app.add_option("--iterations", o.iterations, "Iterations of the simulated run");
    app.add_option("--every", o.every, "Balance after every K iterations")
        ->check(CLI::Range(1u, 4294967295u));
    app.add_option("--seed", o.seed, "Seed of the workload and of the strategies");
    app.add_option("--seeds", o.seeds,
                   "Compare over N seeds (--seed, --seed + 1, ...): the means, and the min, median "
                   "and max of the main results")
        ->capture_default_str()
        ->check(CLI::Range(1u, 100000u));
    app.add_option("--tasks", o.tasks, "Task loads, CSV task,load (seconds)")->type_name("FILE");
    app.add_option("--graph", o.graph, "Task communication, CSV a,b,bytes per iteration")
        ->type_name("FILE");
    app.add_option("--mapping", o.mapping, "Current mapping, CSV task,pe")->type_name("FILE");
    app.add_option("--speeds", o.speeds,
                   "Relative PE speeds, CSV pe,speed (default all 1, or the preset's)")
        ->type_name("FILE");
    app.add_option("-o,--output", o.output, "Write the new mapping, CSV task,pe ('-' = stdout)")
        ->type_name("FILE");
    app.add_option("--rankfile", o.rankfile, "Write an Open MPI rankfile of the new mapping")
        ->type_name("FILE");
    app.add_option("--slurm", o.slurm,
                   "Write a Slurm hostfile for --distribution=arbitrary (the --cpu-bind list "
                   "is printed)")
        ->type_name("FILE");
    app.add_option("--loss", o.loss, "Probability that a protocol message is lost")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--delay", o.delay, "Probability that a protocol message is late")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--max-delay", o.max_delay, "Rounds a late message may be late (1..N)")
        ->capture_default_str()
        ->check(CLI::Range(1u, 1000u));
    app.add_option("--intra-gbps", o.intra_gbps, "Bandwidth between two PUs of one machine")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--link-gbps", o.link_gbps, "Bandwidth of links whose bandwidth is unknown")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--decision-time", o.decision_time,
                   "What a centralised decision costs in the simulated run: its measured wall "
                   "time, or none (no wall time is measured: the output is reproducible to the "
                   "bit)")
        ->capture_default_str()
        ->check(CLI::IsMember({"measured", "none"}));
    app.add_option("--network", o.network,
                   "Software costs of a network kind: none, gige, ib, shm (default: the "
                   "preset's, else none)")
        ->check(CLI::IsMember({"none", "gige", "ib", "shm"}));
    const auto micro = CLI::Range(0.0, 1e9);
    app.add_option("--overhead-us", o.costs.overhead_us,
                   "o: CPU time to send, and again to receive, a message between machines")
        ->check(micro);
    app.add_option("--gap-us", o.costs.gap_us, "g: least interval between two messages of one PE")
        ->check(micro);
    app.add_option("--intra-overhead-us", o.costs.intra_overhead_us, "o inside a machine")
        ->check(micro);
    app.add_option("--intra-gap-us", o.costs.intra_gap_us, "g inside a machine")->check(micro);
    app.add_option("--round-us", o.costs.round_us,
                   "Least time of a protocol round, even when nothing arrives")
        ->check(micro);
    app.add_option("--gather", o.costs.gather,
                   "Charge centralised strategies the statistics sent to PE 0 and the decision "
                   "broadcast (on/off)")
        ->check(completion_words({"on", "off"}));
    app.add_option("--migration-us", o.costs.migration_us,
                   "Fixed cost of a migrated task at its sender and again at its receiver")
        ->check(micro);
    app.add_option("--local-ns", o.costs.local_ns,
                   "Distributed strategies' own computation per task of the busiest PE")
        ->check(micro);
    app.add_option("--noise", o.costs.noise,
                   "Relative noise of measured loads (standard deviation, seeded)")
        ->check(CLI::Range(0.0, 10.0));
    app.add_option("--refine-tolerance", o.refine_tolerance,
                   "refine, refine-heap, topo-refine: heavy above this x average (1.05)");
    app.add_option("--refine-step", o.refine_step, "refine*: step of the tolerance search (0.01)");
    app.add_option("--smart-threshold", o.smart_threshold,
                   "smart: act when (max - min) / avg exceeds this (0.05)");
    app.add_option("--smart-gap-factor", o.smart_gap,
                   "smart: a task moves if its load <= this x (max - min) (1)");
    app.add_option("--smart-passes", o.smart_passes,
                   "smart: walks over the tasks, 0 = until none "
                   "moves (0)");
    app.add_option("--topo-slack", o.topo_slack,
                   "topo-greedy: load allowed above the average near partners (0.03)");
    app.add_option("--gossip-fanout", o.gossip_fanout, "grapevine*, packdrop: gossip fan-out (2)")
        ->check(CLI::Range(1u, 1000u));
    app.add_option("--grapevine-tolerance", o.grapevine_tolerance,
                   "grapevine*: the 1.05 of its thresholds (1.05)");
    app.add_option("--grapevine-phases", o.grapevine_phases,
                   "grapevine: at most this many phases "
                   "(10)")
        ->check(CLI::Range(1u, 1000u));
    app.add_option("--packdrop-tolerance", o.packdrop_tolerance,
                   "packdrop: v, overloaded above (1 + v) x average (0.05)");
    app.add_option("--packdrop-tries", o.packdrop_tries, "packdrop: offers of one pack (8)")
        ->check(CLI::Range(1u, 1000u));
    app.add_option("--reply-timeout", o.reply_timeout,
                   "Protocol rounds a sender waits for a reply (4)")
        ->check(CLI::Range(1u, 1000u));
    add_index_option(app, o.index_use,
                     "Here: the communication model's distances; a run asks millions of them, "
                     "so auto is always: the index kept in the binary image, else one built")
        ->capture_default_str();
    app.add_flag("--json", o.json, "Print JSON");
    app.add_flag("--csv", o.csv, "Print CSV (RFC 4180: a heading line, then one row per result)");
    app.add_flag("--csv-comments", o.csv_comments,
                 "With --csv: the command and its parameters first, as # lines");
    add_quiet_option(app, o.quiet);
    app.add_flag("--list", o.list, "List the strategies and the workload presets");
    app.add_flag("--mpi", o.mpi,
                 "Under mpirun, one rank per PE: run the strategy's protocol over MPI on the "
                 "workload's first step and compare it with its reference: the simulator for "
                 "neighbor and neighbor-charm, the per-PE programs in one process for the others "
                 "(exit 3 if they differ)");
}

} // namespace nettopo
