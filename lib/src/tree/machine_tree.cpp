#include "nettopo/tree/machine_tree.hpp"

#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/error.hpp"
#include "tree/cpu_kind_text.hpp"
#include "tree/interconnect_check.hpp"
#include "tree/io_signature.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace nettopo {

std::span<const ObjectId> MachineTree::children(ObjectId id) const {
    return {child_ids_.data() + child_offsets_[id.value],
            child_ids_.data() + child_offsets_[id.value + 1]};
}

std::uint32_t MachineTree::count(ObjectType type) const {
    if (is_memory(type)) {
        std::uint32_t n = 0;
        for (const MemoryObject& m : memory_) n += m.type == type;
        return n;
    }
    std::uint32_t n = 0;
    for (const TreeObject& o : objects_) n += o.type == type;
    return n;
}

ObjectId MachineTree::common_ancestor(ObjectId a, ObjectId b) const {
    while (objects_[a.value].depth > objects_[b.value].depth) a = objects_[a.value].parent;
    while (objects_[b.value].depth > objects_[a.value].depth) b = objects_[b.value].parent;
    while (a != b) {
        a = objects_[a.value].parent;
        b = objects_[b.value].parent;
    }
    return a;
}

bool MachineTree::is_data_cache(ObjectId id) const {
    return std::binary_search(data_caches_.begin(), data_caches_.end(), id.value);
}

std::string MachineTree::level_name(ObjectId id) const {
    return level_name_at(objects_[id.value].level_depth);
}

std::string MachineTree::level_name_at(std::uint32_t level_depth) const {
    const ObjectType t = level_types_[level_depth];
    if (t != ObjectType::Group) return std::string(to_string(t));
    // hwloc_set_group_depth: Group levels are ranked from the root down.
    const auto above =
        std::count(level_types_.begin(), level_types_.begin() + level_depth, ObjectType::Group);
    return fmt::format("Group{}", above);
}

std::string MachineTree::signature() const {
    std::string s;
    for (const TreeObject& o : objects_)
        s += fmt::format("{}/{}/{}/{};", o.parent.value, static_cast<int>(o.type), o.os_index,
                         o.size_bytes);
    s += '|';
    for (const MemoryObject& m : memory_)
        s += fmt::format("{}/{}/{}/{};", m.parent.value, static_cast<int>(m.type), m.os_index,
                         m.size_bytes);
    if (!numa_distances_.empty()) s += fmt::format("|d:{}", fmt::join(numa_distances_, ","));
    s += detail::cpu_kinds_section(*this);
    if (!pci_.empty() || !devices_.empty() || !interconnects_.empty())
        s += "|io:" + detail::io_signature(pci_, devices_, interconnects_);
    if (!data_caches_.empty()) s += fmt::format("|dc:{}", fmt::join(data_caches_, ","));
    return s;
}

std::vector<std::uint32_t> MachineTree::pus_of_cpu_kind(std::uint32_t kind) const {
    std::vector<std::uint32_t> pus;
    for (std::uint32_t pu = 0; pu < pu_kinds_.size(); ++pu)
        if (pu_kinds_[pu] == kind) pus.push_back(pu);
    return pus;
}

std::optional<std::uint32_t> MachineTree::find_device(std::string_view name) const {
    for (std::uint32_t i = 0; i < devices_.size(); ++i)
        if (devices_[i].name == name) return i;
    for (std::uint32_t i = 0; i < devices_.size(); ++i)
        for (const std::string& n : devices_[i].names)
            if (n == name) return i;
    return std::nullopt;
}

