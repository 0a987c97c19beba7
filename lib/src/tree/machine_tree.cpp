#include "nettopo/tree/machine_tree.hpp"

#include "nettopo/support/error.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>

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

std::string MachineTree::level_name(ObjectId id) const {
    const TreeObject& o = objects_[id.value];
    if (o.type != ObjectType::Group) return std::string(to_string(o.type));
    return fmt::format("Group{}", group_rank_[o.depth]);
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
    return s;
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
    return std::equal(objects_.begin(), objects_.end(), o.objects_.begin(), o.objects_.end(),
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
    objs.push_back({type, depth, parent, os_index, size_bytes, 0, 0, 0, 0});
    open_.push_back(id);
    return id;
}

void MachineTree::Builder::add_memory(ObjectType type, ObjectId parent, std::uint32_t os_index,
                                      std::uint64_t size_bytes) {
    if (!is_memory(type)) throw InputError("not a memory object type");
    if (!parent.valid() || parent.value >= tree_.objects_.size())
        throw InputError("memory object attached to an unknown object");
    tree_.memory_.push_back({type, parent, os_index, size_bytes});
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

    // PU ranges, subtree ends and logical indexes in one pre-order pass; the
    // subtree of i ends where the next object not below i starts, so walk back.
    // hwloc numbers objects per level; only Groups share a type across depths.
    std::vector<std::array<std::uint32_t, object_type_count>> per_level(max_tree_depth + 1);
    t.group_rank_.assign(max_tree_depth + 1, -1);
    for (std::uint32_t i = 0; i < n; ++i)
        if (objs[i].type == ObjectType::Group) t.group_rank_[objs[i].depth] = 0;
    for (std::int8_t rank = 0; auto& r : t.group_rank_)
        if (r == 0) r = rank++;
    for (std::uint32_t i = 0; i < n; ++i) {
        TreeObject& o = objs[i];
        o.logical_index = per_level[o.depth][static_cast<std::size_t>(o.type)]++;
        o.first_pu = static_cast<std::uint32_t>(t.pus_.size());
        if (o.type == ObjectType::PU) {
            if (t.child_offsets_[i + 1] != t.child_offsets_[i])
                throw InputError("a PU cannot have children");
            t.pus_.push_back(ObjectId(i));
        }
    }
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

MachineTree tree_from_signature(std::string_view text) {
    MachineTree::Builder builder;
    const std::size_t bar = text.find('|');
    if (bar == std::string_view::npos)
        throw InputError("not a machine tree signature: no '|' between objects and memory");
    std::string_view objects = text.substr(0, bar), memory = text.substr(bar + 1);
    while (!objects.empty()) {
        const SignatureEntry e = read_signature_entry(objects);
        builder.add(e.type, e.parent, e.os_index, e.size_bytes);
    }
    while (!memory.empty()) {
        const SignatureEntry e = read_signature_entry(memory);
        builder.add_memory(e.type, e.parent, e.os_index, e.size_bytes);
    }
    return std::move(builder).finish();
}

} // namespace nettopo
