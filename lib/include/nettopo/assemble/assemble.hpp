// Joins what is known of a real cluster into one: each host's insides (hwloc
// exports) and the fabric between hosts (an InfiniBand dump, a Slurm
// topology), matched by host name. What does not match is summarised
// (counts and the first names), not reported host by host.
#pragma once

#include "nettopo/fabric/fabric.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/hwloc/host_exports.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/model/machine_type.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace nettopo {

struct AssembleOptions {
    std::string name;                           // cluster name; empty: the fabric's file stem
    NodeLevel node_level;                       // for every machine type
    std::optional<std::string> default_machine; // synthetic description for fabric hosts
                                                // without an hwloc export
    // Latency per link kind when the source gives none; an override replaces
    // the source's value too. Kinds host-switch and switch-switch apply (a
    // host-to-host cable counts as host-switch).
    LinkClasses defaults = LinkClasses::defaults();
    std::array<std::optional<double>, link_class_count> latency_override{};
    bool hosts_only = false; // no fabric: every host on one switch "flat"
    bool strict = false;     // problems are errors, not warnings
    BuildOptions build;
    // Where hwloc parses the hosts' exports and diffs and default_machine:
    // through this sandbox if set, else in the calling thread
    // (hwloc_sandbox.hpp).
    const HwlocSandbox* hwloc_sandbox = nullptr;
};

// One kind of mismatch, with every name it concerns.
struct AssemblyIssue {
    std::string noun; // "host", counted: "1 host", "5 hosts"
    std::string what; // "in the fabric without an hwloc export, left out"
    std::vector<std::string> names;
    // "12 hosts in the fabric ...: node[001-010],fh1 and 4 more"
    std::string summary(std::size_t shown = 8) const;
};

struct Assembly {
    Cluster cluster;
    std::vector<AssemblyIssue> issues;        // empty when everything matched
    std::vector<std::string> defaulted_hosts; // fabric hosts given --default-machine
};

// Parses "KIND=NS" (as nettopo-gen's --latency) into an override.
void set_latency_override(AssembleOptions& options, std::string_view kind_equals_ns);

// Where a real cluster's description comes from (nettopo-discover's sources).
struct ClusterSources {
    std::vector<std::string> hosts; // hwloc exports: files and directories
    std::string ibnetdiscover;      // ibnetdiscover output, or empty
    std::string slurm;              // Slurm topology.conf / topology.yaml, or empty
};

// Reads the sources and assembles them; at most one fabric.
Assembly assemble_from_files(const ClusterSources& sources, const AssembleOptions& options);

// Throws UsageError for contradictory requests (no fabric without
// hosts_only, no machine at all), InputError when `strict` and there are
// issues, or when the result is disconnected (unless allowed).
Assembly assemble_cluster(const std::vector<HostExport>& hosts, const Fabric* fabric,
                          const AssembleOptions& options);

} // namespace nettopo