bool MachineTree::operator==(const MachineTree& o) const {
    auto same_object = [](const TreeObject& x, const TreeObject& y) {
        return x.type == y.type && x.parent == y.parent && x.os_index == y.os_index &&
               x.size_bytes == y.size_bytes;
    };
    auto same_memory = [](const MemoryObject& x, const MemoryObject& y) {
        return x.type == y.type && x.parent == y.parent && x.os_index == y.os_index &&
               x.size_bytes == y.size_bytes;
    };
    return numa_distances_ == o.numa_distances_ && cpu_kinds_ == o.cpu_kinds_ &&
           pu_kinds_ == o.pu_kinds_ && pci_ == o.pci_ && devices_ == o.devices_ &&
           interconnects_ == o.interconnects_ && data_caches_ == o.data_caches_ &&
           std::equal(objects_.begin(), objects_.end(), o.objects_.begin(), o.objects_.end(),
                      same_object) &&
           std::equal(memory_.begin(), memory_.end(), o.memory_.begin(), o.memory_.end(),
                      same_memory);
}

ObjectId MachineTree::Builder::add(ObjectType type, ObjectId parent, std::uint32_t os_index,
                                   std::uint64_t size_bytes) {
    auto& objs = tree_.objects_;
    if (is_memory(type)) throw InputError("memory objects are not part of the CPU tree");
    if (objs.empty()) {
        if (type != ObjectType::Machine || parent.valid())
            throw InputError("a machine tree must start with one Machine root");
    } else {
        if (type == ObjectType::Machine) throw InputError("Machine object below the root");
        while (!open_.empty() && open_.back() != parent) open_.pop_back();
        if (open_.empty()) throw InputError("machine tree objects are not in depth-first order");
        if (objs[parent.value].type == ObjectType::PU)
            throw InputError("a PU cannot have children");
    }
    if (objs.size() >= max_id_count) throw InputError("machine tree too large");
    ObjectId id(static_cast<std::uint32_t>(objs.size()));
    const std::uint32_t depth = parent.valid() ? objs[parent.value].depth + 1 : 0;
    if (depth > max_tree_depth)
        throw InputError(fmt::format("machine tree deeper than {} levels", max_tree_depth));
    objs.push_back({type, depth, parent, os_index, size_bytes, 0, 0, 0, 0, 0});
    open_.push_back(id);
    pus_added_ += type == ObjectType::PU;
    return id;
}

void MachineTree::Builder::add_cpu_kind(CpuKind kind, std::span<const std::uint32_t> pus) {
    const auto index = static_cast<std::uint32_t>(tree_.cpu_kinds_.size());
    if (pus.empty()) throw InputError(fmt::format("CPU kind #{} has no PU", index));
    if (kind.efficiency < unknown_cpu_kind_efficiency)
        throw InputError(fmt::format("CPU kind #{} has the efficiency {} (an efficiency is a rank "
                                     "from 0, or -1 when unknown)",
                                     index, kind.efficiency));
    for (const CpuKindInfo& info : kind.infos) {
        if (info.name.empty())
            throw InputError(fmt::format("CPU kind #{} has an info without a name", index));
        check_text(fmt::format("the name of an info of CPU kind #{}", index), info.name);
        check_text(fmt::format("the info {} of CPU kind #{}", shown_name(info.name), index),
                   info.value);
    }
    auto& kinds = tree_.pu_kinds_;
    kinds.resize(pus_added_, no_cpu_kind);
    for (const std::uint32_t pu : pus) {
        if (pu >= pus_added_)
            throw InputError(fmt::format(
                "CPU kind #{} names PU {}, but the machine has {}", index, pu,
                pus_added_ == 1 ? std::string("1 PU") : fmt::format("{} PUs", pus_added_)));
        if (kinds[pu] != no_cpu_kind && kinds[pu] != index)
            throw InputError(fmt::format("PU {} is in CPU kinds #{} and #{} (a PU has one kind)",
                                         pu, kinds[pu], index));
        kinds[pu] = index;
    }
    tree_.cpu_kinds_.push_back(std::move(kind));
}

