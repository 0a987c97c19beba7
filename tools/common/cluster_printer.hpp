// The tools' views of a whole cluster: `summary` as text or JSON, and
// `show`, an lstopo-like indented tree of switches, machines and each
// machine type once.
#pragma once

#include "common/json_writer.hpp"
#include "nettopo/model/job_view.hpp"
#include "nettopo/query/summary.hpp"

#include <cstdint>
#include <ostream>

namespace nettopo {

void write_summary_text(const ClusterSummary& s, std::ostream& out);
// {"summary": {...}} on one line (share/schema/summary.schema.json).
void write_summary_json(const ClusterSummary& s, std::ostream& out);
// The inner object alone, as a member of another report (nettopo-gen --json).
void write_summary_object(const ClusterSummary& s, JsonWriter& j);

struct ShowOptions {
    std::uint32_t max_listed = 32; // machines, switches and neighbours listed; 0 = all
    // A job's allocation: only its machines (PEs in its numbering), the
    // switches they are cabled to and their machine types.
    const JobView* view = nullptr;
    // The I/O side: PCI objects and devices under the CPU-side objects
    // they hang from, where lstopo prints them (share/doc/gpu-nodes.md).
    bool io = true;
};
void write_show(const Cluster& cluster, std::ostream& out, const ShowOptions& options = {});

} // namespace nettopo
