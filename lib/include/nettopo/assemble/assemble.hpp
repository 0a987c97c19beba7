/// \file
/// Joins what is known of a real cluster into one: each host's insides (hwloc
/// exports) and the fabric between hosts (an InfiniBand dump, a Slurm
/// topology), matched by host name. What does not match is summarised
/// (counts and the first names), not reported host by host.
///
/// \threads Every call here may be made from several threads at once (no
/// global state; hwloc parses in the calling thread unless a sandbox is
/// given, which must then allow it); const calls on one AssemblyIssue too.
/// \cost Assembling: reading the sources (O(their size); each distinct
/// export parsed by hwloc once), matching names (O(hosts log hosts)) and
/// ClusterBuilder::build. Every call throws std::bad_alloc besides what it
/// says.
#pragma once

#include "nettopo/fabric/fabric.hpp"
#include "nettopo/fabric/rails.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/hwloc/host_exports.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/model/machine_type.hpp"
#include "nettopo/support/error.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// How assemble_cluster joins the sources.
struct AssembleOptions {
    std::string name;                           ///< cluster name; empty: the fabric's file stem
    NodeLevel node_level;                       ///< for every machine type
    LevelLatencyOverrides level_latencies;      ///< set over every machine type's latency table
    std::optional<std::string> default_machine; ///< synthetic description for fabric hosts
                                                ///< without an hwloc export
    /// Latency per link kind when the source gives none; an override replaces
    /// the source's value too. Kinds host-switch and switch-switch apply (a
    /// host-to-host cable counts as host-switch).
    LinkClasses defaults = LinkClasses::defaults();
    /// Latency per link kind that replaces the sources' (set_latency_override).
    std::array<std::optional<double>, link_class_count> latency_override{};
    bool hosts_only = false; ///< no fabric: every host on one switch "flat"
    bool strict = false;     ///< problems are errors, not warnings
    BuildOptions build;      ///< what the built cluster is checked for
    /// Where hwloc parses the hosts' exports and diffs and default_machine:
    /// through this sandbox if set, else in the calling thread
    /// (hwloc_sandbox.hpp).
    const HwlocSandbox* hwloc_sandbox = nullptr;
    /// How the hosts' exports are read (assemble_from_files): the whole
    /// machine or its allowed PUs, and how a host is named (host_exports.hpp).
    PuScope pu_scope = PuScope::whole_machine;
    HostNaming host_naming = HostNaming::automatic; ///< how an export names its host
    /// How an ibnetdiscover dump's switches are named (fabric.hpp): by their
    /// descriptions where unique, else by GUID; a node-name map wins.
    SwitchNaming switch_naming = SwitchNaming::description;
};

/// One kind of mismatch, with every name it concerns.
struct AssemblyIssue {
    std::string noun;               ///< "host", counted: "1 host", "5 hosts"
    std::string what;               ///< "in the fabric without an hwloc export, left out"
    std::vector<std::string> names; ///< every name concerned, in natural order
    Remedy remedy = Remedy::none;   ///< the option that would settle it, if one would
    /// "12 hosts in the fabric ...: node[001-010],fh1 and 4 more". A non-empty
    /// `aside` goes in parentheses after `what`: a program says there how its
    /// users apply the remedy. O(shown).
    std::string summary(std::string_view aside = {}, std::size_t shown = 8) const;
};

/// What assembling gives: the cluster and what did not match.
struct Assembly {
    Cluster cluster;                   ///< the assembled cluster
    std::vector<AssemblyIssue> issues; ///< empty when everything matched
    /// Worth knowing, not mismatches (strict ignores them): the switches' own
    /// adapters (SHARP aggregation nodes) the fabric left out of the hosts,
    /// exports restricted to some PUs (Remedy::allowed_only when modelled
    /// whole), exports named after their files because they claim one
    /// HostName (Remedy::host_naming).
    std::vector<AssemblyIssue> notes;
    std::vector<std::string> defaulted_hosts; ///< fabric hosts given options.default_machine
    /// What is wrong with the fabric itself, whatever the exports say
    /// (strict ignores them; a check counts them as problems): adapters
    /// whose descriptions name no host (one issue per description: each
    /// became a host named after its GUID), a fabric without a link.
    std::vector<AssemblyIssue> fabric_problems = {};
    /// The fabric's rails (rails.hpp): inferred from its adapters whatever
    /// the exports say; empty without a fabric or without rail hosts.
    Rails rails = {};
};

