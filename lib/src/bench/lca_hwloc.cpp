// hwloc's side of the LCA benchmark: the same tree as an hwloc topology.
// Trees from an XML export load the file itself; trees with one type and one
// degree per level (the thesis' trees) become a synthetic description. Group
// filters are set to KEEP_ALL, or hwloc would merge the thesis' degree-1
// Group levels away and its tree would be shorter than ours.
#include "lca_hwloc.hpp"

#include "nettopo/error.hpp"

#include <fmt/format.h>

namespace nettopo::detail {

std::optional<std::string> hwloc_synthetic_of(const MachineTree& tree) {
    const auto objs = tree.objects();
    std::vector<std::uint32_t> degree; // per depth
    std::vector<ObjectType> type;
    for (std::uint32_t i = 0; i < objs.size(); ++i) {
        const std::uint32_t d = objs[i].depth;
        const auto kids = static_cast<std::uint32_t>(tree.children(ObjectId(i)).size());
        if (d >= degree.size()) {
            degree.resize(d + 1, kids);
            type.resize(d + 1, objs[i].type);
        }
        if (degree[d] != kids || type[d] != objs[i].type) return std::nullopt;
    }
    if (!tree.memory().empty() || type.back() != ObjectType::PU) return std::nullopt;
    std::string s;
    for (std::size_t d = 1; d < type.size(); ++d)
        s += fmt::format("{}{}:{}", d > 1 ? " " : "", to_string(type[d]), degree[d - 1]);
    return s;
}

std::optional<HwlocLcaTopology> load_hwloc_for_lca(const MachineTree& tree,
                                                   const std::string& xml_file, std::string& why) {
    std::optional<std::string> synthetic;
    if (xml_file.empty()) {
        synthetic = hwloc_synthetic_of(tree);
        if (!synthetic) {
            why = "no hwloc XML given and the tree has no synthetic description (levels of "
                  "mixed types or degrees)";
            return std::nullopt;
        }
    }
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0) throw Error("hwloc_topology_init failed");
    HwlocLcaTopology h;
    h.topology.reset(t);
    hwloc_topology_set_icache_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_type_filter(t, HWLOC_OBJ_GROUP, HWLOC_TYPE_FILTER_KEEP_ALL);
    const int set = synthetic ? hwloc_topology_set_synthetic(t, synthetic->c_str())
                              : hwloc_topology_set_xml(t, xml_file.c_str());
    const std::string source = synthetic ? "synthetic '" + *synthetic + "'" : xml_file;
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
