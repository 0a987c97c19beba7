// hwloc's side of the LCA benchmark: the same tree as an hwloc topology.
// Trees from an XML export load the file itself; any other tree is written
// as an hwloc v2 XML export (one NUMA node at the root) and loaded from
// memory. Groups are written with dont_merge and the Group filter is
// KEEP_ALL: hwloc merges Groups of equal cpusets otherwise (even its
// synthetic "Group:1" levels), and its tree would be shorter than ours.
#include "nettopo-bench/lca_hwloc.hpp"

#include "nettopo/support/error.hpp"

#include <cstdlib>
#include <fmt/format.h>

namespace nettopo::detail {

namespace {

std::string cpuset_text(std::uint32_t first, std::uint32_t count) {
    hwloc_bitmap_t b = hwloc_bitmap_alloc();
    if (count) hwloc_bitmap_set_range(b, first, static_cast<int>(first + count - 1));
    char* text = nullptr;
    hwloc_bitmap_asprintf(&text, b);
    std::string s = text ? text : "0x0";
    std::free(text);
    hwloc_bitmap_free(b);
    return s;
}

// Caches as hwloc 2 XML names them: level and kind (0 unified/data, 2 instruction).
std::string hwloc_type_attributes(ObjectType t) {
    const auto level = [t](ObjectType outermost, int depth) {
        return depth - (static_cast<int>(t) - static_cast<int>(outermost));
    };
    if (t >= ObjectType::L5 && t <= ObjectType::L1)
        return fmt::format(R"(type="L{0}Cache" depth="{0}" cache_type="0")",
                           level(ObjectType::L5, 5));
    if (t >= ObjectType::L3i && t <= ObjectType::L1i)
        return fmt::format(R"(type="L{0}iCache" depth="{0}" cache_type="2")",
                           level(ObjectType::L3i, 3));
    if (t == ObjectType::Group) return R"(type="Group" dont_merge="1")";
    return fmt::format(R"(type="{}")", to_string(t));
}

} // namespace

std::string hwloc_xml_of(const MachineTree& tree) {
    const auto objs = tree.objects();
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n<topology version=\"2.0\">\n";
    const std::string nodeset = R"(nodeset="0x1" complete_nodeset="0x1")";
    std::vector<ObjectId> open; // objects whose </object> is still to come
    for (std::uint32_t i = 0; i < objs.size(); ++i) {
        const TreeObject& o = objs[i];
        while (!open.empty() && open.back() != o.parent) {
            xml += "</object>\n";
            open.pop_back();
        }
        const std::string cpuset = cpuset_text(o.first_pu, o.pu_count);
        xml += fmt::format(
            R"(<object {} os_index="{}" cpuset="{}" complete_cpuset="{}" {} gp_index="{}")",
            hwloc_type_attributes(o.type), o.type == ObjectType::PU ? o.first_pu : o.logical_index,
            cpuset, cpuset, nodeset, i + 2);
        if (i == 0)
            xml += fmt::format(
                R"( allowed_cpuset="{}" allowed_nodeset="0x1">)"
                "\n"
                R"(<object type="NUMANode" os_index="0" cpuset="{}" complete_cpuset="{}" {} gp_index="1" local_memory="1073741824"/>)",
                cpuset, cpuset, cpuset, nodeset);
        else
            xml += ">";
        xml += "\n";
        open.push_back(ObjectId(i));
    }
    for (std::size_t k = 0; k < open.size(); ++k) xml += "</object>\n";
    return xml + "</topology>\n";
}

HwlocLcaTopology load_hwloc_for_lca(const MachineTree& tree, const std::string& xml_file) {
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0) throw Error("hwloc_topology_init failed");
    HwlocLcaTopology h;
    h.topology.reset(t);
    hwloc_topology_set_icache_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL);
    // hwloc 2.9's icache call leaves L3i out (its loop stops before it).
    hwloc_topology_set_type_filter(t, HWLOC_OBJ_L3ICACHE, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_type_filter(t, HWLOC_OBJ_GROUP, HWLOC_TYPE_FILTER_KEEP_ALL);
    // The whole machine, as nettopo reads an export made inside a job.
    hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    const std::string xml = xml_file.empty() ? hwloc_xml_of(tree) : std::string();
    const int set =
        xml_file.empty()
            ? hwloc_topology_set_xmlbuffer(t, xml.c_str(), static_cast<int>(xml.size() + 1))
            : hwloc_topology_set_xml(t, xml_file.c_str());
    const std::string source = xml_file.empty() ? "the tree's XML export" : xml_file;
    if (set != 0 || hwloc_topology_load(t) != 0)
        throw InputError(fmt::format("hwloc cannot load {}", source));
    const int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    if (n < 0 || static_cast<std::uint32_t>(n) != tree.num_pus())
        throw InputError(
            fmt::format("hwloc built {} PUs from {}, the tree has {}", n, source, tree.num_pus()));
    for (int i = 0; i < n; ++i) {
        hwloc_obj_t o = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, static_cast<unsigned>(i));
        // hwloc 2.9's common-ancestor loop dereferences a NULL parent for
        // memory objects: hand it their CPU-side parent.
        while (o && hwloc_obj_type_is_memory(o->type)) o = o->parent;
        h.pus.push_back(o);
    }
    return h;
}

} // namespace nettopo::detail
