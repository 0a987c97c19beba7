/// \file
/// nettopo's binary image: a cluster as the arrays the model holds (the
/// network's links and adjacency, the name tables with their sorted index,
/// the machine types, the runs of machines), and optionally a distance index
/// built for it (query/detail/kept_index.hpp), so that a program loads a
/// million-machine cluster and answers its first distance in a fraction of a
/// second instead of parsing the XML archive and building again.
///
/// The XML archive stays the interchange format: an image is a cache of one,
/// tied to this library's image version and to this machine's byte order,
/// written beside its archive ("c.xml" -> "c.ntimg") or anywhere. It records
/// the size and modification time of the file it was made from, so readers
/// can tell whether it still stands for it. Layout: share/doc/archive-format.md
/// ("Binary image"); records as support/detail/array_file.hpp writes them, each with
/// its checksum.
///
/// The image is untrusted input: every count, offset and id is checked before
/// use, and the model's rules (links in order, latencies, bandwidths and cable
/// counts in range, names, types, runs); a damaged, truncated or foreign file
/// is an InputError naming it. What the writer derived from the links is
/// taken as written once its record's hash matches, since deriving it again
/// is the rebuild the image exists to skip (it doubled the 0.11 s load of a
/// 10^6-machine fat-tree): the adjacency's agreement with the links, the
/// connected flag and the network checksum that binds a kept index. Damage
/// cannot change them unseen (xxHash64 over each record); only a file forged
/// with its hashes recomputed could, and what it then gets wrong is answers
/// about its own network, never memory outside the mapping.
///
/// \threads Every call here may be made from several threads at once (on
/// distinct files; reading one image from several threads is safe too).
/// \cost Reading maps the file and costs O(its size) for the checksums and
/// checks (read_image_header: its first records); writing costs O(the
/// cluster's arrays + the index). The calls that read or write files throw
/// InputError naming the image for bad data, Error naming the file when it
/// cannot be written, std::bad_alloc; each says what else.
#pragma once

#include "nettopo/model/cluster.hpp"
#include "nettopo/query/distance_index.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace nettopo {

/// Readers refuse other versions: an image is rebuilt from its archive, never converted.
/// Version 2 holds the machines' device identities (Cluster::identities);
/// version 3 their adapters' attachments (Cluster::attachments).
inline constexpr std::uint32_t image_version = 3;
/// The extension of an image beside its archive.
inline constexpr std::string_view image_extension = ".ntimg";

/// Size and modification time of a file, as an image records its source.
struct FileStamp {
    std::uint64_t size = 0;                            ///< bytes
    std::int64_t mtime_ns = 0;                         ///< modification time, ns since the epoch
    bool operator==(const FileStamp&) const = default; ///< same size and time
};
/// Throws InputError naming `path` if it cannot be read. O(1): one stat.
FileStamp file_stamp(const std::string& path);

/// Writes `cluster` (and `index`, built for it, if given and kept) to `path`
/// atomically. `source`: the stamp of the archive it stands for, if any.
/// Throws UsageError when `index` is of a kind that is not kept (a row cache).
/// Returns the bytes written.
std::uint64_t save_image(const Cluster& cluster, const DistanceIndex* index,
                         const std::string& path, std::optional<FileStamp> source = std::nullopt);

/// What read_image returns.
struct Image {
    Cluster cluster;                      ///< the cluster
    std::unique_ptr<DistanceIndex> index; ///< null when none was kept, or not asked for
    std::uint64_t network_checksum = 0;   ///< network_checksum() of the cluster, as recorded
    std::optional<FileStamp> source;      ///< the archive it was made from, if recorded
};

/// What read_image reads of the kept index.
enum class ImageIndex { read, skip };

/// Reads an image. A cluster whose network is not connected is refused
/// (InputError with Remedy::allow_disconnected) unless `allow_disconnected`.
/// `level_latencies` are set over every machine type's latency table, as
/// load_cluster sets LoadOptions::level_latencies over an archive's (the kept
/// index, of distances between machines, does not depend on them).
/// `node_level`, when set, is every type's node level where the type's own
/// was automatic, as load_cluster applies LoadOptions::node_level to an
/// archive (the runs' first nodes follow).
Image read_image(const std::string& path, bool allow_disconnected = false,
                 ImageIndex index = ImageIndex::read,
                 const LevelLatencyOverrides& level_latencies = {},
                 const NodeLevel& node_level = {});

/// What an image records, read from its first records only.
struct ImageHeader {
    std::uint64_t network_checksum = 0; ///< network_checksum() of the cluster
    std::optional<FileStamp> source;    ///< the archive it was made from, if recorded
    bool has_index = false;             ///< whether it keeps a distance index
    /// Whether this nettopo reads it: false for an image of another version
    /// or byte order (the other fields are then empty: rebuild it).
    bool current = true;
};
/// Reads an image's header: O(1), its first records only. InputError naming
/// the file when it is not an image; an image of another version or byte
/// order is returned with current false.
ImageHeader read_image_header(const std::string& path);

/// The kept index of the image at `path`, for `cluster` (loaded from
/// elsewhere, its network checksum given): null when the image keeps none;
/// InputError naming the image when it was built for another network.
std::unique_ptr<DistanceIndex> read_image_index(const std::string& path, const Cluster& cluster,
                                                std::uint64_t cluster_network_checksum);

/// Whether the first bytes of a file are an image's. O(1), throws nothing.
bool looks_like_image(std::string_view head);

/// The image beside an archive: its name with the extension replaced
/// ("c.xml" -> "c.ntimg"; "c" -> "c.ntimg"). O(length); throws only
/// std::bad_alloc.
std::string sibling_image_path(const std::string& archive_path);

} // namespace nettopo