/// What assemble_cluster throws when AssembleOptions::strict and the sources
/// disagree: "the sources disagree; 6 hosts in the fabric ...: ...; ...",
/// and the issues as data, for a program to word them its own way.
/// \cost Making one writes its message, O(8 names an issue); copying copies
/// the issues (std::bad_alloc at worst); issues() is O(1) and throws nothing.
class AssemblyMismatchError : public InputError {
public:
    /// The error for `issues` (its message lists them).
    explicit AssemblyMismatchError(std::vector<AssemblyIssue> issues);
    /// The issues, as data.
    const std::vector<AssemblyIssue>& issues() const { return issues_; }

private:
    std::vector<AssemblyIssue> issues_;
};

/// Parses "KIND=NS" (as parse_link_class_setting, for the kinds a discovered
/// fabric has) into an override; ValueError on bad text, `options`
/// unchanged. O(length).
void set_latency_override(AssembleOptions& options, std::string_view kind_equals_ns);

/// Hosts whose trees are already in memory, each tree once however many hosts
/// have it: what a gather over the hosts themselves brings (identical
/// machines travel once), so that memory grows with the kinds of machines plus
/// the hosts, not with the hosts' trees.
struct GatheredHosts {
    /// A host and the tree it has.
    struct Host {
        std::string name;   ///< as a fabric names it
        std::uint32_t tree; ///< index into `trees`
        /// Where the tree was read: it names the machine type as an export's
        /// file does ("hwloc:" and its last path component), e.g. the host.
        std::string source;
        /// Its devices' identities (HwlocMachine::identities), empty if unknown.
        std::vector<DeviceIdentity> identities = {};
    };
    std::vector<MachineTree> trees; ///< each distinct tree once
    std::vector<Host> hosts;        ///< distinct names
};

/// Where a real cluster's description comes from.
struct ClusterSources {
    std::vector<std::string> hosts; ///< hwloc exports: files and directories
    /// ibnetdiscover outputs, one per InfiniBand subnet (merge_fabrics), or none
    std::vector<std::string> ibnetdiscover;
    std::string slurm;              ///< Slurm topology.conf / topology.yaml, or empty
    std::string node_name_map = {}; ///< ibnetdiscover's node-name map, or empty
    /// Hosts already gathered, in place of (never with) `hosts`; not owned.
    const GatheredHosts* gathered = nullptr;
};

/// Reads the sources and assembles them: one fabric, Slurm's or the
/// ibnetdiscover dumps merged (else UsageError); the node-name map names
/// the nodes of every dump (UsageError without a dump). An hwloc export that
/// does not read (truncated, malformed) is left out with an issue naming its
/// file and line, its host then taking the default machine or reported
/// missing; with AssembleOptions::strict it is the InputError it was. Unnamed
/// (AssembleOptions::name empty), the cluster is named after the fabric's
/// file stem, else after the first `hosts` path's. A source that does not
/// read is an InputError naming its file; then what assemble_cluster throws.
Assembly assemble_from_files(const ClusterSources& sources, const AssembleOptions& options);

/// Hosts are matched with the fabric's by name; a short name matches a fully
/// qualified one ("node01" = "node01.cluster.local", either side holding
/// either) unless it would match several, which is an issue, not a guess.
///
/// Throws UsageError for contradictory requests (no fabric without
/// hosts_only, a fabric with it) and when no machine is left (with
/// Remedy::hosts_or_default_machine), AssemblyMismatchError when `strict` and
/// there are issues, InputError when the result is disconnected (unless
/// allowed, see ClusterBuilder::build).
Assembly assemble_cluster(const std::vector<HostExport>& hosts, const Fabric* fabric,
                          const AssembleOptions& options);

/// assemble_cluster for hosts that share their trees: an archive equal to the one the
/// hosts' exports would give (types named after the first host of each kind
/// by natural name order). UsageError if a host names no tree of `hosts`.
Assembly assemble_gathered(const GatheredHosts& hosts, const Fabric* fabric,
                           const AssembleOptions& options);

} // namespace nettopo
