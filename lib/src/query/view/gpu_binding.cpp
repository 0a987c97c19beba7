// distribute_gpus(): ranks with G GPUs each, their PUs and adapters (the
// rules are in gpu_binding.hpp). A host's plan depends on its type and on how
// many ranks it takes only, so it is made once per (type, count) and copied.
// tests/tools/gpu_binding_oracle.py holds the result to hwloc-calc's
// localities on the shared exports.
#include "nettopo/query/gpu_binding.hpp"

#include "nettopo/model/device_matrix.hpp"
#include "nettopo/query/distribute.hpp"
#include "nettopo/support/error.hpp"
#include "query/view/allocation_check.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

namespace nettopo {

namespace {

// One rank of a host's plan, machine left out.
struct Slot {
    std::vector<std::uint32_t> pus, gpus, nics;
};

std::vector<std::uint32_t> devices_of_kind(const MachineTree& tree, DeviceKind kind) {
    std::vector<std::uint32_t> out;
    const auto devices = tree.devices();
    for (std::uint32_t i = 0; i < devices.size(); ++i)
        if (devices[i].kind == kind) out.push_back(i);
    return out;
}

const TreeObject& locality(const MachineTree& tree, std::uint32_t device) {
    return tree.object(tree.devices()[device].locality);
}

// The host's GPUs G by G: grouped along their localities, the groups in the
// order of their lowest GPU (gpu_binding.hpp).
std::vector<std::vector<std::uint32_t>> gpu_groups(const MachineTree& tree, std::uint32_t g) {
    std::vector<std::uint32_t> gpus = devices_of_kind(tree, DeviceKind::Gpu);
    std::stable_sort(gpus.begin(), gpus.end(), [&](std::uint32_t a, std::uint32_t b) {
        return locality(tree, a).first_pu < locality(tree, b).first_pu;
    });
    std::vector<std::vector<std::uint32_t>> groups;
    for (std::size_t i = 0; i + g <= gpus.size(); i += g) {
        groups.emplace_back(gpus.begin() + static_cast<std::ptrdiff_t>(i),
                            gpus.begin() + static_cast<std::ptrdiff_t>(i + g));
        std::sort(groups.back().begin(), groups.back().end());
    }
    std::sort(groups.begin(), groups.end(),
              [](const auto& a, const auto& b) { return a.front() < b.front(); });
    return groups;
}

// The core holding logical PU `pu` (the PU itself on a tree without cores).
ObjectId core_of(const MachineTree& tree, std::uint32_t pu) {
    ObjectId at = tree.pu(pu);
    for (ObjectId o = at; o.valid(); o = tree.object(o).parent)
        if (tree.object(o).type == ObjectType::Core) return o;
    return at;
}

// `pus` (ascending) cut into `n` contiguous shares of whole units (cores, or
// PUs when fewer cores than shares), the first shares one unit larger; with
// fewer PUs than shares, share i takes PU i mod |pus|.
std::vector<std::vector<std::uint32_t>>
split(const MachineTree& tree, const std::vector<std::uint32_t>& pus, std::size_t n) {
    std::vector<std::vector<std::uint32_t>> shares(n);
    if (pus.empty()) return shares;
    if (pus.size() < n) {
        for (std::size_t i = 0; i < n; ++i) shares[i] = {pus[i % pus.size()]};
        return shares;
    }
    // Units: runs of PUs of one core (hwloc's logical order keeps a core's
    // PUs together).
    std::vector<std::size_t> unit_start;
    for (std::size_t i = 0; i < pus.size(); ++i)
        if (i == 0 || core_of(tree, pus[i]) != core_of(tree, pus[i - 1])) unit_start.push_back(i);
    if (unit_start.size() < n) {
        unit_start.resize(pus.size());
        std::iota(unit_start.begin(), unit_start.end(), std::size_t{0});
    }
    const std::size_t units = unit_start.size();
    std::size_t u = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t take = units / n + (i < units % n ? 1 : 0);
        const std::size_t from = unit_start[u];
        u += take;
        const std::size_t to = u < units ? unit_start[u] : pus.size();
        shares[i].assign(pus.begin() + static_cast<std::ptrdiff_t>(from),
                         pus.begin() + static_cast<std::ptrdiff_t>(to));
    }
    return shares;
}

// The PUs of each slot: homes shared as gpu_binding.hpp says.
void give_pus(const MachineTree& tree, std::vector<Slot>& slots) {
    std::vector<bool> taken(tree.num_pus(), false);
    std::vector<bool> done(slots.size(), false);
    for (std::size_t s = 0; s < slots.size(); ++s) {
        if (done[s]) continue;
        std::vector<bool> in_home(tree.num_pus(), false);
        for (std::uint32_t g : slots[s].gpus) {
            const TreeObject& loc = locality(tree, g);
            std::fill_n(in_home.begin() + loc.first_pu, loc.pu_count, true);
        }
        std::vector<std::size_t> sharers;
        for (std::size_t t = s; t < slots.size(); ++t) {
            if (done[t]) continue;
            std::vector<bool> other(tree.num_pus(), false);
            for (std::uint32_t g : slots[t].gpus) {
                const TreeObject& loc = locality(tree, g);
                std::fill_n(other.begin() + loc.first_pu, loc.pu_count, true);
            }
            if (other == in_home) sharers.push_back(t);
        }
        std::vector<std::uint32_t> home, free;
        for (std::uint32_t p = 0; p < tree.num_pus(); ++p)
            if (in_home[p]) {
                home.push_back(p);
                if (!taken[p]) free.push_back(p);
            }
        // Free PUs too few to give each sharer a core of its own: share the home.
        std::size_t free_cores = 0;
        for (std::size_t i = 0; i < free.size(); ++i)
            free_cores += i == 0 || core_of(tree, free[i]) != core_of(tree, free[i - 1]);
        const std::vector<std::uint32_t>& pool = free_cores >= sharers.size() ? free : home;
        auto shares = split(tree, pool, sharers.size());
        for (std::size_t i = 0; i < sharers.size(); ++i) {
            for (std::uint32_t p : shares[i]) taken[p] = true;
            slots[sharers[i]].pus = std::move(shares[i]);
            done[sharers[i]] = true;
        }
    }
}

// The adapters of each slot (gpu_binding.hpp's order).
void give_nics(const Cluster& cluster, MachineId m, std::optional<std::uint32_t> asked,
               std::vector<Slot>& slots) {
    const MachineTree& tree = cluster.machine_type(m).tree();
    const auto devices = tree.devices();
    std::vector<std::uint32_t> nics, fabric;
    for (std::uint32_t n : devices_of_kind(tree, DeviceKind::Nic)) {
        nics.push_back(n);
        if (is_fabric_adapter(devices[n])) fabric.push_back(n);
    }
    const std::vector<std::uint32_t>& candidates = fabric.empty() ? nics : fabric;
    const std::uint32_t want = asked.value_or(candidates.empty() ? 0u : 1u);
    if (want > candidates.size())
        throw UsageError(fmt::format(
            "{} adapters a rank, but {} has {} {}adapter{}", want, cluster.machine_name(m),
            candidates.size(), fabric.empty() ? "" : "fabric ", candidates.size() == 1 ? "" : "s"));
    std::vector<std::uint32_t> uses(devices.size(), 0);
    const std::uint32_t first = cluster.pes_of_machine(m).first;
    for (Slot& slot : slots) {
        struct Score {
            DeviceLink link;
            double latency;
            std::uint32_t uses, order;
            auto operator<=>(const Score&) const = default;
        };
        std::vector<std::pair<Score, std::uint32_t>> scored;
        for (std::uint32_t i = 0; i < candidates.size(); ++i) {
            const std::uint32_t n = candidates[i];
            Score best{DeviceLink::Sys, std::numeric_limits<double>::infinity(), uses[n], i};
            for (std::uint32_t g : slot.gpus) {
                const PeId gpu_pu(first + locality(tree, g).first_pu);
                const double latency =
                    device_latency(cluster, MachineDevice{m, n}, gpu_pu).value_or(0.0);
                best = std::min(best, Score{device_link(cluster, m, g, n), latency, uses[n], i});
            }
            scored.emplace_back(best, n);
        }
        std::sort(scored.begin(), scored.end());
        for (std::uint32_t k = 0; k < want; ++k) {
            slot.nics.push_back(scored[k].second);
            ++uses[scored[k].second];
        }
    }
}

std::vector<Slot> plan_host(const Cluster& cluster, MachineId m, std::uint32_t g, std::size_t ranks,
                            std::optional<std::uint32_t> nics) {
    const MachineTree& tree = cluster.machine_type(m).tree();
    auto groups = gpu_groups(tree, g);
    std::vector<Slot> slots(ranks);
    for (std::size_t r = 0; r < ranks; ++r) slots[r].gpus = std::move(groups[r]);
    give_pus(tree, slots);
    give_nics(cluster, m, nics, slots);
    return slots;
}

} // namespace