void MachineTree::Builder::add_memory(ObjectType type, ObjectId parent, std::uint32_t os_index,
                                      std::uint64_t size_bytes) {
    if (!is_memory(type)) throw InputError("not a memory object type");
    if (!parent.valid() || parent.value >= tree_.objects_.size())
        throw InputError("memory object attached to an unknown object");
    tree_.memory_.push_back({type, parent, os_index, size_bytes, 0});
}

namespace {

// Bit of a type in a set of types.
constexpr std::uint32_t type_bit(ObjectType t) {
    return 1u << static_cast<unsigned>(t);
}
static_assert(object_type_count <= 32);

} // namespace

// hwloc's levels, as hwloc_connect_levels (hwloc 2.9, topology.c) builds
// them: start from the root's children; take the topmost type among the
// objects in hand (the first that is not a PU, replaced by the type of any
// other object that has an object of that type below it); that type's
// objects make the next level and give way to their children; repeat. The
// objects in hand stay in pre-order, so a logical index is the rank among
// the objects of the level in pre-order. hwloc also tells Groups of
// different kinds apart; nettopo does not keep their kind, so all Groups are
// one type here (share/doc/model.md says so). O(objects x levels).
void MachineTree::number_levels(MachineTree& t) {
    auto& objs = t.objects_;
    const auto n = static_cast<std::uint32_t>(objs.size());
    std::vector<std::uint32_t> types_below(n, 0);
    for (std::uint32_t i = n; i-- > 1;)
        types_below[objs[i].parent.value] |= types_below[i] | type_bit(objs[i].type);
    t.level_types_.assign(1, objs[0].type);
    std::vector<ObjectId> in_hand(t.children(ObjectId(0)).begin(), t.children(ObjectId(0)).end());
    std::vector<ObjectId> next;
    while (!in_hand.empty()) {
        auto type_of = [&](ObjectId id) { return objs[id.value].type; };
        const auto first = std::find_if(in_hand.begin(), in_hand.end(),
                                        [&](ObjectId id) { return type_of(id) != ObjectType::PU; });
        ObjectType top = type_of(first == in_hand.end() ? in_hand.front() : *first);
        for (ObjectId id : in_hand)
            if (type_of(id) != top && (types_below[id.value] & type_bit(top))) top = type_of(id);
        const auto level = static_cast<std::uint32_t>(t.level_types_.size());
        next.clear();
        for (ObjectId id : in_hand) {
            if (type_of(id) != top) {
                next.push_back(id);
                continue;
            }
            objs[id.value].level_depth = level;
            const auto kids = t.children(id);
            next.insert(next.end(), kids.begin(), kids.end());
        }
        in_hand.swap(next);
        t.level_types_.push_back(top);
    }
    t.level_sizes_.assign(t.level_types_.size(), 0);
    for (TreeObject& o : objs) o.logical_index = t.level_sizes_[o.level_depth]++;
}

// hwloc_list_special_objects numbers memory objects in one walk that visits
// an object's children before its memory: in the post-order of the memory's
// CPU-side parents, and in the order given for one parent (a memory-side
// cache before the NUMA node below it, as the builder receives them). The
// post-order rank of pre-order object i is subtree_end - 1 - depth: every
// object before it in pre-order except its ancestors, and its descendants,
// finish before it.
void MachineTree::number_memory(MachineTree& t) {
    std::vector<std::uint32_t> order(t.memory_.size());
    for (std::uint32_t k = 0; k < order.size(); ++k) order[k] = k;
    auto post_order = [&](std::uint32_t k) {
        const TreeObject& p = t.objects_[t.memory_[k].parent.value];
        return p.subtree_end - 1 - p.depth;
    };
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
        return post_order(x) < post_order(y);
    });
    std::array<std::uint32_t, object_type_count> next{};
    for (std::uint32_t k : order) {
        MemoryObject& m = t.memory_[k];
        m.logical_index = next[static_cast<std::size_t>(m.type)]++;
    }
}

