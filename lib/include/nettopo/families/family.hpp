/// \file
/// Synthetic network families (fat-tree/XGFT, binary tree, mesh, torus,
/// hypercube, dragonfly, butterfly, slim fly, complete graph, ring): their
/// closed-form sizes, degrees, diameters and hop counts, and the enumeration
/// of their vertices and links.
///
/// A Family knows its graph without building it. Its vertices are numbered as
/// a Cluster numbers them once generated (machines 0..M-1, then switches), so
/// every formula here can be checked against a search on the built network,
/// and later used in place of one (an O(1) distance oracle).
///
/// Families and their layout are documented in share/doc/generators.md.
///
/// \threads A Family is immutable once made: its const calls may be made
/// from several threads at once. The factories and parsers are pure
/// functions of their arguments: safe from several threads at once.
/// \cost A Family's formulas (counts, degree, diameter, machine_hops,
/// shortest_hops, machine_latency_ps) are O(1), or O(levels, dimensions or
/// stages); the dragonfly's machine_hops is O(L), its global links between
/// two groups, its shortest_hops O(h), a router's global links. They
/// allocate nothing (but layout() and spec(), which may throw
/// std::bad_alloc) and throw nothing else; emit() is linear in the graph and
/// throws what the sink throws. The factories and parsers are O(parameters)
/// but make_dragonfly, O(g x (L + a)) for its diameter, and make_slimfly,
/// O(q^2) at worst for the tables of GF(q); they throw UsageError (or
/// std::bad_alloc).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// The kind of a generated link; each kind has its own latency and bandwidth.
enum class LinkClass : std::uint8_t {
    HostSwitch,   ///< a machine to its switch or router
    SwitchSwitch, ///< between switches, or between machines of a direct network
    Local,        ///< dragonfly: between two routers of one group
    Global,       ///< dragonfly: between groups
};
inline constexpr std::size_t link_class_count = 4; ///< number of LinkClass values
/// "host-switch", "switch-switch", "local" or "global". O(1), throws nothing.
std::string_view link_class_name(LinkClass c);

/// The latency of each link class in integer picoseconds (to_picoseconds of
/// the class' latency in ns, as the searches add them), indexed by LinkClass;
/// -1 for a class the family has no link of.
using ClassLatenciesPs = std::array<std::int64_t, link_class_count>;

/// A point of a family's drawing, in grid steps (the length of a mesh link);
/// y grows downwards, as on a page.
struct PlanePoint {
    double x = 0;                                       ///< across
    double y = 0;                                       ///< down
    bool operator==(const PlanePoint&) const = default; ///< same point
};

/// How a family's hop count is meant.
enum class HopRule : std::uint8_t {
    Shortest,       ///< fewest links between the two machines: what BFS finds
    MinimalRouting, ///< links on the route minimal routing takes; can exceed the shortest
};

/// Receives a family's graph: machines first, then switches, then links
/// between vertex indexes (machines 0..M-1, switches M..M+S-1).
/// \threads Family::emit calls its sink from the thread that called emit,
/// one call at a time.
/// \cost A program's: emit makes one call per machine run, switch run and
/// link. What a call throws ends emit and comes out of it.
class FamilySink {
public:
    virtual ~FamilySink() = default;
    /// `count` vertices named prefix0, prefix1, ...
    virtual void machines(std::string_view prefix, std::uint32_t count) = 0;
    /// `count` switches named prefix0, prefix1, ...
    virtual void switches(std::string_view prefix, std::uint32_t count) = 0;
    /// A link of class `c` between vertices `a` and `b`.
    virtual void link(std::uint32_t a, std::uint32_t b, LinkClass c) = 0;
    /// Machine `machine`'s adapter `index` (named mlx5_<index>) is the end of
    /// its link to vertex `peer` (model/attachment.hpp), given after that
    /// link. Families whose hosts have several adapters give them (the
    /// rail-optimized family: adapter r on the rail-r leaf); by default
    /// nothing is kept.
    virtual void adapter(std::uint32_t machine, std::uint32_t index, std::uint32_t peer) {
        (void)machine, (void)index, (void)peer;
    }
};

