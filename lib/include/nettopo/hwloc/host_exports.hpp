/// \file
/// Per-host hwloc exports: full XML (v1 or v2, as hwloc 2.9 loads them, or
/// v3, as load_hwloc_xml reads it) and hwloc topology diffs
/// (`<topologydiff refname="node001.xml">`) applied to their reference host
/// with hwloc's diff API.
/// \threads load_host_exports may be called from several threads at once (a
/// sandbox given must allow it).
/// \cost O(the files' size) plus hwloc's load of each export; it throws
/// std::bad_alloc besides what it says.
#pragma once

#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/tree/machine_tree.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nettopo {

class HwlocSandbox; // hwloc_sandbox.hpp

/// How an export's host is named. automatic: the export's HostName, else the
/// file's stem ("node001.xml", "node003.diff.xml": node001, node003); exports
/// that claim one HostName are named after their files when their stems are
/// distinct host names (exports copied between hosts keep the HostName of
/// the host they were made on). export_name: the HostName (the stem only for
/// an export without one). file_name: the stem.
enum class HostNaming : std::uint8_t {
    automatic,   ///< the HostName, else (or when claimed twice) the file's stem
    export_name, ///< the HostName
    file_name,   ///< the file's stem
};

/// How load_host_exports reads the exports.
struct HostExportOptions {
    HostNaming naming = HostNaming::automatic; ///< how a host is named
    PuScope pu_scope = PuScope::whole_machine; ///< what of each machine is modelled
    /// When set, an export that does not read (truncated, malformed, refused
    /// by hwloc: an InputError) is left out and its message ("FILE:LINE:
    /// ...") appended here, keyed by the file's stem; else it is thrown.
    std::vector<std::pair<std::string, std::string>>* unreadable = nullptr;
};

/// One host's export, loaded.
struct HostExport {
    std::string name;                 ///< as HostExportOptions::naming says
    MachineTree tree;                 ///< the host's tree
    std::string source;               ///< the file it came from
    std::string export_hostname = {}; ///< the export's HostName info; empty if absent
    AllowedPus allowed = {}; ///< the PUs the export allowed (all, unless made inside a job)
    /// Named after its file because another export claims the same HostName.
    bool renamed = false;
    /// Its devices' identities (HwlocMachine::identities).
    std::vector<DeviceIdentity> identities = {};
};

/// `paths`: files and directories (every *.xml inside, sorted by name). A diff's
/// reference is looked up beside it by its refname. Every file is parsed as XML
/// in this thread; hwloc's work (loading an export, applying a diff) runs in
/// this thread too, or through `sandbox` if given, once per file
/// (hwloc_sandbox.hpp). Errors are InputError naming the file (nettopo::Error
/// itself when hwloc cannot initialise). Two exports the naming rule gives
/// one host name are an InputError naming both files.
std::vector<HostExport> load_host_exports(const std::vector<std::string>& paths,
                                          const HwlocSandbox* sandbox = nullptr,
                                          const HostExportOptions& options = {});

} // namespace nettopo