// hwloc ranks the kinds it can rank from 0 (least powerful) to the number
// of kinds - 1, each rank once, and gives every kind -1 when it cannot rank
// one (hwloc_internal_cpukinds_rank): anything else is not hwloc's ranking
// and would order `distribute --prefer` by nothing meaningful. A tree may
// hold fewer kinds than hwloc ranked (those of PUs it does not model: the
// allowed part of an export), so its ranks may skip values.
void MachineTree::Builder::check_cpu_kinds() const {
    const auto& kinds = tree_.cpu_kinds_;
    const auto n = static_cast<std::uint32_t>(kinds.size());
    std::vector<std::int32_t> ranks; // sorted, not searched: an archive may hold many kinds
    for (const CpuKind& kind : kinds)
        if (kind.efficiency != unknown_cpu_kind_efficiency) ranks.push_back(kind.efficiency);
    if (!ranks.empty() && ranks.size() != n)
        throw InputError(fmt::format("{} of {} CPU kinds have an unknown efficiency (hwloc ranks "
                                     "every kind or none)",
                                     n - ranks.size(), n));
    std::sort(ranks.begin(), ranks.end());
    if (const auto twice = std::adjacent_find(ranks.begin(), ranks.end()); twice != ranks.end())
        throw InputError(
            fmt::format("CPU kinds share the efficiency {} (hwloc ranks each kind apart)", *twice));
}

// References of the I/O side in range, PCI parents before their children,
// device names unique in the machine (they are how users name a device).
void MachineTree::check_io(const MachineTree& t) {
    const auto objects = t.objects_.size();
    for (std::size_t i = 0; i < t.pci_.size(); ++i) {
        const PciObject& p = t.pci_[i];
        if ((p.parent != no_pci && p.parent >= i) || p.locality.value >= objects ||
            static_cast<unsigned>(p.kind) > static_cast<unsigned>(PciKind::Device))
            throw InputError(fmt::format("PCI object {} ({}) refers to an object that does not "
                                         "come before it",
                                         i, pci_bus_id(p)));
    }
    for (std::size_t i = 0; i < t.devices_.size(); ++i) {
        const IoDevice& d = t.devices_[i];
        if (d.name.empty()) throw InputError(fmt::format("device {} has no name", i));
        // Device texts come from exports and archives and are written back
        // into XML, which holds no control character (fuzz finding).
        check_name(fmt::format("the name of device {}", i), d.name);
        for (const std::string& other : d.names)
            check_name(fmt::format("a name of device {}", d.name), other);
        check_text(fmt::format("the vendor of device {}", d.name), d.vendor);
        check_text(fmt::format("the model of device {}", d.name), d.model);
        check_text(fmt::format("the subtype of device {}", d.name), d.subtype);
        if ((d.pci != no_pci && d.pci >= t.pci_.size()) || d.locality.value >= objects ||
            static_cast<unsigned>(d.kind) > static_cast<unsigned>(DeviceKind::Other))
            throw InputError(
                fmt::format("device {} refers to a PCI or CPU object that does not exist", d.name));
        for (std::size_t j = 0; j < i; ++j)
            if (t.devices_[j].name == d.name)
                throw InputError(fmt::format("two devices are called {}", d.name));
    }
    for (const Interconnect& m : t.interconnects_)
        detail::check_interconnect(m, t.devices_.size(), t.pci_.size(), objects);
}