/// A network family with its parameters (see the file's comment), made by
/// the make_* factories or family_from_spec.
class Family {
public:
    virtual ~Family() = default; ///< frees the family

    /// The family and its parameters as nettopo-gen takes them, e.g.
    /// "torus --dims 16x16 --concentration 2". Also the default cluster name.
    virtual std::string spec() const = 0;

    /// Machines of the family's network.
    virtual std::uint64_t num_machines() const = 0;
    /// Switches of the family's network.
    virtual std::uint64_t num_switches() const = 0;
    /// Links of the family's network.
    virtual std::uint64_t num_links() const = 0;
    /// Machines + switches.
    std::uint64_t num_vertices() const { return num_machines() + num_switches(); }

    /// Number of links at a vertex (machines first, then switches).
    virtual std::uint32_t degree(std::uint32_t vertex) const = 0;

    /// Links between two machines (0 for the same machine), under hop_rule().
    virtual std::uint32_t machine_hops(std::uint32_t a, std::uint32_t b) const = 0;
    /// How machine_hops is meant.
    virtual HopRule hop_rule() const { return HopRule::Shortest; }
    /// Largest machine_hops over all pairs of machines.
    virtual std::uint32_t diameter() const = 0;

    /// Fewest links between two machines, what BFS finds: machine_hops for
    /// HopRule::Shortest families; for the dragonfly it can be less than
    /// minimal routing (through a third group). O(1), or O(levels, stages,
    /// global links per router).
    virtual std::uint32_t shortest_hops(std::uint32_t a, std::uint32_t b) const {
        return machine_hops(a, b);
    }

    /// Whether machine_latency_ps is exact (what Dijkstra finds) when the
    /// classes have the latencies `ps`. False where the cheapest path depends
    /// on more than a formula knows (the dragonfly with local and global
    /// latencies that differ), and for a family that gives no formula.
    virtual bool has_latency_formula(const ClassLatenciesPs&) const { return false; }
    /// Smallest total latency between two machines in picoseconds, for class
    /// latencies `ps` for which has_latency_formula holds (-1 otherwise, and
    /// where the sum would pass int64 picoseconds: limits.hpp's latency_sum_ps).
    /// Same cost as shortest_hops.
    virtual std::int64_t machine_latency_ps(std::uint32_t, std::uint32_t,
                                            const ClassLatenciesPs&) const {
        return -1;
    }

    /// Feeds the whole graph to `sink`, in time linear in its size.
    virtual void emit(FamilySink& sink) const = 0;

    /// Where to draw each vertex (machines first, then switches), for
    /// pictures only: a mesh or torus as its grid (dimensions 0, 2, 4, ...
    /// across, 1, 3, ... down, each further dimension as copies of the grid
    /// side by side or one below the other), a hypercube as its standard
    /// projection (square, cube, cubes side by side, ...), a ring or complete
    /// graph on a circle, a dragonfly's groups on a circle, a slim fly's
    /// groups in two columns (one per subgraph); machines attached
    /// to a router around it. Empty when the family has no drawing of its own
    /// (trees, butterflies: a layered drawing shows their levels best).
    /// O(vertices).
    virtual std::vector<PlanePoint> layout() const { return {}; }
    /// Whether the link between vertices a and b closes a line of layout()
    /// into a ring: a torus link from the last router of a line back to its
    /// first, which a drawing shows apart (it would run along the whole line).
    virtual bool wraps_around(std::uint32_t, std::uint32_t) const { return false; }
};

