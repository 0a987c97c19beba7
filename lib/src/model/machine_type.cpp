#include "nettopo/model/machine_type.hpp"

#include "model/meet_latencies.hpp"
#include "nettopo/support/error.hpp"

#include <fmt/format.h>

namespace nettopo {

LevelLatencies LevelLatencies::defaults() {
    LevelLatencies t;
    using T = ObjectType;
    // Orders of magnitude of core-to-core latencies on current servers: SMT
    // siblings a few ns, a shared L2 ~20 ns, a shared L3 ~40 ns, across the
    // packages of one host ~120 ns. Overridable per machine type.
    t[T::Machine] = 120;
    t[T::Group] = 90;
    t[T::Package] = 80;
    t[T::Die] = 60;
    t[T::L5] = 60;
    t[T::L4] = 55;
    t[T::L3] = 40;
    t[T::L3i] = 40;
    t[T::L2] = 20;
    t[T::L2i] = 20;
    t[T::L1] = 10;
    t[T::L1i] = 10;
    t[T::Core] = 5;
    t[T::PU] = 0;
    return t;
}

std::optional<NodeLevel> node_level_from(std::string_view text) {
    if (text == "auto") return NodeLevel{};
    const auto t = parse_object_type(text);
    if (!t || *t == ObjectType::MemCache) return std::nullopt;
    return NodeLevel{*t};
}

namespace {

bool is_data_cache(ObjectType t) {
    return t == ObjectType::L5 || t == ObjectType::L4 || t == ObjectType::L3 ||
           t == ObjectType::L2 || t == ObjectType::L1;
}

// The thesis groups PUs by shared cache: the deepest data cache that holds
// more than one core (more than one PU on trees without cores). A machine
// whose cores share no cache has one node per core.
ObjectType automatic_node_type(const MachineTree& tree) {
    const auto objs = tree.objects();
    const bool has_cores = tree.count(ObjectType::Core) > 0;
    std::vector<std::uint32_t> units(objs.size(), 0);
    for (std::size_t i = objs.size(); i-- > 0;) {
        const TreeObject& o = objs[i];
        if (o.type == (has_cores ? ObjectType::Core : ObjectType::PU)) units[i] = 1;
        if (o.parent.valid()) units[o.parent.value] += units[i];
    }
    std::optional<ObjectType> best;
    std::uint32_t best_depth = 0;
    for (std::size_t i = 0; i < objs.size(); ++i)
        if (is_data_cache(objs[i].type) && units[i] > 1 && (!best || objs[i].depth > best_depth)) {
            best = objs[i].type;
            best_depth = objs[i].depth;
        }
    if (best) return *best;
    return has_cores ? ObjectType::Core : ObjectType::PU;
}

// A node object whose PUs outside the smaller ones it holds are not one
// range (nested NUMA localities; a core holding a core, met in a mutated
// archive); `pu` is the first PU of its second piece.
std::string split_locality_message(const MachineTree& tree, ObjectId locality, std::uint32_t pu,
                                   bool numa_level) {
    if (!numa_level)
        return fmt::format("the PUs of {} L#{} outside the objects of the node level below it "
                           "are not one range (PU {} is apart): nodes must be PU ranges; choose "
                           "another node level",
                           tree.level_name(locality), tree.object(locality).logical_index, pu);
    std::string numa;
    for (const MemoryObject& m : tree.memory())
        if (m.type == ObjectType::NUMANode && m.parent == locality)
            numa += fmt::format("{}L#{}", numa.empty() ? "" : ", ", m.logical_index);
    return fmt::format("the PUs local to NUMA node {} ({} L#{}) but to no smaller NUMA node are "
                       "not one range (PU {} is apart): nodes at the NUMA level must be PU ranges; "
                       "choose another node level",
                       numa, tree.level_name(locality), tree.object(locality).logical_index, pu);
}

} // namespace

MachineType::MachineType(std::string description, MachineTree tree, NodeLevel requested,
                         LevelLatencies latencies)
    : description_(std::move(description)), tree_(std::move(tree)), lca_(tree_),
      pus_magic_(tree_.num_pus() ? ~std::uint64_t(0) / tree_.num_pus() + 1 : 0),
      num_pus_(tree_.num_pus()), requested_(requested), latencies_(latencies) {
    for (double& ns : latencies_.ns) ns += 0.0; // one zero: -0 would print and compare apart
    const auto objs = tree_.objects();
    node_type_ = requested_.type ? *requested_.type : automatic_node_type(tree_);

    // At the NUMA level a node is a NUMA node's locality: hwloc gives a NUMA
    // node the cpuset of its CPU-side parent, so its PUs are that object's.
    // NUMA nodes of one object (DDR and MCDRAM of one SNC cluster) make one
    // node; one without PUs (below a memory-only Group) makes none; a PU
    // local to nested localities goes to the smallest (share/doc/model.md).
    const bool numa = node_type_ == ObjectType::NUMANode;
    std::vector<std::uint8_t> has_numa(objs.size(), 0);
    for (const MemoryObject& m : tree_.memory())
        if (m.type == ObjectType::NUMANode && objs[m.parent.value].pu_count > 0)
            has_numa[m.parent.value] = 1;

    // Other levels: only the innermost objects of the level count (nested
    // Groups), so nodes never overlap and each is one PU range.
    std::vector<std::uint8_t> is_level(objs.size(), 0), level_below(objs.size(), 0);
    for (std::size_t i = objs.size(); i-- > 0;) {
        is_level[i] = numa ? has_numa[i] != 0 : objs[i].type == node_type_;
        if (objs[i].parent.valid())
            level_below[objs[i].parent.value] |= is_level[i] | level_below[i];
    }
    auto matches = [&](ObjectId id) {
        return is_level[id.value] && (numa || !level_below[id.value]);
    };
    auto node_object_of = [&](ObjectId pu) {
        ObjectId core;
        for (ObjectId o = pu; o.valid(); o = objs[o.value].parent) {
            if (matches(o)) return o;
            if (!core.valid() && objs[o.value].type == ObjectType::Core) core = o;
        }
        // No object of the level above this PU: fall back to its core, or itself.
        return core.valid() ? core : pu;
    };
    node_of_pu_.resize(tree_.num_pus());
    std::vector<std::uint32_t> node_at(objs.size(), ~0u);
    for (std::uint32_t p = 0; p < tree_.num_pus(); ++p) {
        ObjectId o = node_object_of(tree_.pu(p));
        pus_outside_node_level_ += !matches(o);
        if (node_objects_.empty() || node_objects_.back() != o) {
            // Nested localities (or nested objects of the level's type) can
            // leave an object's PUs in pieces.
            if (node_at[o.value] != ~0u)
                throw InputError(split_locality_message(tree_, o, p, numa));
            node_at[o.value] = static_cast<std::uint32_t>(node_objects_.size());
            node_objects_.push_back(o);
        }
        node_of_pu_[p] = node_at[o.value];
    }

    detail::MeetLatencies meet = detail::meet_latencies(tree_, latencies_);
    meet_latency_ns_ = std::move(meet.per_object);
    numa_of_pu_ = std::move(meet.numa_of_pu);
    across_numa_ns_ = std::move(meet.across_numa);
    numa_count_ = meet.numa_count;
}

double MachineType::latency_between(std::uint32_t pu_a, std::uint32_t pu_b) const {
    if (pu_a == pu_b) return 0.0;
    if (!across_numa_ns_.empty()) {
        const std::uint32_t a = numa_of_pu_[pu_a], b = numa_of_pu_[pu_b];
        if (a != b && a != detail::no_numa_node && b != detail::no_numa_node)
            return across_numa_ns_[std::size_t{a} * numa_count_ + b];
    }
    return meet_latency_ns_[common_ancestor(pu_a, pu_b).value];
}

std::string MachineType::signature() const {
    std::string s = description_;
    s += fmt::format("|node={}|{}|", requested_.type ? static_cast<int>(*requested_.type) : -1,
                     static_cast<int>(node_type_));
    for (double v : latencies_.ns) s += fmt::format("{};", v);
    s += tree_.signature();
    return s;
}

} // namespace nettopo
