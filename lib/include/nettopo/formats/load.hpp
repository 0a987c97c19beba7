/// \file
/// Loads a cluster from whatever the user points at, recognised by content:
/// a nettopo archive, a text description, or an hwloc XML export of one machine.
///
/// \threads Every call here may be made from several threads at once (each
/// reads its own file into its own cluster; no global state; a sandbox or
/// Progress given must allow it).
/// \cost Loading allocates the cluster and costs O(size of the input) plus
/// ClusterBuilder::build. The loaders throw InputError for bad data (naming
/// the file, and the line where the format has lines), nettopo::Error
/// itself when hwloc fails (cannot initialise or discover), or
/// std::bad_alloc.
#pragma once

#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/model/progress.hpp"
#include "nettopo/query/distance_index.hpp"

#include <memory>
#include <string>

namespace nettopo {

class HwlocSandbox; // nettopo/hwloc/hwloc_sandbox.hpp

/// How every reader builds what it reads.
struct LoadOptions {
    BuildOptions build;   ///< what the built cluster is checked for
    NodeLevel node_level; ///< applies where the input does not choose one
    /// Set over every machine type's latency table, whatever the input: an
    /// hwloc export, this machine, a synthetic string, a description (after
    /// its `lat.TYPE=NS` options), an archive, an image.
    LevelLatencyOverrides level_latencies;
    Progress* progress = nullptr; ///< told how far reading has come, if set
    /// Where hwloc parses what the input holds for it (an hwloc XML export,
    /// the synthetic descriptions of a text description): through this
    /// sandbox if set, else in the calling thread (see hwloc_sandbox.hpp).
    const HwlocSandbox* hwloc_sandbox = nullptr;
    /// An hwloc XML export, this machine: the whole machine, or only the PUs
    /// it allowed (hwloc_source.hpp). Archives and descriptions keep what they hold.
    PuScope pu_scope = PuScope::whole_machine;
};

/// What a file holds, as load_cluster recognises it.
enum class InputKind {
    Archive,     ///< a nettopo XML archive
    Description, ///< a text description
    HwlocXml,    ///< an hwloc XML export of one machine
    Image,       ///< a nettopo binary image
};

/// What `path` holds, from its first bytes. Throws InputError if the file
/// cannot be read, or is a source of an assembly (as load_cluster). O(1)
/// (reads the head only).
InputKind detect_input_kind(const std::string& path);
/// "archive", "description", ...: the words of messages. O(1), throws nothing.
const char* to_string(InputKind kind);

/// Reads `path` as what detect_input_kind says it is; a `path` that names no
/// file, holds a ':' and no '/' is an hwloc synthetic description instead
/// ("pack:2 core:4 pu:2", as lstopo -i takes it), a one-machine cluster. Throws InputError naming
/// the file (and the line, where the format has lines). A source of an
/// assembly (assemble.hpp) is refused as what it is, with the Remedy of the
/// ClusterSources field that reads it: an ibnetdiscover dump
/// (Remedy::read_as_ibnetdiscover), a Slurm topology.conf or topology.yaml
/// (read_as_slurm), each at the line that shows it, an hwloc topology diff
/// (read_as_host_export). Safe in a threaded
/// program: it forks nothing, hwloc runs in the calling thread unless
/// options.hwloc_sandbox says otherwise.
Cluster load_cluster(const std::string& path, const LoadOptions& options = {});
/// A cluster and the distance index kept for it, if any.
struct LoadedTopology {
    Cluster cluster;                                 ///< what was loaded
    std::shared_ptr<const DistanceIndex> kept_index; ///< null when none was kept
    std::string image;       ///< the binary image read (given, or beside the archive), if any
    std::string stale_image; ///< an image beside the archive that no longer stands for it
};

/// load_cluster, with binary images (image.hpp): an image gives its cluster
/// and its kept index. An archive with an image beside it
/// (sibling_image_path) that records the archive's present size and
/// modification time is read from that image instead (the archive is not
/// parsed); when the image records another stamp, the archive is read, and
/// the image's kept index used if the network still has the checksum it was
/// built for, else `stale_image` names the image. A damaged image is an
/// InputError naming it, never passed over silently.
LoadedTopology load_topology(const std::string& path, const LoadOptions& options = {});

/// This machine through hwloc, as a one-machine cluster: hwloc's discovery
/// (milliseconds to a second), in the calling thread. nettopo::Error when
/// hwloc fails; InputError when the machine breaks the model's rules.
Cluster discover_cluster(const LoadOptions& options = {});

} // namespace nettopo
