// How nettopo-query's user names PEs, nodes and machines, and how its
// answers name them back: the cluster's own ids, or those of a job's
// allocation (--nodes, --hostfile, --job: view ids 0..N-1,
// model/job_view.hpp), with PUs as logical indexes or, with -p, as
// HOST:OS (the PU's OS index on its machine). One object does both
// directions, so what is printed can always be read back.
#pragma once

#include "common/json_writer.hpp"
#include "nettopo/model/job_view.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

// The PUs cpuset-of asks about: a PE's, a node's or a whole machine's.
struct PuSet {
    MachineId machine;
    PeRange pes; // cluster PEs, all of `machine`
    std::optional<PeId> pe;
    std::optional<NodeId> node;
};

class PeNaming {
public:
    // view: nullptr for the whole cluster; it must outlive this object.
    PeNaming(const Cluster& cluster, const JobView* view, bool physical);

    const Cluster& cluster() const { return cluster_; }
    const JobView* view() const { return view_; }
    bool physical() const { return physical_; }

    std::uint32_t num_pes() const { return view_ ? view_->num_pes() : cluster_.num_pes(); }
    std::uint32_t num_nodes() const { return view_ ? view_->num_nodes() : cluster_.num_nodes(); }
    std::uint32_t num_machines() const {
        return view_ ? view_->num_machines() : cluster_.num_machines();
    }

    // A PE as the user writes it: a number (view or cluster PE id), or with
    // -p HOST:OS (a bare OS index while the view holds one machine).
    // nullopt and `why` set when it names no PE.
    std::optional<PeId> parse_pe(std::string_view text, std::string& why) const;
    // The same, UsageError when it names no PE.
    PeId require_pe(std::string_view text) const;
    // A PE as printed: the same forms.
    std::string pe_text(PeId p) const;
    void pe_json(JsonWriter& j, PeId p) const;
    // Whether the PE is in the view (always without one).
    bool shown(PeId p) const { return !view_ || view_->contains(cluster_.machine_of(p)); }

    // Node ids: view ids in a view.
    NodeId require_node(std::uint64_t index) const;
    std::uint32_t node_number(NodeId n) const;

    // Machines named by a hostlist expression ("node[01-04]" or one name),
    // in its order; UsageError for names not in the cluster or, in a view,
    // not in the allocation.
    std::vector<MachineId> require_machines(std::string_view expression) const;

    // A machine or switch by name, or a hostlist naming one machine
    // (neighbors); UsageError otherwise.
    VertexId require_vertex(std::string_view name) const;

    // cpuset-of's argument: "node:N" is a node; a number (or with -p, a
    // HOST:OS) a PE; anything else a machine name or hostlist, one set per
    // machine. UsageError when it names nothing.
    std::vector<PuSet> require_pu_sets(std::string_view what) const;

    // The OS index of a PE's PU; InputError when its source gave none.
    std::uint32_t os_index(PeId p) const;

private:
    const Cluster& cluster_;
    const JobView* view_;
    bool physical_;
    // Per machine type, (OS index, logical PU) sorted by OS index; built with -p.
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> pu_of_os_;
};

} // namespace nettopo