MachineTree MachineTree::Builder::finish() && {
    MachineTree& t = tree_;
    auto& objs = t.objects_;
    if (objs.empty()) throw InputError("empty machine tree");
    const auto n = static_cast<std::uint32_t>(objs.size());

    // Children CSR (pre-order keeps each child list in order).
    t.child_offsets_.assign(n + 1, 0);
    for (std::uint32_t i = 1; i < n; ++i) ++t.child_offsets_[objs[i].parent.value + 1];
    for (std::uint32_t i = 0; i < n; ++i) t.child_offsets_[i + 1] += t.child_offsets_[i];
    t.child_ids_.resize(n - 1);
    std::vector<std::uint32_t> fill(t.child_offsets_.begin(), t.child_offsets_.end() - 1);
    for (std::uint32_t i = 1; i < n; ++i) t.child_ids_[fill[objs[i].parent.value]++] = ObjectId(i);

    // PU ranges and subtree ends in one pre-order pass; the subtree of i ends
    // where the next object not below i starts, so walk back (below).
    for (std::uint32_t i = 0; i < n; ++i) {
        TreeObject& o = objs[i];
        o.first_pu = static_cast<std::uint32_t>(t.pus_.size());
        if (o.type == ObjectType::PU) {
            if (t.child_offsets_[i + 1] != t.child_offsets_[i])
                throw InputError("a PU cannot have children");
            t.pus_.push_back(ObjectId(i));
        }
    }
    // Memory alone does not make a machine: a type without PEs would give
    // machines no PE range (and the ranges around them would wrap).
    if (t.pus_.empty()) throw InputError("the machine has no PU (a machine needs at least one)");
    number_levels(t);
    // hwloc keeps CPU-less objects that only hold memory (a Group with an
    // empty cpuset above a CPU-less NUMA node); anything else without a PU is
    // a malformed tree.
    std::vector<std::uint8_t> memory_below(n, 0);
    for (const MemoryObject& m : t.memory_) memory_below[m.parent.value] = 1;
    for (std::uint32_t i = n; i-- > 1;) memory_below[objs[i].parent.value] |= memory_below[i];
    for (std::uint32_t i = n; i-- > 0;) {
        TreeObject& o = objs[i];
        auto kids = t.children(ObjectId(i));
        o.subtree_end = kids.empty() ? i + 1 : objs[kids.back().value].subtree_end;
        o.pu_count = static_cast<std::uint32_t>(
            (o.subtree_end < n ? objs[o.subtree_end].first_pu : t.pus_.size()) - o.first_pu);
        if (o.pu_count == 0 && !memory_below[i])
            throw InputError(fmt::format("{} object #{} has neither a PU nor memory below it",
                                         to_string(o.type), o.logical_index));
    }
    number_memory(t);
    const std::uint64_t numa = t.count(ObjectType::NUMANode);
    if (!t.numa_distances_.empty() && t.numa_distances_.size() != numa * numa)
        throw InputError(fmt::format("a NUMA distance matrix of {} values for {} NUMA nodes "
                                     "(expected {})",
                                     t.numa_distances_.size(), numa, numa * numa));
    check_cpu_kinds();
    // One kind tells no PU from another: hwloc reports one on many
    // homogeneous machines (from their frequency infos), and keeping it would
    // split hosts that are otherwise one type and change what they print.
    if (t.cpu_kinds_.size() < min_cpu_kinds) {
        t.cpu_kinds_.clear();
        t.pu_kinds_.clear();
    } else {
        t.pu_kinds_.resize(t.pus_.size(), no_cpu_kind);
    }
    check_io(t);
    auto& caches = t.data_caches_;
    std::sort(caches.begin(), caches.end());
    caches.erase(std::unique(caches.begin(), caches.end()), caches.end());
    for (const std::uint32_t c : caches)
        if (c >= n || !is_data_or_unified_cache(objs[c].type))
            throw InputError(
                fmt::format("object {} is marked a data cache but is {}", c,
                            c >= n ? std::string_view("no object") : to_string(objs[c].type)));
    return std::move(tree_);
}

