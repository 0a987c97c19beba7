/// \file
/// Machine trees from hwloc: a synthetic description, an XML export of one
/// machine, or the machine we run on. All three go through one conversion of
/// an hwloc topology, so they agree with what lstopo shows.
///
/// \threads Every call here may be made from several threads at once (hwloc
/// keeps no global state the library shares); a sandbox given must allow it
/// (HwlocSandbox::run).
/// \cost hwloc's own load (microseconds for a synthetic description,
/// milliseconds for an export, up to a second for a live discovery) plus
/// O(objects) for the conversion; the calls allocate the tree. They throw
/// InputError for bad input, nettopo::Error itself when hwloc fails (cannot
/// initialise, discover or export a topology), or std::bad_alloc;
/// AllowedPus::restricted is O(1) and throws nothing.
#pragma once

#include "nettopo/tree/machine_tree.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

class HwlocSandbox; // hwloc_sandbox.hpp

/// What of a machine is modelled. An export made inside a batch job (Slurm
/// cgroups, a cpuset) allows the job's PUs only (its allowed_cpuset), yet it
/// describes the whole machine, whose topology does not depend on the job:
/// the whole machine is read by default (what `lstopo --disallowed` shows,
/// hwloc's HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED). allowed_only models the
/// PUs and NUMA nodes the export allowed, as hwloc reads it without that flag
/// (what plain `lstopo -i` shows).
enum class PuScope : std::uint8_t {
    whole_machine, ///< every PU of the machine
    allowed_only,  ///< the PUs and NUMA nodes the export (or process) was allowed
};

/// Which PUs an export (or this process) was allowed to use, whatever was modelled.
struct AllowedPus {
    std::uint32_t allowed = 0; ///< PUs allowed
    std::uint32_t machine = 0; ///< PUs of the whole machine
    std::string os_indexes;    ///< the allowed PUs' OS indexes in hwloc's list syntax ("0-1,4-7")
    /// Whether fewer PUs were allowed than the machine has.
    bool restricted() const { return allowed < machine; }
};

/// A machine as hwloc gave it.
struct HwlocMachine {
    MachineTree tree;        ///< the whole machine, or its allowed part (PuScope)
    std::string hostname;    ///< HostName info of the Machine object; empty if absent
    AllowedPus allowed = {}; ///< which PUs were allowed
    /// What tells this host's devices from an identical host's (GUIDs,
    /// UUIDs, addresses), by device: Cluster::identities of its machine.
    std::vector<DeviceIdentity> identities;
};

/// Validates the description itself first (clear message naming the bad
/// token), then lets hwloc build it: in this thread, or through `sandbox` if
/// given (hwloc_sandbox.hpp). nettopo's own last words `gpu:N` and `nic:N`
/// (0 to max_generated_devices each) are not hwloc's: they add devices as
/// with_generated_devices does (tree/generated_devices.hpp). Throws
/// InputError without location.
MachineTree tree_from_synthetic(std::string_view description,
                                const HwlocSandbox* sandbox = nullptr);

/// Loads an hwloc XML export (v1, v2 or v3 format). The file is parsed as XML
/// first (malformed XML is reported with its line, and what hwloc 2.9 is known
/// to crash on is refused), then by hwloc: in this thread, or through
/// `sandbox` if given (hwloc_sandbox.hpp). An hwloc 3 export the hwloc this
/// process runs with cannot read (older than 2.10) is converted in memory to
/// the 2.x form hwloc 3 writes for hwloc 2 (share/doc/hwloc3-exports.md).
/// Throws InputError naming the file: saying which PUs hwloc dropped when its
/// cpusets are inconsistent; naming the format, the hwloc it runs with and
/// how to re-export, for a format newer than 3.x; naming the line of an
/// element of a 3.0 export the conversion does not know.
/// Safe from several threads. hwloc built with plugins (Debian's) loads its
/// libxml2 plugin with its first topology and unloads it with its last; a
/// thread that loaded an export and exits after that unload leaks libxml2's
/// per-thread state (about 1 KB). Programs loading from many short-lived
/// threads keep one hwloc topology alive meanwhile.
HwlocMachine load_hwloc_xml(const std::string& path, const HwlocSandbox* sandbox = nullptr,
                            PuScope scope = PuScope::whole_machine);

/// The machine this process runs on: the whole machine by default, else the
/// PUs this process may use (its cgroup, its binding).
HwlocMachine discover_this_machine(PuScope scope = PuScope::whole_machine);

/// The release of the hwloc library this process runs with (not the one it was
/// built against), as "MAJOR.MINOR.PATCH": what hwloc records on a topology it
/// loads (a one-PU synthetic one, a few microseconds), else its API version
/// (hwloc_get_api_version()). Thread-safe; throws only std::bad_alloc.
std::string hwloc_runtime_version();

} // namespace nettopo
