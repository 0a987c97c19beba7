// The binary image (image.hpp): records in a fixed order, each read straight
// into the vector the model keeps, checked, and handed to the model's
// from_arrays/from_parts, which check what the records alone cannot.
#include "nettopo/formats/image.hpp"

#include "nettopo/query/detail/kept_index.hpp"
#include "nettopo/support/detail/array_file.hpp"
#include "nettopo/support/detail/atomic_file.hpp"
#include "nettopo/support/error.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <sys/stat.h>

namespace nettopo {

namespace {

constexpr std::uint32_t byte_order_mark = 0x01020304u;

// The first record. No padding: the file's bytes are the same every time.
struct Head {
    std::uint32_t version, byte_order;
    std::uint64_t network_checksum;
    std::uint64_t source_size;
    std::int64_t source_mtime_ns;
    std::uint32_t has_source, connected, has_index, reserved;
};
static_assert(sizeof(Head) == 48);

struct Counts {
    std::uint32_t machines, switches, types, runs;
};

constexpr std::uint32_t head_tag = array_tag("NTIM"), name_tag = array_tag("NAME"),
                        family_tag = array_tag("FAML"), counts_tag = array_tag("CNTS"),
                        type_description_tag = array_tag("TDSC"), type_tree_tag = array_tag("TSIG"),
                        type_latency_tag = array_tag("TLAT"), type_node_tag = array_tag("TNOD"),
                        runs_tag = array_tag("RUNS"), links_tag = array_tag("LINK"),
                        offsets_tag = array_tag("CSOF"), targets_tag = array_tag("CSTG"),
                        latencies_tag = array_tag("CSLA"), link_ids_tag = array_tag("CSLI"),
                        forwards_tag = array_tag("CSFW"), end_tag = array_tag("END."),
                        identity_offsets_tag = array_tag("IDOF"),
                        identity_devices_tag = array_tag("IDDV"),
                        identity_lengths_tag = array_tag("IDLN"),
                        identity_text_tag = array_tag("IDTX"),
                        attachment_offsets_tag = array_tag("ATOF"),
                        attachment_lengths_tag = array_tag("ATLN"),
                        attachment_text_tag = array_tag("ATTX"),
                        attachment_guids_tag = array_tag("ATGU"),
                        attachment_ports_tag = array_tag("ATPO"),
                        attachment_peers_tag = array_tag("ATPE");

constexpr std::uint32_t no_node_type = 0xffffffffu;
constexpr std::uint64_t max_text = std::uint64_t{1} << 20; // names, specs, descriptions
constexpr std::uint64_t max_tree_text = std::uint64_t{1} << 28;

template <class T> std::span<const T> one(const T& v) {
    return {&v, 1};
}

void write_names(ArrayWriter& out, const NameTable& names, const char (&tags)[3][5]) {
    out.text(array_tag(tags[0]), names.pool());
    out.array(array_tag(tags[1]), names.offsets());
    out.array(array_tag(tags[2]), names.sorted_index());
}

NameTable read_names(ArrayReader& in, std::uint32_t count, const char (&tags)[3][5]) {
    std::string pool = in.text(array_tag(tags[0]));
    auto offsets = in.array<std::uint64_t>(array_tag(tags[1]), std::uint64_t{count} + 1);
    auto sorted = in.array<std::uint32_t>(array_tag(tags[2]), count);
    if (offsets.size() != std::uint64_t{count} + 1) in.fail(array_tag(tags[1]), "has a bad size");
    try {
        return NameTable::from_arrays(std::move(pool), std::move(offsets), std::move(sorted));
    } catch (const ValueError& e) {
        in.fail(array_tag(tags[0]), e.what());
    }
}

constexpr char machine_name_tags[3][5] = {"MNPL", "MNOF", "MNSX"};
constexpr char switch_name_tags[3][5] = {"SNPL", "SNOF", "SNSX"};

// Links with their padding zeroed, so that equal clusters give equal files.
std::vector<Link> links_without_padding(std::span<const Link> links) {
    std::vector<Link> out(links.size());
    // An empty vector's data() may be null, which memset may not be given
    // (UBSan, on a one-machine cluster's image).
    if (!out.empty()) std::memset(static_cast<void*>(out.data()), 0, out.size() * sizeof(Link));
    for (std::size_t i = 0; i < links.size(); ++i) {
        out[i].a = links[i].a;
        out[i].b = links[i].b;
        out[i].latency_ns = links[i].latency_ns;
        out[i].bandwidth_gbps = links[i].bandwidth_gbps;
        out[i].multiplicity = links[i].multiplicity;
    }
    return out;
}

bool is_connected(const Network& net) {
    return connected_components(net).count <= 1 && !unreachable_machines(net);
}

// `other_ok`: an image another nettopo wrote (another version, another
// byte order) is returned as it is, for the caller to call it stale.
Head read_head(ArrayReader& in, bool other_ok = false) {
    if (in.file_size() < 8) in.fail("not a nettopo image (too short)");
    if (in.peek_tag() != head_tag) in.fail("not a nettopo image");
    const auto head = in.value<Head>(head_tag);
    if (other_ok && (head.byte_order != byte_order_mark || head.version != image_version))
        return head;
    if (head.byte_order != byte_order_mark)
        in.fail("a nettopo image written on a machine of another byte order: rebuild it here");
    if (head.version != image_version)
        in.fail(fmt::format("a nettopo image of version {}; this nettopo reads version {}: "
                            "rebuild it from its archive",
                            head.version, image_version));
    if (head.has_source > 1 || head.connected > 1 || head.has_index > 1 || head.reserved != 0)
        in.fail(head_tag, "has bad flags");
    return head;
}

std::optional<FileStamp> source_of(const Head& h) {
    if (!h.has_source) return std::nullopt;
    return FileStamp{h.source_size, h.source_mtime_ns};
}

// `overrides` (the caller's) go into the table before the type orders it,
// and `asked` replaces an automatic node level, as when an archive is read.
MachineType read_type(ArrayReader& in, const LevelLatencyOverrides& overrides,
                      const NodeLevel& asked) {
    std::string description = in.text(type_description_tag, max_text);
    const std::string signature = in.text(type_tree_tag, max_tree_text);
    const auto latencies = in.value<LevelLatencies>(type_latency_tag);
    for (const double ns : latencies.ns)
        if (!std::isfinite(ns) || ns < 0) in.fail(type_latency_tag, "holds a bad latency");
    const auto node = in.value<std::uint32_t>(type_node_tag);
    NodeLevel level;
    if (node != no_node_type) {
        if (node >= object_type_count) in.fail(type_node_tag, "names no object type");
        level.type = static_cast<ObjectType>(node);
    }
    if (!level.type) level = asked;
    try {
        return MachineType(std::move(description), tree_from_signature(signature), level,
                           overrides.applied_to(latencies));
    } catch (const Error& e) {
        in.fail(type_tree_tag, fmt::format("does not hold a machine: {}", e.what()));
    }
}

} // namespace

FileStamp file_stamp(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw InputError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
    return {static_cast<std::uint64_t>(st.st_size),
            std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec};
}

// The offsets of a per-machine record (identities, attachments): none, or
// one per machine and one more, the last a count the file can hold.
std::vector<std::uint64_t> read_machine_offsets(ArrayReader& in, std::uint32_t tag,
                                                std::uint64_t machines) {
    auto offsets = in.array<std::uint64_t>(tag, machines + 1);
    if (!offsets.empty() && offsets.size() != machines + 1) in.fail(tag, "has a bad size");
    if (!offsets.empty() && offsets.back() > in.file_size()) in.fail(tag, "holds a bad count");
    return offsets;
}

// The machines' device identities (version 2): offsets by machine (none
// when no machine has any), each identity's device, the lengths of its three
// texts and the texts one after the other.
void write_identities(ArrayWriter& out, const Cluster& cluster) {
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint32_t> devices, lengths;
    std::string text;
    if (cluster.has_identities()) {
        offsets.push_back(0);
        for (std::uint32_t m = 0; m < cluster.num_machines(); ++m) {
            for (const DeviceIdentity& d : cluster.identities(MachineId(m))) {
                devices.push_back(d.device);
                for (const std::string* t : {&d.view, &d.name, &d.value}) {
                    lengths.push_back(static_cast<std::uint32_t>(t->size()));
                    text += *t;
                }
            }
            offsets.push_back(devices.size());
        }
    }
    out.array(identity_offsets_tag, std::span<const std::uint64_t>(offsets));
    out.array(identity_devices_tag, std::span<const std::uint32_t>(devices));
    out.array(identity_lengths_tag, std::span<const std::uint32_t>(lengths));
    out.text(identity_text_tag, text);
}

void read_identities(ArrayReader& in, Cluster& cluster) {
    auto offsets = read_machine_offsets(in, identity_offsets_tag, cluster.num_machines());
    const std::uint64_t count = offsets.empty() ? 0 : offsets.back();
    auto devices = in.array<std::uint32_t>(identity_devices_tag, count);
    auto lengths = in.array<std::uint32_t>(identity_lengths_tag, 3 * count);
    const std::string text = in.text(identity_text_tag, in.file_size());
    if (devices.size() != count || lengths.size() != 3 * count)
        in.fail(identity_devices_tag, "has a bad size");
    std::vector<DeviceIdentity> identities(count);
    std::size_t at = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        DeviceIdentity& d = identities[i];
        d.device = devices[i];
        std::string* const fields[] = {&d.view, &d.name, &d.value};
        for (std::size_t k = 0; k < 3; ++k) {
            const std::uint32_t n = lengths[3 * i + k];
            if (n > text.size() - at) in.fail(identity_text_tag, "is shorter than its lengths");
            fields[k]->assign(text, at, n);
            at += n;
        }
    }
    if (at != text.size()) in.fail(identity_text_tag, "is longer than its lengths");
    try {
        cluster.set_identity_parts(std::move(offsets), std::move(identities));
    } catch (const ValueError& e) {
        in.fail(identity_offsets_tag, e.what());
    }
}

