// hwloc's CPU kinds into a MachineTree (part of the one conversion,
// hwloc_convert.hpp): hwloc_cpukinds_get_info per kind, and each PU's kind
// from hwloc_cpukinds_get_by_cpuset.
#include "hwloc/hwloc_convert.hpp"

#include <algorithm>
#include <vector>

namespace nettopo::detail {

// hwloc's CPU kinds (hwloc_cpukinds_get_info), each over the tree's PUs
// whose cpuset it holds. A kind none of the tree's PUs is in (hwloc keeps
// an export's kinds as written) is left out, and the others ranked again
// from 0 in the same order, as hwloc ranks what remains when it restricts
// a topology (hwloc_internal_cpukinds_restrict).
void add_cpu_kinds(MachineTree::Builder& b, hwloc_topology_t topo,
                   const std::vector<hwloc_obj_t>& pus) {
    const int nr = hwloc_cpukinds_get_nr(topo, 0);
    if (nr <= 0) return;
    std::vector<std::vector<std::uint32_t>> members(static_cast<std::size_t>(nr));
    for (std::uint32_t p = 0; p < pus.size(); ++p) {
        const int k = pus[p]->cpuset ? hwloc_cpukinds_get_by_cpuset(topo, pus[p]->cpuset, 0) : -1;
        if (k >= 0 && k < nr) members[static_cast<std::size_t>(k)].push_back(p);
    }
    std::vector<CpuKind> kinds;
    std::vector<std::uint32_t> kept;
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
        kinds.push_back(std::move(kind));
        kept.push_back(static_cast<std::uint32_t>(k));
    }
    if (kinds.size() != static_cast<std::size_t>(nr)) {
        // Ranks in the order hwloc gave them, from 0 again.
        std::vector<std::size_t> by_rank(kinds.size());
        for (std::size_t i = 0; i < by_rank.size(); ++i) by_rank[i] = i;
        std::stable_sort(by_rank.begin(), by_rank.end(), [&](std::size_t x, std::size_t y) {
            return kinds[x].efficiency < kinds[y].efficiency;
        });
        if (!kinds.empty() && kinds.front().efficiency != unknown_cpu_kind_efficiency)
            for (std::size_t r = 0; r < by_rank.size(); ++r)
                kinds[by_rank[r]].efficiency = static_cast<std::int32_t>(r);
    }
    for (std::size_t i = 0; i < kinds.size(); ++i)
        b.add_cpu_kind(std::move(kinds[i]), members[kept[i]]);
}

} // namespace nettopo::detail
