/// \file
/// The inside of one machine: an hwloc-like tree stored as flat arrays in
/// depth-first pre-order, so the PUs below any object form one contiguous
/// range of logical PU indexes (as hwloc's logical order does).
#pragma once

#include "nettopo/support/ids.hpp"
#include "nettopo/support/limits.hpp"
#include "nettopo/tree/gpu_interconnect.hpp"
#include "nettopo/tree/io_devices.hpp"
#include "nettopo/tree/object_type.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// The OS index of an object whose source gives none.
inline constexpr std::uint32_t unknown_os_index = 0xffffffffu;

/// Deepest tree accepted: the declared nesting limit (support/limits.hpp).
/// Real machines have about a dozen levels; the cap keeps every recursive
/// walk (writer, show, hwloc conversion) within the stack whatever a
/// malformed file nests.
inline constexpr std::uint32_t max_tree_depth = max_nesting_depth;

/// Two depths: `depth` counts the object's ancestors (the common-ancestor
/// structures climb by it); `level_depth` is the depth of its level as hwloc
/// numbers levels (hwloc-info, lstopo), the same for every object of a type
/// whatever its branch: on a hybrid CPU a P-core's PU and an E-core's PU sit
/// at one level, though one has an L2 of its own and the other shares one.
struct TreeObject {
    ObjectType type;             ///< what the object is
    std::uint32_t depth;         ///< ancestors above it: 0 for the root Machine
    ObjectId parent;             ///< invalid for the root
    std::uint32_t os_index;      ///< unknown_os_index when the source has none
    std::uint64_t size_bytes;    ///< cache size; 0 when unknown or not a cache
    std::uint32_t level_depth;   ///< hwloc's depth of its level (0 for the root)
    std::uint32_t logical_index; ///< rank in its level over the whole machine, as hwloc's
    std::uint32_t first_pu;      ///< PUs below: [first_pu, first_pu + pu_count)
    std::uint32_t pu_count;      ///< how many PUs are below (itself, for a PU)
    std::uint32_t subtree_end;   ///< objects below: (id, subtree_end) in pre-order
};

/// Whether two objects of one tree hold a PU in common (their PU ranges
/// meet; an object without PUs meets none). O(1), throws nothing.
/// \threads A pure function: safe from several threads.
inline bool share_pus(const TreeObject& a, const TreeObject& b) {
    return a.pu_count > 0 && b.pu_count > 0 && a.first_pu < b.first_pu + b.pu_count &&
           b.first_pu < a.first_pu + a.pu_count;
}

/// NUMA nodes and memory-side caches are not ancestors of PUs (hwloc 2): they
/// hang off a CPU-side object, their locality.
struct MemoryObject {
    ObjectType type;          ///< NUMANode or MemCache
    ObjectId parent;          ///< its locality, a CPU-side object
    std::uint32_t os_index;   ///< unknown_os_index when the source has none
    std::uint64_t size_bytes; ///< local memory of a NUMA node, size of a memory-side cache
    /// Rank among the memory objects of its type, as hwloc numbers them: the
    /// memory of an object's children before its own.
    std::uint32_t logical_index;
};

/// One piece of information on a CPU kind, as hwloc names it: "CoreType" =
/// "IntelAtom", "FrequencyMaxMHz" = "2000", "LinuxCapacity" = "1024", ...
struct CpuKindInfo {
    std::string name;                                    ///< never empty
    std::string value;                                   ///< may be empty
    bool operator==(const CpuKindInfo&) const = default; ///< same name and value
};

/// The efficiency of a CPU kind that hwloc could not rank.
inline constexpr std::int32_t unknown_cpu_kind_efficiency = -1;

/// The fewest CPU kinds a tree keeps: one kind tells no PU from another.
/// hwloc reports a single kind on many homogeneous machines (from their
/// frequency infos); a tree has none there, so such hosts stay one machine
/// type and print what they printed before kinds.
inline constexpr std::size_t min_cpu_kinds = 2;

