// The table of nettopo-query's sub-commands (sub_commands.hpp).
#include "nettopo-query/sub_commands.hpp"

#include "common/cluster_printer.hpp"
#include "common/diff_printer.hpp"
#include "common/dot_rails.hpp"
#include "common/dot_writer.hpp"
#include "common/drawing.hpp"
#include "common/output.hpp"
#include "common/rails_printer.hpp"
#include "common/tool_support.hpp"
#include "nettopo-query/adapter_pair.hpp"
#include "nettopo-query/allocation_printer.hpp"
#include "nettopo-query/device_printer.hpp"
#include "nettopo-query/distribute_command.hpp"
#include "nettopo-query/draw_highlight.hpp"
#include "nettopo-query/export_formats.hpp"
#include "nettopo-query/index_command.hpp"
#include "nettopo/model/cluster_diff.hpp"
#include "nettopo/query/allocation.hpp"
#include "nettopo/query/device_nearest.hpp"
#include "nettopo/query/summary.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace nettopo {

const std::vector<SubCommand>& commands() {
    static const std::vector<SubCommand> table = {
        {"num-pes", "Number of PEs", "",
         [](Run& r) { r.out.count("num_pes", r.naming.num_pes()); }},
        {"num-machines", "Number of machines", "",
         [](Run& r) { r.out.count("num_machines", r.naming.num_machines()); }},
        {"num-nodes", "Number of nodes", "",
         [](Run& r) { r.out.count("num_nodes", r.naming.num_nodes()); }},
        {"num-switches", "Number of switches", "",
         [](Run& r) { r.out.count("num_switches", r.cluster.num_switches()); }},
        {"num-links", "Number of network links", "",
         [](Run& r) { r.out.count("num_links", r.cluster.num_net_links()); }},
        {"machine-of", "Machine of a PE", "pe", [](Run& r) { r.out.machine_of(r.pe()); }},
        {"node-of", "Node of a PE", "pe", [](Run& r) { r.out.node_of(r.pe()); }},
        {"pes-of-machine", "PEs of a machine (a hostlist: one line per machine)", "machine",
         [](Run& r) {
             for (MachineId m : r.naming.require_machines(r.o.name)) r.out.pes_of_machine(m);
         }},
        {"pes-of-node", "PEs of a node", "node",
         [](Run& r) { r.out.pes_of_node(r.naming.require_node(r.o.index)); }},
        {"on-same-machine", "The other PEs of a PE's machine", "pe",
         [](Run& r) {
             r.out.pes_around("on_same_machine", r.pe(), r.cluster.on_same_machine(r.pe()));
         }},
        {"on-same-node", "The other PEs of a PE's node", "pe",
         [](Run& r) { r.out.pes_around("on_same_node", r.pe(), r.cluster.on_same_node(r.pe())); }},
        {"neighbors", "Machines and switches adjacent to a machine or switch", "vertex",
         [](Run& r) { r.out.neighbors(r.naming.require_vertex(r.o.name)); }},
        {"proximity", "3 same PE, 2 same node, 1 same machine, 0 different machines", "pair",
         [](Run& r) { r.for_pairs([&](PeId a, PeId b) { r.out.proximity(a, b); }); }},
        {"ancestor", "Deepest common object of two PEs of one machine", "pair",
         [](Run& r) { r.for_pairs([&](PeId a, PeId b) { r.out.ancestor(a, b); }); }},
        {"hops",
         "Fewest network links between the PEs' machines, or from an adapter or a GPU "
         "(HOST:mlx5_3, HOST:gpu2: through its nearest cabled adapter)",
         "pair",
         [](Run& r) {
             if (run_adapter_pair(r, AdapterQuestion::hops)) return;
             r.for_pairs([&](PeId a, PeId b) { r.out.hops(a, b, r.engine.hop_count(a, b)); }, true);
         }},
        {"distance", "Latency between two PEs (ns), or between adapters or GPUs (HOST:DEVICE)",
         "pair",
         [](Run& r) {
             if (run_adapter_pair(r, AdapterQuestion::distance)) return;
             r.for_pairs([&](PeId a, PeId b) { r.out.distance(a, b, r.engine.distance(a, b)); },
                         true);
         }},
        {"path",
         "Machines and switches on one shortest path (with HOST:DEVICE ends: the adapters it "
         "leaves and enters by)",
         "pair",
         [](Run& r) {
             if (run_adapter_pair(r, AdapterQuestion::path)) return;
             const PathMetric m = r.o.by_hops ? PathMetric::Hops : PathMetric::Latency;
             r.for_pairs([&](PeId a, PeId b) { r.out.path(a, b, r.engine.path(a, b, m)); });
         }},
        {"nearest",
         "The K PEs closest to a PE (ties by PE id), or to a device (gpu2, HOST:mlx5_0: its "
         "local PEs first)",
         "nearest",
         [](Run& r) {
             if (!r.cluster.find_machine(r.o.pe))
                 if (const auto d = one_device(r.cluster, r.o.pe)) {
                     const auto k = static_cast<std::uint32_t>(
                         std::min<std::uint64_t>(r.o.k, r.naming.num_pes()));
                     if (r.view) r.plan(r.view->num_machines());
                     print_nearest_to_device(
                         r.naming, *d, static_cast<std::uint32_t>(r.o.k),
                         r.view ? nearest_to_device_in_view(r.engine, *r.view, *d, k)
                                : nearest_to_device(r.engine, *d, k),
                         r.o.json, std::cout);
                     return;
                 }
             const PeId p = r.pe();
             // No more than every PE can be asked for; the answer says what was asked.
             const auto k =
                 static_cast<std::uint32_t>(std::min<std::uint64_t>(r.o.k, r.naming.num_pes()));
             if (!r.view) {
                 r.out.nearest(p, r.o.k, r.engine.nearest(p, k));
                 return;
             }
             r.plan(r.view->num_machines()); // one distance per allocation machine
             r.out.nearest(p, r.o.k, nearest_in_view(r.engine, *r.view, p, k));
         }},
        {"distribute",
         "One line per rank (rank, host, PU logical and OS index): N processes spread over the "
         "machines, scatter (as far apart as switches, hosts and each host's tree allow) or "
         "compact (closest first); or an Open MPI rankfile, or a Slurm hostfile and srun line",
         "distribute",
         [](Run& r) {
             DistributeRequest request = r.o.distribute;
             request.json = r.o.json;
             run_distribute(r.cluster, allocation_of(r), request, std::cout);
         }},
        {"summary", "Counts, machine types, node level, degrees, diameter", "",
         [](Run& r) {
             if (r.view) {
                 const AllocationSummary s = summarize_allocation(*r.view);
                 r.o.json ? write_allocation_summary_json(*r.view, s, std::cout)
                          : write_allocation_summary_text(*r.view, s, std::cout);
                 return;
             }
             const ClusterSummary s = summarize(r.cluster);
             // The rails of the hosts' adapters, when the cluster keeps them.
             const Rails rails = infer_rails(r.cluster);
             if (!r.o.json) {
                 write_summary_text(s, std::cout);
                 write_rails_text(rails, std::cout);
             } else if (rails.rails.empty()) {
                 write_summary_json(s, std::cout);
             } else {
                 JsonWriter j(std::cout);
                 j.begin_object().key("summary");
                 write_summary_object(s, j);
                 write_rails_json(rails, j);
                 j.end_object().line();
             }
         }},
        {"show", "lstopo-like view of the cluster", "",
         [](Run& r) {
             if (r.o.json)
                 throw UsageError("show has no JSON form: use summary --json, or nettopo-discover "
                                  "-o - for the whole topology as XML");
             write_show(r.cluster, std::cout, ShowOptions{r.o.all ? 0u : 32u, r.view, !r.o.no_io});
         }},
        {"draw", "Graphviz drawing of the network (DOT; -o FILE.svg/.png/.pdf renders it)", "",
         [](Run& r) {
             if (r.o.json) throw UsageError("draw has no JSON form");
             DotOptions options;
             if (r.o.collapse != "auto")
                 options.collapse_above = static_cast<std::uint32_t>(std::stoul(r.o.collapse));
             options.switch_rail = detail::switch_rails(r.cluster);
             const std::optional<DotHighlight> highlight = draw_highlight(r);
             if (highlight) options.highlight = &*highlight;
             if (r.o.output.empty())
                 write_dot(r.cluster, std::cout, options);
             else
                 save_drawing(r.cluster, r.o.output, options);
         }},
        {"export",
         "The cluster in another tool's format (--format slurm, slurm-yaml, slurm-block, "
         "slurm-block-yaml, scotch, synthetic, nccl)",
         "",
         [](Run& r) {
             if (r.o.json) throw UsageError("export has no JSON form");
             // The text is whole before anything is written: a network that
             // is not a tree, a type no synthetic string gives, writes nothing.
             std::ostringstream text;
             write_export(r.cluster, r.o.format, r.o.machine, text);
             write_output(r.o.output.empty() ? "-" : r.o.output,
                          [&](std::ostream& out) { out << text.str(); });
         }},
        {"nearest-device",
         "The devices of a PE's machine, nearest first (with --kind: only GPUs, adapters...)",
         "nearest-device",
         [](Run& r) {
             std::optional<DeviceKind> kind;
             if (!r.o.device_kind.empty()) kind = device_kind_from(r.o.device_kind);
             const PeId p = r.pe();
             print_nearest_devices(r.naming, p, kind, nearest_devices(r.cluster, p, kind), r.o.json,
                                   std::cout);
         }},
        {"device-matrix",
         "How a machine's GPUs and adapters reach each other (nvidia-smi topo -m's X, NV<n>, PIX, "
         "PXB, PHB, NODE, SYS, from the PCI tree and hwloc's GPU interconnects; XGMI, XL), with "
         "their CPU and NUMA affinity",
         "devices",
         [](Run& r) { print_device_matrix(r.naming, r.devices_machines(), r.o.json, std::cout); }},
        {"devices",
         "GPUs, network adapters and other I/O devices of the machines (or of a machine or "
         "hostlist): one line each, with their PCI address and local PUs and NUMA nodes",
         "devices",
         [](Run& r) { print_devices(r.naming, r.devices_machines(), r.o.json, std::cout); }},
        {"cpuset-of",
         "OS indexes of the PUs of a PE, a machine (or hostlist: one line per machine), "
         "node:N or a device (gpu2, mlx5_0, HOST:gpu2: the PUs local to it), as a list "
         "(0-3,8) or with --mask as hwloc's hex mask",
         "cpuset",
         [](Run& r) {
             const auto sets = r.naming.require_pu_sets(r.o.pe);
             for (const PuSet& set : sets) r.out.cpuset(set, r.o.mask, sets.size() > 1);
         }},
        {"diff",
         "Differences from an expected cluster, one per line, then a summary; exit 3 when "
         "there are some",
         "expected",
         [](Run& r) {
             if (r.o.expected == "-" && r.o.input == "-")
                 throw UsageError("-i - and diff - cannot both read standard input");
             const Cluster expected = load_cluster(r.o.expected, r.load);
             const ClusterDiff diff = diff_clusters(expected, r.cluster);
             const Rails rails = infer_rails(expected);
             r.o.json ? write_diff_json(diff, std::cout) : write_diff_text(diff, std::cout, &rails);
             if (!diff.identical()) r.code = exit_differences;
         }},
        {"index",
         "Build the distance index and keep it with the cluster in a binary image, which later "
         "calls read instead of the archive",
         "",
         [](Run& r) {
             run_index_command(*r.topology,
                               {r.o.input, r.o.output, r.o.index_kind, r.o.budget_mb, r.o.json,
                                r.load.progress, r.input_stamp},
                               std::cout);
         }},
    };
    return table;
}

} // namespace nettopo
