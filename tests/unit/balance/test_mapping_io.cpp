// Mapping files: CSV and rankfile round trips on random and real clusters,
// every reader error with its file:line, Slurm launch files on hand-checked
// cases.
#include "nettopo/balance/mapping_io.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/random_cluster.hpp"
#include "testkit/real_data.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <sstream>

using namespace nettopo;

namespace {

std::string write(const test::TempDir& dir, std::string_view name, std::string_view text) {
    const std::string path = dir / name;
    std::ofstream(path) << text;
    return path;
}

std::vector<PeId> random_mapping(std::mt19937_64& rng, std::uint32_t tasks, std::uint32_t pes) {
    std::vector<PeId> m;
    for (std::uint32_t t = 0; t < tasks; ++t) m.push_back(PeId(std::uint32_t(rng() % pes)));
    return m;
}

// The mapping through a CSV file and through a rankfile.
void round_trips(const test::TempDir& dir, const Cluster& cluster, const std::vector<PeId>& m) {
    std::ostringstream csv, ranks;
    write_mapping(csv, m);
    CHECK(read_mapping(write(dir, "m.csv", csv.str()), cluster, std::uint32_t(m.size())) == m);
    write_rankfile(ranks, cluster, m);
    CHECK(read_rankfile(write(dir, "ranks", ranks.str()), cluster) == m);
}

template <class F> void fails_with(F&& read, const std::string& message) {
    try {
        read();
        FAIL("accepted");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == message);
    }
}

} // namespace

TEST_CASE("mappings and rankfiles round-trip on random clusters", "[balance][mapping_io]") {
    const test::TempDir dir("nettopo-mapping-");
    std::mt19937_64 rng(8);
    for (int i = 0; i < 12; ++i) {
        const Cluster cluster = test::build_cluster(test::random_cluster(rng));
        const std::vector<PeId> m = random_mapping(rng, 1 + rng() % 200, cluster.num_pes());
        round_trips(dir, cluster, m);
        // The rankfile's slot is the PE's offset inside its machine.
        std::ostringstream ranks;
        write_rankfile(ranks, cluster, m);
        std::istringstream lines(ranks.str());
        std::string line;
        for (std::size_t r = 0; std::getline(lines, line); ++r) {
            const MachineId mach = cluster.machine_of(m[r]);
            CHECK(line == fmt::format("rank {}={} slot={}", r, cluster.machine_name(mach),
                                      m[r].value - cluster.pes_of_machine(mach).first));
        }
    }
}

TEST_CASE("rankfiles round-trip on a real cluster", "[balance][mapping_io]") {
    if (!test::have_real_cluster("plafrim")) return;
    const Assembly a = test::assemble_real_cluster("plafrim");
    const test::TempDir dir("nettopo-mapping-");
    std::mt19937_64 rng(2);
    for (int i = 0; i < 5; ++i)
        round_trips(dir, a.cluster, random_mapping(rng, 500, a.cluster.num_pes()));
}