/// A kind of CPU core of a hybrid machine (performance and efficiency cores),
/// as hwloc's CPU kinds describe it (hwloc_cpukinds_get_info): identical PUs
/// share a kind, and hwloc ranks the kinds. A homogeneous machine has one
/// kind or none in hwloc, and none in a MachineTree (min_cpu_kinds).
struct CpuKind {
    /// hwloc's rank of the kind: 0 for the least powerful (and most
    /// energy-efficient) kind up to the number of kinds - 1 for the most
    /// powerful; unknown_cpu_kind_efficiency (-1) for every kind of a machine
    /// hwloc could not rank. A higher value means greater performance,
    /// whatever the word suggests (hwloc's doc/hwloc.doxy, "CPU Kinds"). The
    /// value hwloc reports, kept: where the tree models part of the machine
    /// (an export's allowed PUs), the kinds of the other PUs are left out and
    /// the ranks kept may skip one.
    std::int32_t efficiency = unknown_cpu_kind_efficiency;
    std::vector<CpuKindInfo> infos;                  ///< in hwloc's order
    bool operator==(const CpuKind&) const = default; ///< same efficiency and infos
};

/// One machine's tree (see the file's comment), made by MachineTree::Builder,
/// the hwloc adapter or tree_from_signature.
/// \threads Immutable once made: const calls from several threads at once are safe.
/// \cost Accessors are O(1) and allocate nothing (precondition: ids in
/// range); common_ancestor is O(height), level_name and level_name_at
/// O(levels), count, signature, operator== and pus_of_cpu_kind
/// O(objects). level_name, level_name_at, pus_of_cpu_kind and signature
/// allocate what they return. Nothing throws but std::bad_alloc.
class MachineTree {
public:
    class Builder;

    /// Objects of the tree (CPU side, PUs included; memory objects apart).
    std::size_t num_objects() const { return objects_.size(); }
    /// Object `id`.
    const TreeObject& object(ObjectId id) const { return objects_[id.value]; }
    /// All objects, in depth-first pre-order (the root first).
    std::span<const TreeObject> objects() const { return objects_; }
    /// The children of object `id`, in order.
    std::span<const ObjectId> children(ObjectId id) const;
    /// The memory objects (NUMA nodes, memory-side caches).
    std::span<const MemoryObject> memory() const { return memory_; }

    /// The machine's own relative latencies between its NUMA nodes, as hwloc
    /// reports them (its "NUMALatency" matrix: the firmware's SLIT, 10 for
    /// local memory, 21 across the sockets of a common server): row i, column
    /// j for the NUMA nodes of logical indexes i and j, count(NUMANode)^2
    /// values. Empty when the source gave none.
    std::span<const std::uint64_t> numa_distances() const { return numa_distances_; }

    /// The machine's CPU kinds (CpuKind), in hwloc's order: at least
    /// min_cpu_kinds, or empty (the source gave fewer). Every kind has at
    /// least one PU.
    std::span<const CpuKind> cpu_kinds() const { return cpu_kinds_; }
    /// The kind (an index into cpu_kinds()) of the PU of logical index `pu`;
    /// nullopt when the PU is in no kind (hwloc may describe some PUs only).
    std::optional<std::uint32_t> cpu_kind_of_pu(std::uint32_t pu) const {
        if (pu_kinds_.empty() || pu_kinds_[pu] == no_cpu_kind) return std::nullopt;
        return pu_kinds_[pu];
    }
    /// The PUs (logical indexes, ascending) of kind `kind`. O(PUs); allocates.
    std::vector<std::uint32_t> pus_of_cpu_kind(std::uint32_t kind) const;
    /// The PCI tree of the I/O devices (tree/io_devices.hpp), parents first.
    std::span<const PciObject> pci() const { return pci_; }
    /// The I/O devices (GPUs, network adapters...): GPUs first in their
    /// number's order, then the others in hwloc's order.
    std::span<const IoDevice> devices() const { return devices_; }
    /// hwloc's GPU interconnect matrices over the devices
    /// (tree/gpu_interconnect.hpp), in hwloc's order; empty without them.
    std::span<const Interconnect> interconnects() const { return interconnects_; }
    /// The device called `name` (its name, or any of its names: gpu2,
    /// cuda2, mlx5_0, ib0), or nullopt. O(devices x names).
    std::optional<std::uint32_t> find_device(std::string_view name) const;

