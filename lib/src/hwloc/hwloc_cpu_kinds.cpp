// hwloc's CPU kinds into a MachineTree (part of the one conversion,
// hwloc_convert.hpp): hwloc_cpukinds_get_info per kind, and each PU's kind
// from hwloc_cpukinds_get_by_cpuset.
#include "hwloc/hwloc_convert.hpp"

#include <vector>

namespace nettopo::detail {

// hwloc's CPU kinds (hwloc_cpukinds_get_info), each over the tree's PUs
// whose cpuset it holds, with the efficiency hwloc reports. A kind none of
// the tree's PUs is in is left out (hwloc keeps the kinds of an export's
// disallowed PUs when it drops the PUs: plain lstopo --cpukinds lists them),
// and the others keep hwloc's ranks, which then skip its rank.
void add_cpu_kinds(MachineTree::Builder& b, hwloc_topology_t topo,
                   const std::vector<hwloc_obj_t>& pus) {
    const int nr = hwloc_cpukinds_get_nr(topo, 0);
    if (nr <= 0) return;
    std::vector<std::vector<std::uint32_t>> members(static_cast<std::size_t>(nr));
    for (std::uint32_t p = 0; p < pus.size(); ++p) {
        const int k = pus[p]->cpuset ? hwloc_cpukinds_get_by_cpuset(topo, pus[p]->cpuset, 0) : -1;
        if (k >= 0 && k < nr) members[static_cast<std::size_t>(k)].push_back(p);
    }
    for (int k = 0; k < nr; ++k) {
        int efficiency = unknown_cpu_kind_efficiency;
        unsigned nr_infos = 0;
        hwloc_info_s* infos = nullptr;
        if (members[static_cast<std::size_t>(k)].empty() ||
            hwloc_cpukinds_get_info(topo, static_cast<unsigned>(k), nullptr, &efficiency, &nr_infos,
                                    &infos, 0) != 0)
            continue;
        CpuKind kind;
        kind.efficiency = efficiency < 0 ? unknown_cpu_kind_efficiency : efficiency;
        for (unsigned i = 0; i < nr_infos; ++i)
            kind.infos.push_back(
                {infos[i].name ? infos[i].name : "", infos[i].value ? infos[i].value : ""});
        b.add_cpu_kind(std::move(kind), members[static_cast<std::size_t>(k)]);
    }
}

} // namespace nettopo::detail
