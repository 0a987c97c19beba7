#include "nettopo/hwloc/hwloc_source.hpp"

#include "hwloc/hwloc3_to_v2.hpp"
#include "hwloc/hwloc_buffer.hpp"
#include "hwloc/hwloc_convert.hpp"
#include "hwloc/hwloc_xml_check.hpp"
#include "hwloc/io_convert.hpp"
#include "hwloc/synthetic_check.hpp"
#include "nettopo/hwloc/hwloc_sandbox.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/generated_devices.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <hwloc.h>
#include <memory>
#include <pugixml.hpp>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace nettopo {

using detail::make_topology;
using detail::Topology;

namespace {

std::optional<ObjectType> convert_type(hwloc_obj_type_t t) {
    switch (t) {
    case HWLOC_OBJ_MACHINE:
        return ObjectType::Machine;
    case HWLOC_OBJ_PACKAGE:
        return ObjectType::Package;
    case HWLOC_OBJ_DIE:
        return ObjectType::Die;
    case HWLOC_OBJ_GROUP:
        return ObjectType::Group;
    case HWLOC_OBJ_NUMANODE:
        return ObjectType::NUMANode;
    case HWLOC_OBJ_MEMCACHE:
        return ObjectType::MemCache;
    case HWLOC_OBJ_L5CACHE:
        return ObjectType::L5;
    case HWLOC_OBJ_L4CACHE:
        return ObjectType::L4;
    case HWLOC_OBJ_L3CACHE:
        return ObjectType::L3;
    case HWLOC_OBJ_L2CACHE:
        return ObjectType::L2;
    case HWLOC_OBJ_L1CACHE:
        return ObjectType::L1;
    case HWLOC_OBJ_L3ICACHE:
        return ObjectType::L3i;
    case HWLOC_OBJ_L2ICACHE:
        return ObjectType::L2i;
    case HWLOC_OBJ_L1ICACHE:
        return ObjectType::L1i;
    case HWLOC_OBJ_CORE:
        return ObjectType::Core;
    case HWLOC_OBJ_PU:
        return ObjectType::PU;
    default:
        return std::nullopt; // I/O and Misc objects carry no proximity
    }
}

std::uint32_t os_index_of(hwloc_obj_t o) {
    return o->os_index == HWLOC_UNKNOWN_INDEX ? unknown_os_index : o->os_index;
}

std::uint64_t size_of(hwloc_obj_t o) {
    if (o->type == HWLOC_OBJ_NUMANODE) return o->attr->numanode.local_memory;
    if (hwloc_obj_type_is_cache(o->type) || o->type == HWLOC_OBJ_MEMCACHE)
        return o->attr->cache.size;
    return 0;
}

// hwloc 2 keeps memory objects in their own child list; a memory-side cache
// sits between a CPU object and its NUMA node, so walk that list recursively.
void add_memory(MachineTree::Builder& b, hwloc_obj_t mem, ObjectId parent) {
    for (; mem; mem = mem->next_sibling) {
        if (auto t = convert_type(mem->type))
            b.add_memory(*t, parent, os_index_of(mem), size_of(mem));
        add_memory(b, mem->memory_first_child, parent);
    }
}

// What the conversion needs of the objects it added: `ids` maps each
// CPU-side hwloc object to its id (the I/O side hangs from them), `pus` holds
// the PU objects in the order the builder numbers them (the CPU kinds').
struct AddedObjects {
    std::unordered_map<hwloc_obj_t, ObjectId> ids;
    std::vector<hwloc_obj_t> pus;
};

void add_subtree(MachineTree::Builder& b, hwloc_obj_t o, ObjectId parent, AddedObjects& added) {
    const auto type = convert_type(o->type);
    if (!type || is_memory(*type)) return;
    const ObjectId id = b.add(*type, parent, os_index_of(o), size_of(o));
    // lstopo's "L1d": hwloc's data caches, as against unified ones (older
    // kernels report L1 unified: the shared 32em64t and hagrid exports).
    if (is_data_or_unified_cache(*type) && o->attr->cache.type == HWLOC_OBJ_CACHE_DATA)
        b.mark_data_cache(id);
    added.ids.emplace(o, id);
    if (*type == ObjectType::PU) added.pus.push_back(o);
    add_memory(b, o->memory_first_child, id);
    for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling) add_subtree(b, c, id, added);
}