// The machines' adapter attachments (version 3): offsets by machine (none
// when no machine has any), each device name's length and the names one
// after the other, the GUIDs, ports and peer vertices.
void write_attachments(ArrayWriter& out, const Cluster& cluster) {
    std::vector<std::uint64_t> offsets, guids;
    std::vector<std::uint32_t> lengths, ports, peers;
    std::string text;
    if (cluster.has_attachments()) {
        offsets.push_back(0);
        for (std::uint32_t m = 0; m < cluster.num_machines(); ++m) {
            for (const Attachment& a : cluster.attachments(MachineId(m))) {
                lengths.push_back(static_cast<std::uint32_t>(a.device.size()));
                text += a.device;
                guids.push_back(a.guid);
                ports.push_back(a.port);
                peers.push_back(a.peer.value);
            }
            offsets.push_back(lengths.size());
        }
    }
    out.array(attachment_offsets_tag, std::span<const std::uint64_t>(offsets));
    out.array(attachment_lengths_tag, std::span<const std::uint32_t>(lengths));
    out.text(attachment_text_tag, text);
    out.array(attachment_guids_tag, std::span<const std::uint64_t>(guids));
    out.array(attachment_ports_tag, std::span<const std::uint32_t>(ports));
    out.array(attachment_peers_tag, std::span<const std::uint32_t>(peers));
}

