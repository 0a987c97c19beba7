/// \file
/// Builds a Cluster from a synthetic Family: every machine an instance of one
/// shared machine type, every link given the latency and bandwidth of its class.
///
/// \threads Every call here may be made from several threads at once (no
/// global state; hwloc parses in the calling thread unless a sandbox is
/// given; a HwlocSandbox shared by threads must allow it).
/// \cost Generating costs O(machines + switches + links), with the links
/// sorted once (O(E log E)). Every call throws std::bad_alloc besides what
/// it says.
#pragma once

#include "nettopo/families/family.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/model/progress.hpp"
#include "nettopo/support/limits.hpp"

#include <array>
#include <string>
#include <string_view>

namespace nettopo {

class HwlocSandbox; // nettopo/hwloc/hwloc_sandbox.hpp

/// The latency and bandwidth of one class of links.
struct LinkSpec {
    double latency_ns = 0;     ///< the latency, ns
    double bandwidth_gbps = 0; ///< 0: unknown
};

/// Per link class. The defaults (share/doc/generators.md) are orders of
/// magnitude of a current InfiniBand-class fabric, not measurements.
/// \cost A value: O(1) calls, no allocation, nothing thrown. Its values are
/// not checked here: generate refuses what the builder refuses.
/// \threads Const calls from several threads at once are safe; the
/// non-const operator[] needs the object to itself.
struct LinkClasses {
    std::array<LinkSpec, link_class_count> of{}; ///< indexed by LinkClass

    /// The defaults of share/doc/generators.md.
    static LinkClasses defaults();
    /// Every class the same: the thesis' unit links are uniform(1, 0).
    static LinkClasses uniform(double latency_ns, double bandwidth_gbps);
    /// Class `c`, to set it.
    LinkSpec& operator[](LinkClass c) { return of[static_cast<std::size_t>(c)]; }
    /// Class `c`.
    const LinkSpec& operator[](LinkClass c) const { return of[static_cast<std::size_t>(c)]; }
};

/// Parses "KIND=VALUE" (KIND one of host-switch, switch-switch, local, global,
/// or "all"), a latency (ns) or bandwidth (Gbit/s) for the classes it names;
/// set_link_class applies it. ValueError on bad text ("'uplink=5': unknown link
/// kind ..."). One parser for every latency and bandwidth setting. O(length).
enum class LinkField {
    Latency,   ///< a latency, ns
    Bandwidth, ///< a bandwidth, Gbit/s
};
/// A "KIND=VALUE" setting, read.
struct LinkClassSetting {
    std::array<bool, link_class_count> applies{}; ///< the classes KIND names
    double value = 0;                             ///< the value
};
/// Reads "KIND=VALUE" as the comment of LinkField says; ValueError on bad
/// text. O(length).
LinkClassSetting parse_link_class_setting(LinkField field, std::string_view kind_equals_value);
/// Reads "KIND=VALUE" and sets `field` of the classes it names in `classes`;
/// ValueError on bad text, leaving `classes` unchanged. O(length).
void set_link_class(LinkClasses& classes, LinkField field, std::string_view kind_equals_value);

/// The machine inside every generated host, unless the user gives one: two
/// sockets of 8 cores with 2 threads, private L1 and L2, an L3 per socket.
inline constexpr std::string_view default_machine = "pack:2 l3:1 l2:8 l1:1 core:1 pu:2";

/// The machine type generated hosts share: from an hwloc synthetic description,
/// or from a file holding exactly one machine type (an hwloc XML export, or a
/// nettopo archive or description of one type). hwloc parses in the calling
/// thread, or through `hwloc_sandbox` if given (hwloc_sandbox.hpp). ValueError
/// for a description that does not read; InputError for a file. An hwloc
/// export is its whole machine, or the PUs it allowed (`scope`, hwloc_source.hpp).
/// \cost hwloc's build of the description, O(objects), in a round trip to
/// the sandbox when given, plus MachineType's O(objects).
MachineType synthetic_machine(std::string_view description, NodeLevel node_level,
                              const HwlocSandbox* hwloc_sandbox = nullptr);
/// The machine type of the file at `path` (see synthetic_machine): InputError
/// naming the file. O(the file's size).
MachineType machine_from_file(const std::string& path, NodeLevel node_level,
                              const HwlocSandbox* hwloc_sandbox = nullptr,
                              PuScope scope = PuScope::whole_machine);

/// The machine the thesis' presets use: one PU, as every vertex of its generator.
inline constexpr std::string_view preset_machine = "pu:1";
/// And its unit links.
inline constexpr double preset_latency_ns = 1;

/// How generate builds a cluster.
struct GenerateOptions {
    std::string name;                            ///< cluster name; empty: the family's spec
    LinkClasses links = LinkClasses::defaults(); ///< latency and bandwidth of each link class
    /// Set over the machine type's latency table (whatever table it came with).
    LevelLatencyOverrides level_latencies;
    Progress* progress = nullptr; ///< told how far building has come, if set
    /// Where hwloc parses generate_from_spec's --machine: through this sandbox
    /// if set, else in the calling thread (hwloc_sandbox.hpp).
    const HwlocSandbox* hwloc_sandbox = nullptr;
    /// Machines + switches, links and the memory estimate
    /// (estimated_generation_bytes) are held to these before anything is built.
    Limits limits;
};

/// An up-front estimate of the memory generating `family` and writing it takes
/// (the builder's pending links and the cluster's arrays at their peak, from
/// the family's counts; measured in share/doc/limits.md), so that a request
/// that would exhaust memory is refused at once, not after minutes. O(1).
std::uint64_t estimated_generation_bytes(const Family& family);

/// Throws UsageError when the PEs (machines x PUs of the type) do not fit the
/// ids, or when the family passes options.limits (with the limit's Remedy);
/// both before anything is allocated. InputError (no location) when
/// options.links holds a latency or bandwidth ClusterBuilder::add_link
/// refuses. Costs what the file's comment says.
Cluster generate(const Family& family, const MachineType& machine,
                 const GenerateOptions& options = {});

/// A cluster from one line of the cluster spec language: a family spec (as
/// family_from_spec reads it) with, anywhere among its options, --machine
/// DESCRIPTION (default_machine when absent), --latency KIND=NS and
/// --bandwidth KIND=GBPS (repeatable). Values may be quoted with ' or ".
/// E.g. "fat-tree --xgft \"1;16;1\" --machine 'core:8 pu:1' --bandwidth all=20".
/// UsageError on anything else; then what generate throws. O(length) to
/// read, plus synthetic_machine and generate.
Cluster generate_from_spec(std::string_view spec, const GenerateOptions& options = {});

} // namespace nettopo