// hwloc's NUMA latency matrix (the firmware's SLIT, or what a user gave
// hwloc), in the tree's NUMA order: hwloc's logical indexes of NUMA nodes
// are the tree's (MemoryObject::logical_index numbers them as hwloc does).
// Empty when there is none, or when it does not cover every NUMA node (a
// partial matrix orders nothing reliably).
std::vector<std::uint64_t> numa_distances_of(hwloc_topology_t topo) {
    const int numa = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    if (numa < 2) return {};
    unsigned nr = 0;
    const unsigned long kind = HWLOC_DISTANCES_KIND_MEANS_LATENCY;
    if (hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, nullptr, kind, 0) != 0 ||
        nr == 0)
        return {};
    std::vector<hwloc_distances_s*> all(nr);
    if (hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, all.data(), kind, 0) != 0)
        return {};
    std::vector<std::uint64_t> out;
    const auto n = static_cast<unsigned>(numa);
    for (unsigned k = 0; k < nr; ++k) {
        hwloc_distances_s* d = all[k];
        if (out.empty() && d->nbobjs == n) {
            out.assign(std::size_t{n} * n, 0);
            for (unsigned i = 0; i < n; ++i)
                for (unsigned j = 0; j < n; ++j)
                    out[std::size_t{d->objs[i]->logical_index} * n + d->objs[j]->logical_index] =
                        d->values[i * n + j];
        }
        hwloc_distances_release(topo, d);
    }
    return out;
}

// The machine's tree, and its devices' identities when `identities` is given.
MachineTree convert(hwloc_topology_t topo, std::vector<DeviceIdentity>* identities = nullptr) {
    MachineTree::Builder b;
    AddedObjects added;
    add_subtree(b, hwloc_get_root_obj(topo), ObjectId(), added);
    b.set_numa_distances(numa_distances_of(topo));
    detail::add_cpu_kinds(b, topo, added.pus);
    std::vector<DeviceIdentity> found = detail::add_io(b, topo, added.ids);
    if (identities) *identities = std::move(found);
    return std::move(b).finish();
}

std::string hostname_of(hwloc_topology_t topo) {
    const char* h = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "HostName");
    return h ? h : "";
}

} // namespace

namespace detail {
Topology make_topology(PuScope scope) {
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0) throw Error("hwloc_topology_init failed");
    Topology topo(t);
    // lstopo shows instruction caches; hwloc's library default hides them.
    // hwloc 2.9's icache call stops before L3i (`i < HWLOC_OBJ_L3ICACHE`):
    // name that one too.
    hwloc_topology_set_icache_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_type_filter(t, HWLOC_OBJ_L3ICACHE, HWLOC_TYPE_FILTER_KEEP_ALL);
    // GPUs, adapters and the bridges that lead to them, as lstopo shows
    // them by default (not every PCI function: --whole-io's).
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    // On this machine the Linux backend reads the PCI tree from sysfs; the
    // libpciaccess-based "pci" component finds the same tree but leaks about
    // 1 KB a discovery (LeakSanitizer, hwloc 2.9), so it is left out.
    hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
    if (scope == PuScope::whole_machine)
        hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    return topo;
}

