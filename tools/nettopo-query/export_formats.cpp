#include "nettopo-query/export_formats.hpp"

#include "nettopo/fabric/scotch_writer.hpp"
#include "nettopo/fabric/slurm_block_writer.hpp"
#include "nettopo/fabric/slurm_writer.hpp"
#include "nettopo/formats/nccl_topology.hpp"
#include "nettopo/hwloc/synthetic_writer.hpp"
#include "nettopo/support/error.hpp"

#include <fmt/format.h>

namespace nettopo {

namespace {

// The machine whose type a synthetic description or an NCCL topology file
// is written for: --machine's, or the first of the only type. With several
// types, the message names a machine of each.
MachineId machine_to_describe(const Cluster& cluster, const std::string& machine) {
    if (!machine.empty()) return cluster.require_machine(machine);
    if (cluster.num_types() == 1 && cluster.num_machines() > 0) return MachineId(0);
    std::string examples;
    std::vector<bool> seen(cluster.num_types(), false);
    for (const Cluster::Run& run : cluster.runs())
        if (!seen[run.type.value]) {
            seen[run.type.value] = true;
            if (!examples.empty()) examples += ", ";
            examples += cluster.machine_name(MachineId(run.first_machine));
        }
    throw UsageError(fmt::format("the cluster has {} machine types: give --machine NAME to "
                                 "write the type of machine NAME (one machine of each type: {})",
                                 cluster.num_types(), examples));
}

} // namespace

bool is_export_format(std::string_view format) {
    return format == "slurm" || format == "slurm-yaml" || format == "slurm-block" ||
           format == "slurm-block-yaml" || format == "scotch" || format == "synthetic" ||
           format == "nccl";
}

void write_export(const Cluster& cluster, std::string_view format, const std::string& machine,
                  std::ostream& out) {
    if (!machine.empty() && format != "synthetic" && format != "nccl")
        throw UsageError("--machine goes with --format synthetic or nccl only");
    if (format == "slurm") {
        write_slurm_topology(cluster, out);
    } else if (format == "slurm-yaml") {
        write_slurm_topology_yaml(cluster, out);
    } else if (format == "slurm-block") {
        write_slurm_block_topology(cluster, out);
    } else if (format == "slurm-block-yaml") {
        write_slurm_block_topology_yaml(cluster, out);
    } else if (format == "scotch") {
        write_scotch_target(cluster, out);
    } else if (format == "synthetic") {
        const MachineId m = machine_to_describe(cluster, machine);
        out << synthetic_description(cluster.machine_type(m).tree()) << '\n';
    } else if (format == "nccl") {
        const MachineId m = machine_to_describe(cluster, machine);
        write_nccl_topology(cluster.machine_type(m).tree(), cluster.machine_name(m), out);
    } else {
        throw UsageError(
            fmt::format("unknown export format '{}' (expected {})", format, export_formats));
    }
}

} // namespace nettopo