namespace {

// One "parent/type/os_index/size;" entry of a signature.
struct SignatureEntry {
    ObjectId parent;
    ObjectType type;
    std::uint32_t os_index;
    std::uint64_t size_bytes;
};

SignatureEntry read_signature_entry(std::string_view& text) {
    const auto bad = [&] {
        return InputError(fmt::format("not a machine tree signature near '{}'",
                                      text.substr(0, std::min<std::size_t>(text.size(), 32))));
    };
    std::uint64_t fields[4] = {};
    const char* p = text.data();
    const char* end = text.data() + text.size();
    for (int i = 0; i < 4; ++i) {
        const auto [next, ec] = std::from_chars(p, end, fields[i]);
        if (ec != std::errc() || next == end || *next != (i < 3 ? '/' : ';')) throw bad();
        p = next + 1;
    }
    if (fields[0] > Id<void>::invalid_value || fields[1] >= object_type_count ||
        fields[2] > unknown_os_index)
        throw bad();
    text.remove_prefix(static_cast<std::size_t>(p - text.data()));
    return {ObjectId(static_cast<std::uint32_t>(fields[0])), static_cast<ObjectType>(fields[1]),
            static_cast<std::uint32_t>(fields[2]), fields[3]};
}

} // namespace

namespace {

// "v,v,v" of a signature section.
std::vector<std::uint64_t> read_numbers(std::string_view text, const char* what) {
    std::vector<std::uint64_t> values;
    const char* p = text.data();
    const char* const end = p + text.size();
    for (;;) {
        std::uint64_t v = 0;
        const auto [next, ec] = std::from_chars(p, end, v);
        if (ec != std::errc() || (next != end && *next != ','))
            throw InputError(fmt::format("not a machine tree signature: a bad {}", what));
        values.push_back(v);
        if (next == end) break;
        p = next + 1;
    }
    return values;
}

// One optional section after the memory, "TAG:PAYLOAD" (payloads never hold
// a '|'): each tag adds one kind of data to the tree.
void read_section(MachineTree::Builder& builder, std::string_view section) {
    const std::size_t colon = section.find(':');
    const std::string_view tag = section.substr(0, colon);
    const std::string_view payload =
        colon == std::string_view::npos ? std::string_view() : section.substr(colon + 1);
    if (tag == "d" && colon != std::string_view::npos)
        builder.set_numa_distances(read_numbers(payload, "NUMA distance"));
    else if (tag == "k" && colon != std::string_view::npos)
        detail::read_cpu_kinds_section(builder, payload);
    else if (tag == "io" && colon != std::string_view::npos)
        detail::read_io_signature(payload, builder);
    else if (tag == "dc" && colon != std::string_view::npos)
        for (const std::uint64_t id : read_numbers(payload, "data cache"))
            builder.mark_data_cache(ObjectId(
                static_cast<std::uint32_t>(std::min<std::uint64_t>(id, Id<void>::invalid_value))));
    else
        throw InputError(fmt::format("not a machine tree signature: an unknown section '{}'",
                                     section.substr(0, std::min<std::size_t>(section.size(), 16))));
}

} // namespace

MachineTree tree_from_signature(std::string_view text) {
    MachineTree::Builder builder;
    const std::size_t bar = text.find('|');
    if (bar == std::string_view::npos)
        throw InputError("not a machine tree signature: no '|' between objects and memory");
    std::string_view objects = text.substr(0, bar), rest = text.substr(bar + 1);
    const std::size_t memory_end = std::min(rest.find('|'), rest.size());
    std::string_view memory = rest.substr(0, memory_end);
    rest.remove_prefix(memory_end);
    while (!objects.empty()) {
        const SignatureEntry e = read_signature_entry(objects);
        builder.add(e.type, e.parent, e.os_index, e.size_bytes);
    }
    while (!memory.empty()) {
        const SignatureEntry e = read_signature_entry(memory);
        builder.add_memory(e.type, e.parent, e.os_index, e.size_bytes);
    }
    while (!rest.empty()) {
        rest.remove_prefix(1); // the '|'
        const std::size_t end = std::min(rest.find('|'), rest.size());
        read_section(builder, rest.substr(0, end));
        rest.remove_prefix(end);
    }
    return std::move(builder).finish();
}

} // namespace nettopo