void read_attachments(ArrayReader& in, Cluster& cluster) {
    auto offsets = read_machine_offsets(in, attachment_offsets_tag, cluster.num_machines());
    const std::uint64_t count = offsets.empty() ? 0 : offsets.back();
    auto lengths = in.array<std::uint32_t>(attachment_lengths_tag, count);
    const std::string text = in.text(attachment_text_tag, in.file_size());
    auto guids = in.array<std::uint64_t>(attachment_guids_tag, count);
    auto ports = in.array<std::uint32_t>(attachment_ports_tag, count);
    auto peers = in.array<std::uint32_t>(attachment_peers_tag, count);
    if (lengths.size() != count || guids.size() != count || ports.size() != count ||
        peers.size() != count)
        in.fail(attachment_lengths_tag, "has a bad size");
    std::vector<Attachment> attachments(count);
    std::size_t at = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        Attachment& a = attachments[i];
        if (lengths[i] > text.size() - at)
            in.fail(attachment_text_tag, "is shorter than its lengths");
        a.device.assign(text, at, lengths[i]);
        at += lengths[i];
        a.guid = guids[i];
        a.port = ports[i];
        a.peer = VertexId(peers[i]);
    }
    if (at != text.size()) in.fail(attachment_text_tag, "is longer than its lengths");
    try {
        cluster.set_attachment_parts(std::move(offsets), std::move(attachments));
    } catch (const ValueError& e) {
        in.fail(attachment_offsets_tag, e.what());
    }
}