    /// PUs of the machine.
    std::uint32_t num_pus() const { return static_cast<std::uint32_t>(pus_.size()); }
    /// The PU with this logical index (0..num_pus-1).
    ObjectId pu(std::uint32_t logical) const { return pus_[logical]; }
    /// How many objects of type `type` (memory objects included).
    std::uint32_t count(ObjectType type) const;

    /// Deepest object that contains both (the Ascend algorithm: climb the deeper
    /// one, then both, until they meet).
    ObjectId common_ancestor(ObjectId a, ObjectId b) const;

    /// hwloc's levels: level_depth 0 (the Machine) to num_levels() - 1 (the
    /// PUs), each holding the objects of one type (Groups: of one Group depth).
    std::uint32_t num_levels() const { return static_cast<std::uint32_t>(level_types_.size()); }
    /// The type of the objects of level `level_depth`.
    ObjectType level_type(std::uint32_t level_depth) const { return level_types_[level_depth]; }
    /// Objects in a level, numbered by logical index 0..level_size-1.
    std::uint32_t level_size(std::uint32_t level_depth) const { return level_sizes_[level_depth]; }

    /// Whether object `id` is a data cache (hwloc's L1dCache: lstopo prints
    /// "L1d") rather than a unified one ("L2") or no cache. Sources that do
    /// not say (descriptions, generated machines) make unified caches.
    /// O(log caches).
    bool is_data_cache(ObjectId id) const;
    /// The data caches' ids, ascending.
    std::span<const std::uint32_t> data_caches() const { return data_caches_; }

    /// The level's name as lstopo prints it: the type, except that the levels
    /// of Groups are Group0, Group1, ... from the root down.
    std::string level_name(ObjectId id) const;
    /// As level_name, for a level given by its depth.
    std::string level_name_at(std::uint32_t level_depth) const;

    /// Canonical text of the structure, equal for equal trees; used to share one
    /// machine type between identical hosts. It holds everything the tree is
    /// built from, so tree_from_signature() reads it back (a tree travels as
    /// its signature between processes of one build). The binary image keeps
    /// machine types as their signatures: a change of this text is a change of
    /// the image format and raises image_version (formats/image.hpp); a test
    /// pins the text of version 1. Optional sections follow, each only when
    /// the tree has what it holds: the NUMA distances ("|d:10,21,21,10"),
    /// the CPU kinds ("|k:0/0-1/CoreType:Small;1/2-3/CoreType:Big;": per
    /// kind its efficiency, its PUs, its infos percent-encoded), the I/O
    /// devices and GPU interconnect matrices ("|io:..."), the data caches
    /// ("|dc:3,7": their ids). Trees without them
    /// keep version 1's text, and images written before still read.
    std::string signature() const;

    /// Same objects with the same attributes (data caches included), in the
    /// same order, the same NUMA distances, the same CPU kinds over the same PUs, and the same
    /// PCI tree, devices and interconnect matrices.
    bool operator==(const MachineTree&) const;

private:
    /// Fills level_depth, logical_index and the level arrays (Builder::finish).
    static void number_levels(MachineTree& t);
    /// Fills MemoryObject::logical_index (Builder::finish, after subtree_end).
    static void number_memory(MachineTree& t);
    /// Checks the PCI tree, the devices and the interconnect matrices
    /// (Builder::finish). Throws InputError.
    static void check_io(const MachineTree& t);

    std::vector<TreeObject> objects_;
    std::vector<std::uint32_t> child_offsets_; ///< CSR over objects_
    std::vector<ObjectId> child_ids_;
    std::vector<ObjectId> pus_;
    std::vector<MemoryObject> memory_;
    std::vector<std::uint64_t> numa_distances_; ///< row-major over NUMA logical indexes
    /// pu_kinds_ entry of a PU in no kind.
    static constexpr std::uint32_t no_cpu_kind = 0xffffffffu;
    std::vector<CpuKind> cpu_kinds_;
    std::vector<std::uint32_t> pu_kinds_; ///< per logical PU; empty without kinds
    std::vector<PciObject> pci_;
    std::vector<IoDevice> devices_;
    std::vector<Interconnect> interconnects_;
    std::vector<std::uint32_t> data_caches_; ///< ascending object ids
    std::vector<ObjectType> level_types_;    ///< per level_depth
    std::vector<std::uint32_t> level_sizes_; ///< per level_depth
};