/// Factories. Each validates its parameters and throws UsageError naming the
/// bad one (zero sizes, a dragonfly with g > a*h+1, a slim fly whose q is not a
/// prime power, sizes that do not fit nettopo's 32-bit ids, ...).
///
/// Direct networks (mesh, torus, hypercube, tree, complete, ring) take a
/// concentration: 0 makes each vertex a machine with its router built in (as
/// the thesis and Blue Gene do); C >= 1 makes each vertex a switch with C
/// machines attached.
std::unique_ptr<Family> make_fat_tree(std::uint32_t k, std::uint32_t n); ///< k-ary n-tree
/// XGFT(h; m1..mh; w1..wh): level i nodes have m_i children and w_i parents.
std::unique_ptr<Family> make_xgft(std::vector<std::uint32_t> m, std::vector<std::uint32_t> w);
/// A complete binary tree of `levels` levels.
std::unique_ptr<Family> make_binary_tree(std::uint32_t levels, std::uint32_t concentration = 0);
/// A mesh of sides `dims`.
std::unique_ptr<Family> make_mesh(std::vector<std::uint32_t> dims, std::uint32_t concentration = 0);
/// A torus of sides `dims`.
std::unique_ptr<Family> make_torus(std::vector<std::uint32_t> dims,
                                   std::uint32_t concentration = 0);
/// A hypercube of dimension `dim`.
std::unique_ptr<Family> make_hypercube(std::uint32_t dim, std::uint32_t concentration = 0);
/// a = 0 and h = 0 pick the balanced a = 2p, h = p; g = 0 picks the largest,
/// a*h+1 groups (one global link between every pair). g must exceed h (when
/// g > 1) so that a router's h global links reach h different groups.
std::unique_ptr<Family> make_dragonfly(std::uint32_t p, std::uint32_t a, std::uint32_t h,
                                       std::uint32_t g = 0);
std::unique_ptr<Family> make_butterfly(std::uint32_t k, std::uint32_t n); ///< k-ary n-fly
/// p = 0 picks ceil(k'/2) hosts per router, k' = (3q - delta)/2 the router radix.
std::unique_ptr<Family> make_slimfly(std::uint32_t q, std::uint32_t p = 0);
/// A complete graph of `machines` vertices.
std::unique_ptr<Family> make_complete(std::uint32_t machines, std::uint32_t concentration = 0);
/// A ring of `machines` vertices.
std::unique_ptr<Family> make_ring(std::uint32_t machines, std::uint32_t concentration = 0);
/// Rail-optimized GPU fabric (NVIDIA DGX SuperPOD): `units` scalable units of
/// `hosts_per_unit` hosts, adapter r of each host on its unit's rail-r leaf,
/// every leaf on every one of `spines` spines (at least 1 with several units).
std::unique_ptr<Family> make_rail_optimized(std::uint32_t units, std::uint32_t hosts_per_unit,
                                            std::uint32_t rails, std::uint32_t spines);

/// The four cases of the thesis (Table 11), one-PE machines and unit links
/// aside (see GeneratorPreset): "tree-M", "mesh2D", "mesh3D", "tree-G".
std::unique_ptr<Family> make_preset(std::string_view name);
/// The names make_preset takes, for messages.
inline constexpr std::string_view preset_names = "tree-M, mesh2D, mesh3D, tree-G";

/// Command-line value parsers; UsageError on bad text.
std::vector<std::uint32_t> parse_dims(std::string_view text); ///< "16x16", "4x4x4x4x2"
/// XGFT parameters, as parse_xgft reads them.
struct XgftParams {
    std::vector<std::uint32_t> m; ///< children per node of each level
    std::vector<std::uint32_t> w; ///< parents per node of each level
};
XgftParams parse_xgft(std::string_view text); ///< "h;m1,..,mh;w1,..,wh"

/// The family a spec() text names, e.g. "torus --dims 16x16 --concentration 2"
/// or "fat-tree --xgft \"2;4,4;1,4\"": every text a family's spec() gives
/// (options in any order, values quoted or not), read by the registry of
/// families (families/detail/family_registry.hpp). UsageError on anything else.
std::unique_ptr<Family> family_from_spec(std::string_view spec);

} // namespace nettopo
