// diff_clusters: both clusters' vertices are matched by name once (a vertex
// map each way, through a hash of the names), then every link is looked up in the other cluster's
// CSR by its mapped ends (neighbours are sorted by vertex id: a binary search), so no table of
// links or of link names is built. Clusters written from one source usually keep their order: a
// machine whose name sits at the same index in the other cluster needs no name lookup at all.
#include "nettopo/model/cluster_diff.hpp"

#include "nettopo/support/detail/parse.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace nettopo {

MachineCounts machine_counts(const MachineType& type) {
    const MachineTree& tree = type.tree();
    MachineCounts c;
    c.packages = tree.count(ObjectType::Package);
    c.cores = tree.count(ObjectType::Core);
    c.pus = tree.num_pus();
    for (const MemoryObject& m : tree.memory())
        if (m.type == ObjectType::NUMANode) {
            ++c.numa_nodes;
            c.memory_bytes += m.size_bytes;
        }
    c.nodes = type.num_nodes();
    c.node_type = type.node_type();
    return c;
}

namespace {

constexpr std::uint32_t unmatched = 0xffffffffu;

// nullopt when the two types model the machine the same way.
std::optional<MachineChange> compare_types(const MachineType& e, const MachineType& a) {
    MachineChange c;
    c.expected = machine_counts(e);
    c.actual = machine_counts(a);
    c.latencies = e.latencies() != a.latencies();
    const MachineTree& te = e.tree();
    const MachineTree& ta = a.tree();
    if (!(te == ta)) {
        const auto objects_e = te.objects(), objects_a = ta.objects();
        const auto memory_e = te.memory(), memory_a = ta.memory();
        c.layout = objects_e.size() != objects_a.size() || memory_e.size() != memory_a.size();
        for (std::size_t i = 0; !c.layout && i < objects_e.size(); ++i) {
            const TreeObject &x = objects_e[i], &y = objects_a[i];
            c.layout = x.type != y.type || x.parent != y.parent;
            c.os_indexes |= x.os_index != y.os_index;
            c.cache_sizes |= x.size_bytes != y.size_bytes;
        }
        for (std::size_t i = 0; !c.layout && i < memory_e.size(); ++i) {
            const MemoryObject &x = memory_e[i], &y = memory_a[i];
            c.layout = x.type != y.type || x.parent != y.parent;
            c.os_indexes |= x.os_index != y.os_index;
            (x.type == ObjectType::NUMANode ? c.numa_memory : c.cache_sizes) |=
                x.size_bytes != y.size_bytes;
        }
        c.cpu_kinds = !std::equal(te.cpu_kinds().begin(), te.cpu_kinds().end(),
                                  ta.cpu_kinds().begin(), ta.cpu_kinds().end());
        for (std::uint32_t pu = 0; !c.layout && !c.cpu_kinds && pu < te.num_pus(); ++pu)
            c.cpu_kinds = te.cpu_kind_of_pu(pu) != ta.cpu_kind_of_pu(pu);
        if (c.layout) // no longer comparable
            c.os_indexes = c.cache_sizes = c.numa_memory = c.cpu_kinds = false;
    }
    const bool same = c.expected == c.actual && !c.layout && !c.os_indexes && !c.cache_sizes &&
                      !c.numa_memory && !c.latencies && !c.cpu_kinds;
    if (same) return std::nullopt;
    return c;
}

// The names of one cluster's machines (or switches) -> their index, by open
// addressing over a flat array: about ten times faster than the cluster's
// sorted index for a million lookups. Built only for names not found at the
// same index in both clusters.
class NameHash {
public:
    template <class NameOf> NameHash(std::uint32_t n, NameOf name_of) {
        std::size_t size = 2;
        while (size < 2 * std::size_t{n}) size *= 2;
        slots_.assign(size, unmatched);
        names_.reserve(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            names_.push_back(name_of(i));
            std::size_t at = slot(names_.back());
            while (slots_[at] != unmatched) at = (at + 1) & (slots_.size() - 1);
            slots_[at] = i;
        }
    }
    std::uint32_t find(std::string_view name) const {
        for (std::size_t at = slot(name);; at = (at + 1) & (slots_.size() - 1))
            if (slots_[at] == unmatched || names_[slots_[at]] == name) return slots_[at];
    }

private:
    std::size_t slot(std::string_view name) const {
        return std::hash<std::string_view>{}(name) & (slots_.size() - 1);
    }
    std::vector<std::uint32_t> slots_;
    std::vector<std::string_view> names_; // views into the cluster's name table
};

// Vertex v of `from` -> the vertex of the same name and kind in `to`, or unmatched.
std::vector<std::uint32_t> match_vertices(const Cluster& from, const Cluster& to) {
    std::vector<std::uint32_t> map(from.network().num_vertices(), unmatched);
    std::optional<NameHash> machines, switches; // built at the first name not in place
    for (std::uint32_t m = 0; m < from.num_machines(); ++m) {
        const std::string_view name = from.machine_name(MachineId(m));
        if (m < to.num_machines() && to.machine_name(MachineId(m)) == name) {
            map[m] = m;
            continue;
        }
        if (!machines)
            machines.emplace(to.num_machines(),
                             [&](std::uint32_t i) { return to.machine_name(MachineId(i)); });
        if (const std::uint32_t found = machines->find(name); found != unmatched) map[m] = found;
    }
    for (std::uint32_t s = 0; s < from.num_switches(); ++s) {
        const std::string_view name = from.switch_name(SwitchId(s));
        std::uint32_t found = s;
        if (s >= to.num_switches() || to.switch_name(SwitchId(s)) != name) {
            if (!switches)
                switches.emplace(to.num_switches(),
                                 [&](std::uint32_t i) { return to.switch_name(SwitchId(i)); });
            found = switches->find(name);
        }
        if (found != unmatched)
            map[from.vertex(SwitchId(s)).value] = to.vertex(SwitchId(found)).value;
    }
    return map;
}

// The link joining a and b, if any.
std::optional<std::uint32_t> link_between(const Network& net, VertexId a, VertexId b) {
    const auto neighbors = net.neighbors(a);
    const auto it = std::lower_bound(neighbors.begin(), neighbors.end(), b);
    if (it == neighbors.end() || *it != b) return std::nullopt;
    return net.neighbor_links(a)[static_cast<std::size_t>(it - neighbors.begin())];
}

bool same_bandwidth(double x, double y) {
    // Read back from decimal text, equal rates may differ in the last bit.
    return std::abs(x - y) <= 1e-9 * std::max(std::abs(x), std::abs(y));
}

class Differ {
public:
    Differ(const Cluster& expected, const Cluster& actual)
        : e_(expected), a_(actual), to_actual_(match_vertices(expected, actual)),
          to_expected_(match_vertices(actual, expected)) {}

