// AssembleOptions::level_latencies: every machine type of an assembled
// cluster gets them, whether its hosts came from exports, gathered trees or
// --default-machine; the link-kind overrides keep their own meaning (issue 26
// part 2).
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"

#include <catch2/catch.hpp>

using namespace nettopo;

namespace {

AssembleOptions with_overrides() {
    AssembleOptions o;
    o.level_latencies.set(ObjectType::L3, 30);
    o.level_latencies.set(ObjectType::Machine, 200);
    return o;
}

void require_overridden(const Cluster& c) {
    REQUIRE(c.num_types() >= 1);
    for (std::uint32_t t = 0; t < c.num_types(); ++t) {
        CHECK(c.type(TypeId(t)).latencies()[ObjectType::L3] == 30);
        CHECK(c.type(TypeId(t)).latencies()[ObjectType::Machine] == 200);
        CHECK(c.type(TypeId(t)).latencies()[ObjectType::Core] == 5);
    }
}

} // namespace

TEST_CASE("level latencies: assembled clusters", "[latency][overrides][assemble]") {
    // A Slurm fabric whose hosts have no export: --default-machine.
    ClusterSources slurm;
    slurm.slurm = NETTOPO_TEST_DATA "/slurm/topology-tree.conf";
    AssembleOptions o = with_overrides();
    o.default_machine = "pack:2 l3:1 core:2 pu:2";
    set_latency_override(o, "switch-switch=50");
    const Assembly a = assemble_from_files(slurm, o);
    require_overridden(a.cluster);
    CHECK(a.cluster.type(TypeId(0)).latency_between(0, 2) == 30);
    // The link kinds are still link kinds.
    for (const Link& l : a.cluster.network().links()) {
        const bool between_switches =
            l.a.value >= a.cluster.num_machines() && l.b.value >= a.cluster.num_machines();
        CHECK(l.latency_ns == (between_switches ? 50 : 200));
    }

    // Gathered trees (an MPI gather), on one flat switch.
    GatheredHosts g;
    g.trees.push_back(tree_from_synthetic("pack:2 l3:1 core:2 pu:1"));
    g.hosts = {{"h0", 0, "h0"}, {"h1", 0, "h1"}};
    AssembleOptions flat = with_overrides();
    flat.hosts_only = true;
    require_overridden(assemble_gathered(g, nullptr, flat).cluster);
}