std::uint64_t save_image(const Cluster& cluster, const DistanceIndex* index,
                         const std::string& path, std::optional<FileStamp> source) {
    if (index) require_keepable(*index); // before the file is begun
    const Network& net = cluster.network();
    Head head{image_version,
              byte_order_mark,
              network_checksum(net),
              source ? source->size : 0,
              source ? source->mtime_ns : 0,
              source.has_value(),
              is_connected(net),
              index != nullptr,
              0};
    std::uint64_t bytes = 0;
    write_atomically(path, [&](std::ostream& stream) {
        ArrayWriter out(stream);
        out.array(head_tag, one(head));
        out.text(name_tag, cluster.name());
        out.text(family_tag, cluster.family());
        out.array(counts_tag,
                  one(Counts{cluster.num_machines(), cluster.num_switches(), cluster.num_types(),
                             static_cast<std::uint32_t>(cluster.runs().size())}));
        for (std::uint32_t t = 0; t < cluster.num_types(); ++t) {
            const MachineType& type = cluster.type(TypeId(t));
            out.text(type_description_tag, type.description());
            out.text(type_tree_tag, type.tree().signature());
            out.array(type_latency_tag, one(type.latencies()));
            const auto& requested = type.requested_node_level().type;
            out.array(type_node_tag,
                      one(requested ? static_cast<std::uint32_t>(*requested) : no_node_type));
        }
        out.array(runs_tag, cluster.runs());
        write_names(out, cluster.machine_names(), machine_name_tags);
        write_names(out, cluster.switch_names(), switch_name_tags);
        out.array(links_tag, links_without_padding(net.links()));
        out.array(offsets_tag, net.csr_offsets());
        out.array(targets_tag, net.csr_targets());
        out.array(latencies_tag, net.csr_latencies_ps());
        out.array(link_ids_tag, net.csr_link_ids());
        out.array(forwards_tag, net.forward_flags());
        write_identities(out, cluster);
        write_attachments(out, cluster);
        if (index) write_kept_index(*index, cluster, out);
        out.array(end_tag, one(std::uint32_t{0}));
        bytes = out.size();
    });
    return bytes;
}

ImageHeader read_image_header(const std::string& path) {
    ArrayReader in(path);
    const Head head = read_head(in, true);
    if (head.byte_order != byte_order_mark || head.version != image_version)
        return {0, {}, false, false};
    return {head.network_checksum, source_of(head), head.has_index != 0, true};
}