TEST_CASE("CSV readers name the file and line of what is wrong", "[balance][mapping_io]") {
    const test::TempDir dir("nettopo-mapping-");
    const Cluster cluster = generate_from_spec("complete --machines 2 --machine 'core:2 pu:1'");
    const auto mapping = [&](std::string_view text, std::uint32_t tasks = 3) {
        const std::string path = write(dir, "m.csv", text);
        return [path, tasks, &cluster] { return read_mapping(path, cluster, tasks); };
    };
    const std::string m = dir / "m.csv";
    CHECK(mapping("# a comment\n\ntask,pe\n2,3\n0,0\n 1 , 1 \n")() ==
          std::vector<PeId>{PeId(0), PeId(1), PeId(3)});
    fails_with(mapping("task,pu\n0,0\n"), m + ":1: expected the header 'task,pe', found 'task,pu'");
    fails_with(mapping("0,0\n"), m + ":1: expected the header 'task,pe', found '0,0'");
    fails_with(mapping("# nothing\n"), m + ": no header 'task,pe': the file has no data");
    fails_with(mapping("task,pe\n0,0\nx,1\n"), m + ":3: task 'x' is not a whole number");
    fails_with(mapping("task,pe\n0,1x\n"), m + ":2: pe '1x' is not a whole number");
    fails_with(mapping("task,pe\n0,1,2\n"), m + ":2: expected 2 fields (task,pe), found 3");
    fails_with(mapping("task,pe\n0\n"), m + ":2: expected 2 fields (task,pe), found 1");
    fails_with(mapping("task,pe\n0,0\n3,0\n"), m + ":3: task 3 out of range: 3 tasks, 0..2");
    fails_with(mapping("task,pe\n0,0\n1,0\n\n0,1\n"),
               m + ":5: task 0 given twice (first on line 2)");
    fails_with(mapping("task,pe\n0,0\n2,0\n"), m + ": task 1 is missing (3 tasks expected)");
    fails_with(mapping("task,pe\n0,4\n"), m + ":2: PE 4 out of range: the cluster has 4 PEs");
    fails_with(mapping("task,pe\n0,-1\n"), m + ":2: pe '-1' is not a whole number");
    fails_with([&] { return read_mapping(dir / "absent.csv", cluster, 1); },
               dir / "absent.csv" + ": cannot open the file");

    const std::string l = dir / "l.csv";
    CHECK(read_task_loads(write(dir, "l.csv", "task,load\n1,0.5\n0,2e-3\n")) ==
          std::vector<double>{2e-3, 0.5});
    fails_with([&] { return read_task_loads(write(dir, "l.csv", "task,load\n0,-1\n")); },
               l + ":2: load -1 is negative");
    fails_with([&] { return read_task_loads(write(dir, "l.csv", "task,load\n0,fast\n")); },
               l + ":2: load 'fast' is not a number");
    fails_with([&] { return read_task_loads(write(dir, "l.csv", "task,load\n0,1\n2,1\n")); },
               l + ":3: task 2 out of range: 2 tasks, 0..1");
    fails_with([&] { return read_task_loads(write(dir, "l.csv", "task,load\n1,1\n1,1\n")); },
               l + ":3: task 1 given twice (first on line 2)");

    const std::string g = dir / "g.csv";
    const TaskGraph graph = read_task_graph(write(dir, "g.csv", "a,b,bytes\n0,1,10\n1,0,5\n"), 3);
    REQUIRE(graph.num_edges() == 1);
    CHECK(graph.edges()[0].bytes == 15);
    fails_with([&] { return read_task_graph(write(dir, "g.csv", "a,b,bytes\n0,3,1\n"), 3); },
               g + ":2: task 3 out of range: 3 tasks, 0..2");
    fails_with([&] { return read_task_graph(write(dir, "g.csv", "a,b,bytes\n0,1,1 2\n"), 3); },
               g + ":2: bytes '1 2' is not a number");
    fails_with([&] { return read_task_graph(write(dir, "g.csv", "a,b\n0,1\n"), 3); },
               g + ":1: expected the header 'a,b,bytes', found 'a,b'");
}

TEST_CASE("rankfile reader names the file and line of what is wrong", "[balance][mapping_io]") {
    const test::TempDir dir("nettopo-mapping-");
    const Cluster cluster = generate_from_spec("complete --machines 2 --machine 'core:2 pu:1'");
    const std::string h0(cluster.machine_name(MachineId(0))),
        h1(cluster.machine_name(MachineId(1)));
    const std::string r = dir / "ranks";
    const auto ranks = [&](const std::string& text) {
        write(dir, "ranks", text);
        return [&] { return read_rankfile(dir / "ranks", cluster); };
    };
    CHECK(ranks(fmt::format("# mine\nrank 1={} slot=1\n\nrank 0={} slot=0\n", h1, h0))() ==
          std::vector<PeId>{PeId(0), PeId(3)});
    fails_with(ranks("rank 0=nohost slot=0\n"),
               r + ":1: host 'nohost' is not in the cluster; known machines: n[0-1]");
    fails_with(ranks("rank 0=nl slot=0\n"),
               r + ":1: host 'nl' is not in the cluster; did you mean n1?");
    fails_with(ranks(fmt::format("rank 0={} slot=2\n", h0)),
               r + ":1: slot 2 out of range: host " + h0 + " has 2 PUs, 0..1");
    fails_with(ranks(fmt::format("rank 0={} slot=0:1\n", h0)),
               r + ":1: slot '0:1': only a single logical PU index is read (not socket:core or "
                   "ranges)");
    fails_with(ranks(fmt::format("rank 0={} slot=0 extra\n", h0)),
               r + ":1: expected 'rank N=HOST slot=P', found 'rank 0=" + h0 + " slot=0 extra'");
    fails_with(ranks(fmt::format("rank x={} slot=0\n", h0)),
               r + ":1: rank 'x' is not a whole number");
    fails_with(ranks(fmt::format("rank 0={} cpu=0\n", h0)),
               r + ":1: expected slot=P, found 'cpu=0'");
    fails_with(ranks(fmt::format("rank 0={0} slot=0\nrank 0={0} slot=1\n", h0)),
               r + ":2: rank 0 given twice (first on line 1)");
    fails_with(ranks(fmt::format("rank 0={0} slot=0\nrank 2={0} slot=1\n", h0)),
               r + ":2: rank 2 out of range: the file has 2 ranks, 0..1");
}