/// The tree whose signature() this is: equal (operator==) to the tree that
/// wrote it. Throws InputError when the text is not such a signature (a bad
/// number, an unknown type, a shape MachineTree::Builder refuses).
/// \cost O(length), plus Builder::finish's O(objects x levels).
/// \threads A pure function of `signature`: safe from several threads at once.
MachineTree tree_from_signature(std::string_view signature);

/// Builds a tree from objects given in depth-first pre-order (each object after
/// its parent and after the whole subtree of its previous sibling).
/// \threads One thread at a time per builder; separate builders are independent.
/// \cost add and add_memory are amortised O(1), add_cpu_kind O(PUs + the
/// infos' length); finish() is O(objects x levels) (levels: at most
/// max_tree_depth + 1). Each throws InputError as it says, and std::bad_alloc.
class MachineTree::Builder {
public:
    /// Returns the new object's id. The first object must be the Machine root.
    /// Throws InputError when the order or the depth (max_tree_depth) is broken.
    ObjectId add(ObjectType type, ObjectId parent, std::uint32_t os_index = unknown_os_index,
                 std::uint64_t size_bytes = 0);
    /// Adds a memory object (NUMANode or MemCache) below CPU-side `parent`,
    /// an object added before. Throws InputError for another type or an
    /// unknown parent.
    void add_memory(ObjectType type, ObjectId parent, std::uint32_t os_index,
                    std::uint64_t size_bytes);
    /// The NUMA distance matrix (MachineTree::numa_distances), row-major
    /// over the NUMA nodes' logical indexes; finish() checks its size.
    void set_numa_distances(std::vector<std::uint64_t> values) {
        tree_.numa_distances_ = std::move(values);
    }
    /// PUs added so far.
    std::uint32_t num_pus() const { return pus_added_; }
    /// Adds a CPU kind over the PUs of logical indexes `pus` (PUs added
    /// before, each in one kind at most; see CpuKind): kinds are added
    /// after the objects, in hwloc's order. Throws InputError for an empty
    /// `pus`, a PU not added or already in a kind, an efficiency below -1, an
    /// info with an empty name, or text with control characters or not UTF-8;
    /// finish() checks the efficiencies together.
    void add_cpu_kind(CpuKind kind, std::span<const std::uint32_t> pus);
    /// The check finish() makes of the CPU kinds' efficiencies, made now (a
    /// reader locates its error at the kinds): all unknown, or all known and
    /// distinct, as hwloc ranks them. Throws InputError.
    void check_cpu_kinds() const;
    /// Marks object `id`, an L5 to L1 cache added before, as a data
    /// cache (MachineTree::is_data_cache). Checked in finish().
    void mark_data_cache(ObjectId id) { tree_.data_caches_.push_back(id.value); }
    /// Adds a PCI object (parent before child, locality a CPU-side object
    /// added before); returns its index. Checked in finish().
    std::uint32_t add_pci(const PciObject& p) {
        tree_.pci_.push_back(p);
        return static_cast<std::uint32_t>(tree_.pci_.size() - 1);
    }
    /// Adds a device (its PCI object and locality added before). Checked in
    /// finish(): names unique in the machine, references in range.
    void add_device(IoDevice d) { tree_.devices_.push_back(std::move(d)); }
    /// Adds a GPU interconnect matrix. Checked in finish(): endpoints in
    /// range and distinct, endpoints^2 values, NVLink's link_mbps not 0.
    void add_interconnect(Interconnect m) { tree_.interconnects_.push_back(std::move(m)); }
    /// Checks the shape (one root, PUs have no children, every object has a PU
    /// or memory below it) and the CPU kinds' efficiencies (all unknown, or
    /// all known and distinct, as hwloc ranks them), drops the CPU kinds when
    /// there are fewer than min_cpu_kinds, and computes the derived arrays.
    /// Throws InputError.
    MachineTree finish() &&;

private:
    MachineTree tree_;
    std::uint32_t pus_added_ = 0;
    std::vector<ObjectId> open_; ///< current root-to-last path, to enforce pre-order
};

} // namespace nettopo