    ClusterDiff run() && {
        unmatched_vertices(e_, to_actual_, DifferenceKind::machine_missing,
                           DifferenceKind::switch_missing);
        unmatched_vertices(a_, to_expected_, DifferenceKind::machine_added,
                           DifferenceKind::switch_added);
        changed_machines();
        links();
        if (e_.has_attachments() && a_.has_attachments()) adapters();
        std::sort(out_.differences.begin(), out_.differences.end(),
                  [](const ClusterDifference& x, const ClusterDifference& y) {
                      if (x.kind != y.kind) return x.kind < y.kind;
                      if (const int c = natural_compare(x.name, y.name)) return c < 0;
                      return natural_less(x.peer, y.peer);
                  });
        for (const ClusterDifference& d : out_.differences)
            ++out_.count_by_kind[static_cast<std::size_t>(d.kind)];
        return std::move(out_);
    }

private:
    ClusterDifference& add(DifferenceKind kind, std::string_view name) {
        ClusterDifference& d = out_.differences.emplace_back();
        d.kind = kind;
        d.name = name;
        return d;
    }

    void unmatched_vertices(const Cluster& c, const std::vector<std::uint32_t>& map,
                            DifferenceKind machine, DifferenceKind sw) {
        for (std::uint32_t v = 0; v < map.size(); ++v) {
            if (map[v] != unmatched) continue;
            const VertexId vertex(v);
            ClusterDifference& d =
                add(c.network().is_machine(vertex) ? machine : sw, c.vertex_name(vertex));
            for (VertexId n : c.network().neighbors(vertex))
                d.neighbors.emplace_back(c.vertex_name(n));
            std::sort(d.neighbors.begin(), d.neighbors.end(), natural_less);
        }
    }

    void changed_machines() {
        // Consecutive machines mostly share their pair of types: remember the last.
        std::unordered_map<std::uint64_t, std::optional<MachineChange>> by_pair;
        std::uint64_t last_key = ~std::uint64_t{0};
        const std::optional<MachineChange>* last = nullptr;
        for (std::uint32_t m = 0; m < e_.num_machines(); ++m) {
            const std::uint32_t v = to_actual_[m];
            if (v == unmatched) continue;
            const TypeId te = e_.type_of(MachineId(m)), ta = a_.type_of(MachineId(v));
            const std::uint64_t key = (std::uint64_t{te.value} << 32) | ta.value;
            if (key != last_key) {
                auto [it, added] = by_pair.try_emplace(key);
                if (added) it->second = compare_types(e_.type(te), a_.type(ta));
                last_key = key;
                last = &it->second;
            }
            if (*last)
                add(DifferenceKind::machine_changed, e_.machine_name(MachineId(m))).machine =
                    **last;
        }
    }