TEST_CASE("physical rankfiles name the PUs' OS indexes", "[balance][mapping_io]") {
    if (!test::have_real_cluster("plafrim")) return;
    const Assembly a = test::assemble_real_cluster("plafrim");
    const Cluster& c = a.cluster;
    // Every PU of a few machines, whatever hwloc numbered: slot = P#.
    std::vector<PeId> m;
    std::string want;
    for (std::uint32_t mach = 0; mach < c.num_machines(); mach += 17) {
        const PeRange pes = c.pes_of_machine(MachineId(mach));
        const MachineTree& tree = c.machine_type(MachineId(mach)).tree();
        for (std::uint32_t i = 0; i < pes.count; ++i) {
            want += fmt::format("rank {}={} slot={}\n", m.size(), c.machine_name(MachineId(mach)),
                                tree.object(tree.pu(i)).os_index);
            m.push_back(pes[i]);
        }
    }
    std::ostringstream out;
    write_rankfile(out, c, m, RankfileSlots::physical);
    CHECK(out.str() == want);
}

TEST_CASE("Slurm launch: hostfile per rank, one map_cpu list when the nodes agree",
          "[balance][mapping_io]") {
    const Cluster cluster = generate_from_spec("complete --machines 2 --machine 'core:2 pu:1'");
    const std::string h0(cluster.machine_name(MachineId(0))),
        h1(cluster.machine_name(MachineId(1)));
    // hwloc's synthetic PUs are numbered P#0.. in logical order.
    const MachineTree& tree = cluster.machine_type(MachineId(0)).tree();
    REQUIRE(tree.object(tree.pu(1)).os_index == 1);

    SlurmLaunch s = slurm_launch(cluster, std::vector<PeId>{PeId(0), PeId(1), PeId(2), PeId(3)});
    CHECK(s.hostfile == fmt::format("{0}\n{0}\n{1}\n{1}\n", h0, h1));
    CHECK(s.cpu_bind == "map_cpu:0,1");
    CHECK(s.notes.empty());

    // Node 0 runs one rank on CPU 0, node 1 two on CPUs 0 and 1: a prefix.
    s = slurm_launch(cluster, std::vector<PeId>{PeId(0), PeId(2), PeId(3)});
    CHECK(s.hostfile == fmt::format("{0}\n{1}\n{1}\n", h0, h1));
    CHECK(s.cpu_bind == "map_cpu:0,1");

    s = slurm_launch(cluster, std::vector<PeId>{PeId(3), PeId(1)});
    CHECK(s.hostfile == fmt::format("{}\n{}\n", h1, h0));
    CHECK(s.cpu_bind == "map_cpu:1");

    // Node 0: CPUs 1 then 0; node 1: CPU 0. No single list serves both.
    s = slurm_launch(cluster, std::vector<PeId>{PeId(1), PeId(2), PeId(0)});
    CHECK(s.hostfile == fmt::format("{0}\n{1}\n{0}\n", h0, h1));
    CHECK(s.cpu_bind.empty());
    CHECK_THAT(s.notes, Catch::Contains(fmt::format("{}: map_cpu:1,0\n", h0)));
    CHECK_THAT(s.notes, Catch::Contains(fmt::format("{}: map_cpu:0\n", h1)));

    CHECK_THROWS_AS(slurm_launch(cluster, std::vector<PeId>{PeId(4)}), UsageError);
}

TEST_CASE("Slurm launch on a real cluster uses the PUs' OS indexes", "[balance][mapping_io]") {
    if (!test::have_real_cluster("plafrim")) return;
    const Assembly a = test::assemble_real_cluster("plafrim");
    const Cluster& c = a.cluster;
    // All ranks on one machine, one per PU in logical order: the list is
    // the machine's P# in logical order, whatever hwloc numbered.
    const PeRange pes = c.pes_of_machine(MachineId(0));
    std::vector<PeId> m;
    std::string want;
    const MachineTree& tree = c.machine_type(MachineId(0)).tree();
    for (std::uint32_t i = 0; i < pes.count; ++i) {
        m.push_back(pes[i]);
        want += fmt::format("{}{}", i ? "," : "map_cpu:", tree.object(tree.pu(i)).os_index);
    }
    const SlurmLaunch s = slurm_launch(c, m);
    CHECK(s.cpu_bind == want);
    CHECK(s.notes.empty());
}