namespace {

struct BitmapDeleter {
    void operator()(hwloc_bitmap_s* b) const { hwloc_bitmap_free(b); }
};

// The PU objects hwloc kept whose OS index the topology allows (an export's
// allowed_cpuset may name PUs the export does not hold).
AllowedPus allowed_pus_of(hwloc_topology_t topology) {
    const std::unique_ptr<hwloc_bitmap_s, BitmapDeleter> allowed(hwloc_bitmap_alloc());
    if (!allowed) throw std::bad_alloc();
    const hwloc_const_cpuset_t permitted = hwloc_topology_get_allowed_cpuset(topology);
    AllowedPus a;
    for (hwloc_obj_t pu = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PU, nullptr); pu;
         pu = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PU, pu)) {
        ++a.machine;
        if (hwloc_bitmap_isset(permitted, pu->os_index)) {
            ++a.allowed;
            hwloc_bitmap_set(allowed.get(), pu->os_index);
        }
    }
    char* list = nullptr;
    if (hwloc_bitmap_list_asprintf(&list, allowed.get()) < 0) throw std::bad_alloc();
    a.os_indexes = list;
    std::free(list);
    return a;
}

// The allowed part of a whole topology: its XML export read again without
// HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED, which is hwloc's own restriction
// (the same for an export, a diff applied to its reference and this machine).
MachineTree allowed_tree(hwloc_topology_t whole, const AllowedPus& allowed,
                         std::vector<DeviceIdentity>& identities) {
    if (allowed.allowed == 0)
        throw InputError(fmt::format("allows none of its {} PUs: nothing is left to model of "
                                     "the allowed PUs only",
                                     allowed.machine));
    Topology topo = make_topology(PuScope::allowed_only);
    char* xml = nullptr;
    int length = 0;
    if (hwloc_topology_export_xmlbuffer(whole, &xml, &length, 0) != 0)
        throw Error("hwloc cannot export a topology it loaded");
    const bool loaded = hwloc_topology_set_xmlbuffer(topo.get(), xml, length) == 0 &&
                        hwloc_topology_load(topo.get()) == 0;
    hwloc_free_xmlbuffer(whole, xml);
    if (!loaded)
        throw InputError(
            fmt::format("hwloc cannot read the allowed PUs ({}) alone", allowed.os_indexes));
    MachineTree tree = convert(topo.get(), &identities);
    if (tree.num_pus() != allowed.allowed)
        throw InputError(fmt::format("hwloc kept {} PUs of the {} this export allows ({}): its "
                                     "allowed cpuset and its objects' cpusets are inconsistent",
                                     tree.num_pus(), allowed.allowed, allowed.os_indexes));
    return tree;
}

} // namespace

HwlocMachine machine_of(hwloc_topology_t topology, PuScope scope) {
    HwlocMachine m;
    m.allowed = allowed_pus_of(topology);
    m.tree = scope == PuScope::whole_machine ? convert(topology, &m.identities)
                                             : allowed_tree(topology, m.allowed, m.identities);
    m.hostname = hostname_of(topology);
    return m;
}
} // namespace detail

MachineTree tree_from_synthetic(std::string_view description, const HwlocSandbox* sandbox) {
    const detail::CheckedSynthetic checked = detail::check_synthetic(description);
    const std::string& desc = checked.levels; // hwloc's part: no device words
    // Attributes in parentheses reach hwloc unchecked.
    MachineTree tree =
        detail::run_hwloc(sandbox, desc, [&] {
            Topology topo = make_topology();
            if (hwloc_topology_set_synthetic(topo.get(), desc.c_str()) != 0 ||
                hwloc_topology_load(topo.get()) != 0)
                throw InputError(fmt::format("hwloc rejects the synthetic description '{}'", desc));
            return detail::machine_of(topo.get(), PuScope::whole_machine);
        }).tree;
    // Attributes can make hwloc build something else (indexes=0,0,0,0 merges
    // four PUs into one): refuse rather than guess.
    if (tree.num_pus() != checked.pus)
        throw InputError(fmt::format("hwloc built {} PUs from the synthetic description '{}', "
                                     "which describes {}",
                                     tree.num_pus(), desc, checked.pus));
    if (checked.devices == DeviceCounts{}) return tree;
    return with_generated_devices(tree, checked.devices);
}

