/// \file
/// Synthetic iterative applications to balance: Charm++'s lb_test, and the
/// configurations the SmartLB, PackDrop and Net Topo papers ran it in.
///
/// lb_test: N tasks; task loads min + (max - min) * U^4 (U uniform in [0,1),
/// seeded), so most tasks are light and a few heavy; loads are redrawn
/// half-way between balancing steps, from the second one on (iterations
/// every*3/2, every*5/2, ..., where lb_test.C calls Topo::shuffleLoad);
/// every iteration each task sends `message_bytes` to each neighbour of its
/// pattern: Ring (t-1, t+1), Mesh2D (up to 4 neighbours on a near-square
/// grid), Mesh3D (up to 6 on the smallest cube), RandGraph (the ring plus
/// random links, about 1 % of all pairs). Grids do not wrap around, as in
/// lb_test's Topo.C. The graph stores per pair both directions' bytes
/// (2 x message_bytes; see workload.cpp for where lb_test differs).
///
/// \threads Everything here may be used from several threads at once (a
/// Workload is immutable once made).
/// \cost Making a Workload builds its task graph: O(tasks + edges log
/// edges). The accessors and phase calls are O(1); the others say their
/// cost. Every call throws std::bad_alloc besides what it says.
#pragma once

#include "nettopo/balance/task_graph.hpp"
#include "nettopo/support/ids.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// Who talks to whom in lb_test (see the file's comment).
enum class CommPattern : std::uint8_t {
    Ring,      ///< t-1, t+1
    Mesh2D,    ///< up to 4 neighbours on a near-square grid
    Mesh3D,    ///< up to 6 on the smallest cube
    RandGraph, ///< the ring plus random links
};
/// "ring", "mesh2d", ...: the words of workload specs. O(1), throws nothing.
const char* to_string(CommPattern p);

/// lb_test's parameters.
struct LbTestParams {
    std::uint32_t tasks = 3600;              ///< N, the tasks
    CommPattern pattern = CommPattern::Ring; ///< who talks to whom
    double min_load_us = 30;                 ///< lb_test's arguments are microseconds
    double max_load_us = 4120;               ///< the heaviest load, microseconds
    double message_bytes = 1000;             ///< bytes a task sends each neighbour each iteration
    /// State a migration moves per task: an lb_test element packs about 230
    /// bytes (its counters and a 50-entry receive buffer); 1 KiB leaves room
    /// for Charm++'s envelope and location update.
    double task_bytes = 1024;
    std::uint32_t iterations = 150; ///< iterations of the run
    std::uint32_t every = 40;       ///< balance after every `every` iterations
    std::uint64_t seed = 1;         ///< seeds the loads and the random graph
    /// Redraw the loads half-way between balancing steps. lb_test.C means to
    /// (DYNAMIC_IMBALANCE), but its elements compute their busy-wait once, in
    /// their constructor, and carry it through migration (pup), so the
    /// redrawn table never reaches them: the papers' runs had static loads.
    /// The presets reproduce those runs and turn it off.
    bool redraw = true;
};

/// An lb_test run's tasks: their graph, and their loads phase by phase.
class Workload {
public:
    /// The workload of `params`: builds the task graph, O(tasks + edges log
    /// edges). Throws UsageError for parameters out of range (no task, min >
    /// max, every 0, ...) and for a random graph past the links it models.
    explicit Workload(const LbTestParams& params);

    /// The parameters.
    const LbTestParams& params() const { return params_; }
    /// N, the tasks.
    std::uint32_t num_tasks() const { return params_.tasks; }
    /// Who talks to whom, and how many bytes.
    const TaskGraph& graph() const { return graph_; }
    /// The load phase an iteration runs in: loads change at every*3/2,
    /// every*5/2, ... (always 0 without redraw).
    std::uint32_t phase_of_iteration(std::uint32_t iteration) const;
    /// The first iteration after `iteration` that starts a new phase
    /// (UINT32_MAX when none does).
    std::uint32_t next_phase_start(std::uint32_t iteration) const;
    /// Task loads in seconds during a phase; the same phase always gives the
    /// same loads. O(tasks).
    std::vector<double> loads(std::uint32_t phase) const;
    /// Each task's mean load over iterations [0, count): what the first
    /// balancing step measures when count = every (at least 1 iteration).
    /// O(tasks x phases in the count).
    std::vector<double> mean_loads(std::uint32_t count) const;
    /// Where tasks start: blocks of consecutive tasks over the PEs in order,
    /// as Charm++ places an array by default. O(tasks). UsageError for no PE.
    std::vector<PeId> initial_mapping(std::uint32_t num_pes) const;

private:
    LbTestParams params_;
    TaskGraph graph_;
};

/// Reads "lb_test:tasks=3600,pattern=ring,min=30,max=4120,bytes=1000,
/// task-bytes=1048576,iterations=150,every=40,seed=1" (any subset of keys, in
/// any order) or a preset name (see workload_presets). UsageError names the
/// bad key or value. O(length); no graph is built.
LbTestParams parse_workload_spec(std::string_view spec);

/// One paper's configuration of lb_test.
struct WorkloadPreset {
    std::string_view name;        ///< "smartlb-50", "packdrop-18990", "nettopo-3600", ...
    std::string_view description; ///< the paper and its setting
    /// The PEs it ran on: a cluster spec (generate_from_spec), or, when the
    /// machines differ, a description file's text (read_description).
    std::string_view cluster;
    LbTestParams params;                    ///< lb_test's parameters
    std::string_view network = "none";      ///< its platform costs (balance/detail/platform.hpp)
    std::string_view charm_version = {};    ///< the Charm++ the paper ran
    bool cluster_is_description = false;    ///< `cluster` is a description's text
    std::span<const double> pe_speeds = {}; ///< per PE, empty: all 1
};
/// The papers' platforms: SmartLB 50/100/200 tasks on one 8-PE machine;
/// PackDrop 18,990 and 36,990 tasks on 32 hosts x 4 PEs on Gigabit Ethernet;
/// Net Topo 3,600 and 5,400 tasks on an 8-PE and a 4-PE host of different
/// speeds. share/doc/balance.md gives the sources. O(1), throws nothing.
std::span<const WorkloadPreset> workload_presets();
/// The preset a workload spec starts from ("packdrop-18990:seed=7" ->
/// packdrop-18990), nullptr for lb_test:... or an unknown name. O(presets),
/// throws nothing.
const WorkloadPreset* workload_preset_of(std::string_view spec);

} // namespace nettopo