bool is_fabric_adapter(const IoDevice& nic) {
    if (nic.kind != DeviceKind::Nic) return false;
    if (nic.subtype == "OpenFabrics") return true;
    return std::any_of(nic.names.begin(), nic.names.end(), [](const std::string& n) {
        return n.starts_with("hsn") || n.starts_with("hsi") || n.starts_with("cxi");
    });
}

std::vector<GpuRank> distribute_gpus(const Cluster& cluster, std::span<const MachineId> allocation,
                                     const GpuBindRequest& request) {
    const std::uint32_t g = request.gpus_per_rank;
    if (request.ranks == 0) throw UsageError("the number of ranks must be at least 1");
    if (g == 0) throw UsageError("each rank needs at least 1 GPU");
    if (request.ranks > max_distributed_ranks)
        throw UsageError(fmt::format("{} ranks: at most {} can be placed", request.ranks,
                                     max_distributed_ranks));
    detail::check_allocation(cluster, allocation, "ranks");
    std::uint64_t capacity = 0, gpus = 0;
    for (const MachineId m : allocation) {
        const std::uint64_t n =
            devices_of_kind(cluster.machine_type(m).tree(), DeviceKind::Gpu).size();
        gpus += n;
        capacity += n / g;
    }
    if (gpus == 0)
        throw UsageError(fmt::format(
            "the {} host{} given have no GPU: GPUs come from hwloc exports of GPU servers "
            "(and live discovery), each with its runtime's devices (cudaN, nvmlN, rsmiN, zeN)",
            allocation.size(), allocation.size() == 1 ? "" : "s"));
    if (capacity < request.ranks)
        throw UsageError(fmt::format(
            "{} rank{} of {} GPU{} need{} {} GPUs; the {} host{} given hold{} {} GPU{}, room for "
            "{} such rank{}",
            request.ranks, request.ranks == 1 ? "" : "s", g, g == 1 ? "" : "s",
            request.ranks == 1 ? "s" : "", request.ranks * g, allocation.size(),
            allocation.size() == 1 ? "" : "s", allocation.size() == 1 ? "s" : "", gpus,
            gpus == 1 ? "" : "s", capacity, capacity == 1 ? "" : "s"));
    std::vector<GpuRank> out;
    out.reserve(request.ranks);
    std::map<std::pair<std::uint32_t, std::size_t>, std::vector<Slot>> plans;
    for (const MachineId m : allocation) {
        if (out.size() == request.ranks) break;
        const std::size_t room =
            devices_of_kind(cluster.machine_type(m).tree(), DeviceKind::Gpu).size() / g;
        const std::size_t take = std::min<std::uint64_t>(room, request.ranks - out.size());
        if (take == 0) continue;
        const auto key = std::make_pair(cluster.type_of(m).value, take);
        auto it = plans.find(key);
        if (it == plans.end())
            it = plans.emplace(key, plan_host(cluster, m, g, take, request.nics_per_rank)).first;
        for (const Slot& s : it->second) out.push_back(GpuRank{m, s.pus, s.gpus, s.nics});
    }
    return out;
}

} // namespace nettopo