HwlocMachine load_hwloc_xml(const std::string& path, const HwlocSandbox* sandbox, PuScope scope) {
    const std::string buffer = read_all(path);
    // pugixml first: hwloc's parser only says "failed", we want the line.
    pugi::xml_document doc;
    detail::parse_xml(doc, buffer, path);
    const std::string converted = detail::converted_for_hwloc(doc, buffer, path);
    detail::check_export_before_hwloc(doc, buffer, path);
    return detail::load_checked_hwloc_xml(converted.empty() ? buffer : converted, path, sandbox,
                                          scope, detail::declared_pus(doc));
}

namespace detail {
std::string converted_for_hwloc(const pugi::xml_document& doc, std::string_view buffer,
                                const std::string& source) {
    const pugi::xml_node topology = doc.document_element();
    if (std::string_view(topology.name()) != "topology") return {};
    const HwlocXmlVersion version = hwloc_xml_version(topology);
    if (version.major < 3) return {};
    // The hwloc that parses is the one this process runs with, and hwloc 2.9
    // and 2.10 have one API version (0x20800): its release decides.
    const std::string runtime = hwloc_runtime_version();
    if (hwloc_reads(runtime, version)) return {};
    if (version.major == 3) return hwloc3_to_v2(doc, buffer, source);
    throw InputError(source, line_of(buffer, topology),
                     fmt::format("an export in hwloc's XML format {}.{}, newer than nettopo reads "
                                 "(up to 3.x, converted for hwloc {}, which it runs with); {}",
                                 version.major, version.minor, runtime, reexport_as_v2()));
}

HwlocMachine load_checked_hwloc_xml(std::string_view buffer, const std::string& source_name,
                                    const HwlocSandbox* sandbox, PuScope scope,
                                    const std::vector<std::uint32_t>& declared) {
    const std::string copy(buffer); // hwloc wants a NUL-terminated buffer, size included
    return run_hwloc(sandbox, source_name, [&] {
        Topology topo = make_topology();
        if (hwloc_topology_set_xmlbuffer(topo.get(), copy.c_str(),
                                         static_cast<int>(copy.size() + 1)) != 0 ||
            hwloc_topology_load(topo.get()) != 0)
            throw hwloc_refusal(copy, source_name);
        check_kept_pus(topo.get(), declared, source_name);
        try {
            return machine_of(topo.get(), scope);
        } catch (const InputError& e) {
            throw InputError(source_name, 0, e.what());
        }
    });
}
} // namespace detail

HwlocMachine discover_this_machine(PuScope scope) {
    Topology topo = make_topology();
    if (hwloc_topology_load(topo.get()) != 0) throw Error("hwloc cannot discover this machine");
    HwlocMachine m = detail::machine_of(topo.get(), scope);
    if (m.hostname.empty()) {
        char buf[256] = {};
        if (gethostname(buf, sizeof buf - 1) == 0) m.hostname = buf;
    }
    return m;
}

std::string hwloc_runtime_version() {
    // The library records its release ("2.9.0") on the root of every topology
    // it loads; a one-PU synthetic one costs microseconds. The API version
    // (hwloc_get_api_version(), 0xMMmmpp) is the fallback: it changes with
    // the API only (2.8.0 for hwloc 2.9.0).
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) == 0) {
        const Topology topo(t);
        if (hwloc_topology_set_synthetic(t, "pu:1") == 0 && hwloc_topology_load(t) == 0)
            if (const char* v = hwloc_obj_get_info_by_name(hwloc_get_root_obj(t), "hwlocVersion"))
                return v;
    }
    const unsigned v = hwloc_get_api_version();
    return fmt::format("{}.{}.{}", v >> 16, (v >> 8) & 0xffu, v & 0xffu);
}

} // namespace nettopo