    // The link's ends as reported: a machine before a switch, else natural order.
    ClusterDifference& add_link(DifferenceKind kind, const Cluster& c, const Link& l) {
        const bool a_machine = c.network().is_machine(l.a), b_machine = c.network().is_machine(l.b);
        std::string_view first = c.vertex_name(l.a), second = c.vertex_name(l.b);
        if (a_machine != b_machine ? b_machine : natural_less(second, first))
            std::swap(first, second);
        ClusterDifference& d = add(kind, first);
        d.peer = second;
        return d;
    }

    void links() {
        const Network& ne = e_.network();
        const Network& na = a_.network();
        for (const Link& l : ne.links()) {
            const std::uint32_t a = to_actual_[l.a.value], b = to_actual_[l.b.value];
            if (a == unmatched || b == unmatched) continue; // reported with its end
            const auto found = link_between(na, VertexId(a), VertexId(b));
            if (!found) {
                add_link(DifferenceKind::link_missing, e_, l).expected = l.multiplicity;
                continue;
            }
            const Link& m = na.links()[*found];
            if (l.multiplicity != m.multiplicity) {
                ClusterDifference& d = add_link(DifferenceKind::cables_changed, e_, l);
                d.expected = l.multiplicity;
                d.actual = m.multiplicity;
            }
            if (!same_bandwidth(l.bandwidth_gbps, m.bandwidth_gbps)) {
                ClusterDifference& d = add_link(DifferenceKind::bandwidth_changed, e_, l);
                d.expected = l.bandwidth_gbps;
                d.actual = m.bandwidth_gbps;
            }
            if (to_picoseconds(l.latency_ns) != to_picoseconds(m.latency_ns)) {
                ClusterDifference& d = add_link(DifferenceKind::latency_changed, e_, l);
                d.expected = l.latency_ns;
                d.actual = m.latency_ns;
            }
        }
        for (const Link& l : na.links()) {
            const std::uint32_t a = to_expected_[l.a.value], b = to_expected_[l.b.value];
            if (a == unmatched || b == unmatched) continue;
            if (!link_between(ne, VertexId(a), VertexId(b)))
                add_link(DifferenceKind::link_added, a_, l).actual = l.multiplicity;
        }
    }

    // Each adapter port of a machine in both clusters: the same GUID and
    // port (one adapter, whatever each side's join named it), else the same
    // device name and port.
    void adapters() {
        for (std::uint32_t m = 0; m < e_.num_machines(); ++m) {
            const std::uint32_t v = to_actual_[m];
            if (v == unmatched) continue;
            const auto ex = e_.attachments(MachineId(m)), ac = a_.attachments(MachineId(v));
            const std::string_view host = e_.machine_name(MachineId(m));
            std::vector<bool> matched(ac.size(), false);
            const auto find = [&](const Attachment& x) -> std::optional<std::size_t> {
                for (std::size_t i = 0; i < ac.size(); ++i)
                    if (!matched[i] && x.guid != 0 && ac[i].guid == x.guid && ac[i].port == x.port)
                        return i;
                for (std::size_t i = 0; i < ac.size(); ++i)
                    if (!matched[i] && ac[i].device == x.device && ac[i].port == x.port) return i;
                return std::nullopt;
            };
            for (const Attachment& x : ex) {
                const std::optional<std::size_t> y = find(x);
                const std::string name = fmt::format("{}:{}", host, x.device);
                if (!y) {
                    ClusterDifference& d = add(DifferenceKind::adapter_missing, name);
                    d.peer = e_.vertex_name(x.peer);
                    d.port = x.port;
                    continue;
                }
                matched[*y] = true;
                if (e_.vertex_name(x.peer) != a_.vertex_name(ac[*y].peer)) {
                    ClusterDifference& d = add(DifferenceKind::adapter_moved, name);
                    d.peer = a_.vertex_name(ac[*y].peer);
                    d.was = e_.vertex_name(x.peer);
                    d.port = x.port;
                }
            }
            for (std::size_t i = 0; i < ac.size(); ++i)
                if (!matched[i]) {
                    ClusterDifference& d = add(DifferenceKind::adapter_added,
                                               fmt::format("{}:{}", host, ac[i].device));
                    d.peer = a_.vertex_name(ac[i].peer);
                    d.port = ac[i].port;
                }
        }
    }

    const Cluster& e_;
    const Cluster& a_;
    std::vector<std::uint32_t> to_actual_, to_expected_;
    ClusterDiff out_;
};

} // namespace

ClusterDiff diff_clusters(const Cluster& expected, const Cluster& actual) {
    return Differ(expected, actual).run();
}

} // namespace nettopo
