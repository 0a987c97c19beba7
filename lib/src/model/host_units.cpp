// Units (model/host_units.hpp): each machine's switch list, sorted and made
// unique (parallel cables and a cable per adapter to one leaf count once),
// then the machines sorted by that list: equal lists are neighbours.
#include "nettopo/model/host_units.hpp"

#include <algorithm>
#include <numeric>

namespace nettopo {

std::vector<HostUnit> host_units(const Cluster& cluster, std::span<const MachineId> machines) {
    const Network& net = cluster.network();
    // Every machine's switches, as a slice of one flat array.
    std::vector<std::uint32_t> offsets{0};
    std::vector<SwitchId> switches;
    offsets.reserve(machines.size() + 1);
    for (const MachineId m : machines) {
        const std::size_t begin = switches.size();
        for (const VertexId w : net.neighbors(cluster.vertex(m)))
            if (!net.is_machine(w)) switches.push_back(cluster.switch_of_vertex(w));
        const auto first = switches.begin() + static_cast<std::ptrdiff_t>(begin);
        std::sort(first, switches.end());
        switches.erase(std::unique(first, switches.end()), switches.end());
        offsets.push_back(static_cast<std::uint32_t>(switches.size()));
    }
    const auto list = [&](std::size_t i) {
        return std::span<const SwitchId>(switches.data() + offsets[i],
                                         switches.data() + offsets[i + 1]);
    };
    const auto less = [](std::span<const SwitchId> a, std::span<const SwitchId> b) {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
    };
    std::vector<std::size_t> order(machines.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (less(list(a), list(b))) return true;
        if (less(list(b), list(a))) return false;
        return machines[a] < machines[b];
    });

    std::vector<HostUnit> units;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const auto here = list(order[k]);
        if (k == 0 || !std::equal(here.begin(), here.end(), list(order[k - 1]).begin(),
                                  list(order[k - 1]).end()))
            units.push_back({std::vector<SwitchId>(here.begin(), here.end()), {}});
        units.back().machines.push_back(machines[order[k]]);
    }
    std::sort(units.begin(), units.end(), [](const HostUnit& a, const HostUnit& b) {
        return a.machines.front() < b.machines.front();
    });
    return units;
}

std::vector<HostUnit> host_units(const Cluster& cluster) {
    std::vector<MachineId> all;
    all.reserve(cluster.num_machines());
    for (std::uint32_t m = 0; m < cluster.num_machines(); ++m) all.emplace_back(m);
    return host_units(cluster, all);
}

} // namespace nettopo
