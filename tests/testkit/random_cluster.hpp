// Random clusters for differential tests, with an oracle that knows the
// answers from the random specification alone: PE numbering, nodes and
// meeting levels from the synthetic descriptions' level counts, network
// distances from Floyd–Warshall. Nothing here calls the library's queries.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/model/machine_type.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace nettopo::test {

// One level of a symmetric synthetic description, outermost first.
struct Level {
    ObjectType type;
    std::uint32_t count;
};

struct MachineSpec {
    std::string description;   // e.g. "pack:2 l3:1 core:2 pu:2"
    std::vector<Level> levels; // below the Machine root
    std::optional<ObjectType> node_request;
    LevelLatencies latencies = LevelLatencies::defaults();
    std::string options;  // the description's node=/lat. options
    bool forwards = true; // false: an end host, written "forwards=no"
};

struct LinkSpec {
    std::uint32_t a, b; // vertex indexes: machines first, then switches
    double latency_ns;
    double bandwidth_gbps;
    std::uint32_t count;
};

struct ClusterSpec {
    std::vector<MachineSpec> machines;
    std::uint32_t switches = 0;
    std::vector<LinkSpec> links;
    bool connected = true;

    std::uint32_t vertices() const {
        return static_cast<std::uint32_t>(machines.size()) + switches;
    }
    std::string description() const; // the text description of the cluster
};

struct RandomOptions {
    std::uint32_t min_machines = 2, max_machines = 24;
    std::uint32_t max_switches = 8;
    double extra_link_ratio = 0.6; // extra links on top of a spanning tree, per vertex
    bool allow_disconnected = false;
    // Share of machines that do not forward (0: every machine forwards, and
    // no random number is drawn for it, so older seeds give older clusters).
    double end_host_share = 0;
};

ClusterSpec random_cluster(std::mt19937_64& rng, const RandomOptions& options = {});

// The cluster the library builds from the specification's description.
Cluster build_cluster(const ClusterSpec& spec, bool allow_disconnected = false);

// Answers computed from the specification only. Network distances come from
// Floyd–Warshall whose intermediate vertices are only those that forward
// (switches, and machines not marked as end hosts): the shortest paths that
// pass through no end host.
class Oracle {
public:
    explicit Oracle(const ClusterSpec& spec);

    std::uint32_t num_pes() const { return static_cast<std::uint32_t>(pe_machine_.size()); }
    std::uint32_t num_nodes() const { return total_nodes_; }
    std::uint32_t machine_of(std::uint32_t pe) const { return pe_machine_[pe]; }
    std::uint32_t local(std::uint32_t pe) const { return pe - machine_first_pe_[pe_machine_[pe]]; }
    std::uint32_t first_pe(std::uint32_t m) const { return machine_first_pe_[m]; }
    std::uint32_t pes_of(std::uint32_t m) const {
        return machine_first_pe_[m + 1] - machine_first_pe_[m];
    }
    std::uint32_t node_of(std::uint32_t pe) const;
    int proximity(std::uint32_t a, std::uint32_t b) const;
    // Type and logical index (inside the machine) of the deepest common object.
    std::optional<std::pair<ObjectType, std::uint32_t>> ancestor(std::uint32_t a,
                                                                 std::uint32_t b) const;

    static constexpr double inf = std::numeric_limits<double>::infinity();
    double vertex_latency(std::uint32_t u, std::uint32_t v) const { return lat_[u * n_ + v]; }
    double vertex_hops(std::uint32_t u, std::uint32_t v) const { return hops_[u * n_ + v]; }
    double distance(std::uint32_t a, std::uint32_t b) const; // inf when unreachable
    double hops(std::uint32_t a, std::uint32_t b) const;
    double link_latency(std::uint32_t u, std::uint32_t v) const; // inf when no link

private:
    // PUs below one object of level i (levels index the spec; -1 = Machine).
    std::uint32_t pus_below(const MachineSpec& m, int level) const;
    int node_level(const MachineSpec& m) const; // index into levels, -1 = Machine
    int meet_level(const MachineSpec& m, std::uint32_t la, std::uint32_t lb) const;

    const ClusterSpec& spec_;
    std::vector<std::uint32_t> pe_machine_, machine_first_pe_, machine_first_node_;
    std::uint32_t total_nodes_ = 0;
    std::uint32_t n_ = 0;
    std::vector<double> lat_, hops_, direct_;
};

} // namespace nettopo::test