Image read_image(const std::string& path, bool allow_disconnected, ImageIndex index_use,
                 const LevelLatencyOverrides& level_latencies, const NodeLevel& node_level) {
    ArrayReader in(path);
    const Head head = read_head(in);
    if (!head.connected && !allow_disconnected)
        throw InputError(fmt::format("{}: the network is not connected (the image was written "
                                     "from a cluster whose pieces were allowed)",
                                     path),
                         Remedy::allow_disconnected);
    std::string name = in.text(name_tag, max_text);
    std::string family = in.text(family_tag, max_text);
    const auto counts = in.value<Counts>(counts_tag);
    // Every type takes four records of at least 24 bytes: a count the file
    // cannot hold is refused before anything is reserved for it.
    if (counts.types == 0 || counts.types > in.file_size() / 96)
        in.fail(counts_tag, "has a bad number of machine types");
    std::vector<MachineType> types;
    types.reserve(counts.types);
    for (std::uint32_t t = 0; t < counts.types; ++t)
        types.push_back(read_type(in, level_latencies, node_level));
    auto runs = in.array<Cluster::Run>(runs_tag, counts.runs);
    if (runs.size() != counts.runs) in.fail(runs_tag, "has a bad size");
    NameTable machine_names = read_names(in, counts.machines, machine_name_tags);
    NameTable switch_names = read_names(in, counts.switches, switch_name_tags);
    // The network's arrays stay in the mapped file: nothing copied, and the
    // pages of a file read before are used as the page cache holds them.
    const std::uint64_t vertices = std::uint64_t{counts.machines} + counts.switches;
    Network::Arrays arrays;
    arrays.links = in.view<Link>(links_tag);
    arrays.offsets = in.view<std::uint32_t>(offsets_tag, vertices + 1);
    arrays.targets = in.view<VertexId>(targets_tag, 2 * std::uint64_t{arrays.links.size()});
    arrays.latencies_ps = in.view<std::int64_t>(latencies_tag, arrays.targets.size());
    arrays.link_ids = in.view<std::uint32_t>(link_ids_tag, arrays.targets.size());
    arrays.forwards = in.array<std::uint8_t>(forwards_tag, counts.machines);
    arrays.keep_alive = in.mapping();
    std::optional<Cluster> cluster;
    try {
        Network net = Network::from_arrays(counts.machines, counts.switches, std::move(arrays));
        cluster =
            Cluster::from_parts(std::move(name), std::move(family), std::move(types), runs,
                                std::move(machine_names), std::move(switch_names), std::move(net));
    } catch (const ValueError& e) {
        in.fail(links_tag, fmt::format("and its neighbours do not make a cluster: {}", e.what()));
    }
    read_identities(in, *cluster);
    read_attachments(in, *cluster);
    Image image{std::move(*cluster), nullptr, head.network_checksum, source_of(head)};
    if (head.has_index && index_use == ImageIndex::read) {
        const std::uint64_t kept = kept_index_network(in);
        image.index = read_kept_index(image.cluster, head.network_checksum, kept, in);
    } else if (head.has_index) {
        return image; // the rest is the index, not read
    }
    if (in.value<std::uint32_t>(end_tag) != 0 || !in.at_end())
        in.fail(end_tag, "is not where the image ends");
    return image;
}

std::unique_ptr<DistanceIndex> read_image_index(const std::string& path, const Cluster& cluster,
                                                std::uint64_t cluster_network_checksum) {
    ArrayReader in(path);
    const Head head = read_head(in);
    if (!head.has_index) return nullptr;
    // Past the model, unread: only the index is wanted.
    for (std::uint32_t tag; (tag = in.peek_tag()) != 0 && tag != kept_index_tag;) in.skip(tag);
    const std::uint64_t kept = kept_index_network(in);
    return read_kept_index(cluster, cluster_network_checksum, kept, in);
}

bool looks_like_image(std::string_view head) {
    // The first record's tag and element size: "NTIM" and 48, no text file's start.
    const std::uint32_t start[2] = {head_tag, sizeof(Head)};
    return head.size() >= 8 && std::memcmp(head.data(), start, 8) == 0;
}

std::string sibling_image_path(const std::string& archive_path) {
    std::filesystem::path p(archive_path);
    p.replace_extension(image_extension);
    return p.string();
}

} // namespace nettopo
