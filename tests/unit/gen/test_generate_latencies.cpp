// GenerateOptions::level_latencies: a generated cluster's machine type gets
// them over whatever table it came with (the defaults, a description's lat.
// options), through generate and the cluster spec language alike, and its
// links keep their classes' latencies (issue 26 part 2).
#include "nettopo/gen/generate.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fstream>

using namespace nettopo;

TEST_CASE("level latencies: generated clusters", "[latency][overrides][gen]") {
    const std::unique_ptr<Family> ring = family_from_spec("ring --machines 3");
    const MachineType machine = synthetic_machine("pack:2 l3:1 core:2 pu:2", {});
    GenerateOptions o;
    o.level_latencies.set(ObjectType::L3, 30);
    o.level_latencies.set(ObjectType::Machine, 200);
    const Cluster c = generate(*ring, machine, o);
    REQUIRE(c.num_types() == 1);
    const MachineType& t = c.type(TypeId(0));
    CHECK(t.latencies()[ObjectType::L3] == 30);
    CHECK(t.latencies()[ObjectType::Core] == 5); // the default stays
    CHECK(t.latency_between(0, 2) == 30);
    CHECK(t.latency_between(0, 4) == 200);
    // The links are the classes' (ring: switch-switch, 100 ns), untouched.
    const Cluster plain = generate(*ring, machine, {});
    CHECK(c.network().links().size() == plain.network().links().size());
    for (std::size_t i = 0; i < c.network().links().size(); ++i)
        CHECK(c.network().links()[i].latency_ns == plain.network().links()[i].latency_ns);
    CHECK(plain.type(TypeId(0)).latencies() == LevelLatencies::defaults());

    // The spec language passes them on, with its own --latency for links.
    const Cluster spec = generate_from_spec(
        "ring --machines 3 --machine 'pack:2 l3:1 core:2 pu:2' --latency all=7", o);
    CHECK(spec.type(TypeId(0)).latencies() == t.latencies());
    CHECK(spec.network().links()[0].latency_ns == 7);
}

TEST_CASE("level latencies: over the table of a machine read from a file",
          "[latency][overrides][gen]") {
    test::TempDir dir("nettopo-genlat-");
    const std::string path = dir / "m.topo";
    std::ofstream(path) << "machine m pack:1 l3:1 core:2 pu:1 lat.L3=33 lat.Core=4\n";
    const MachineType machine = machine_from_file(path, {});
    CHECK(machine.latencies()[ObjectType::L3] == 33);
    GenerateOptions o;
    o.level_latencies.set(ObjectType::L3, 30);
    const Cluster c = generate(*family_from_spec("ring --machines 3"), machine, o);
    CHECK(c.type(TypeId(0)).latencies()[ObjectType::L3] == 30);
    CHECK(c.type(TypeId(0)).latencies()[ObjectType::Core] == 4); // the file's, not overridden
    CHECK(c.type(TypeId(0)).latency_between(0, 1) == 30);
}
