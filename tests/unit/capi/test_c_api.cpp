// The C API (nettopo/nettopo.h) against its slow twin: a single-threaded
// QueryEngine without a distance index over the same file loaded by the C++
// library. Every answer must be equal: the C API looks hops and distances up
// in the index each handle builds, of whichever kind fits (closed form for
// generated families, dense table otherwise here), and nearest PEs in a
// borrowed engine. Then 8 threads query one fresh handle at once (racing to
// build its index) and every answer is compared with the oracle's. The
// device calls are compared with the library's on every real hwloc export of
// ../shared/data, and a job's view with JobView on random allocations.
#include "nettopo/balance/gpu_launch.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/model/job_view.hpp"
#include "nettopo/nettopo.h"
#include "nettopo/query/allocation.hpp"
#include "nettopo/query/device_nearest.hpp"
#include "nettopo/query/distribute.hpp"
#include "nettopo/query/gpu_binding.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/hostlist.hpp"
#include "testkit/random_cluster.hpp"
#include "testkit/real_data.hpp"
#include "testkit/temp_dir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <latch>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace nettopo;

namespace {

struct Closer {
    void operator()(nettopo_topology* t) const { nettopo_close(t); }
};
using Handle = std::unique_ptr<nettopo_topology, Closer>;

Handle open(const std::string& path) {
    nettopo_topology* t = nullptr;
    const int rc = nettopo_open(path.c_str(), &t);
    INFO(nettopo_last_error());
    REQUIRE(rc == NETTOPO_OK);
    REQUIRE(t != nullptr);
    return Handle(t);
}

std::string example(const char* name) {
    return std::string(NETTOPO_SOURCE_DIR "/share/examples/") + name;
}

// One query and its answer, from the oracle or from the C API.
enum class Ask : std::uint8_t { MachineOf, Proximity, Hops, Distance, Nearest };
struct Query {
    Ask ask;
    std::uint32_t a, b; // b: the other PE, or k for Nearest
};
struct Answer {
    int rc = 0;
    std::uint32_t machine = 0, hops = 0;
    int proximity = 0;
    double ns = 0;
    std::vector<NearPe> nearest;
    bool operator==(const Answer&) const = default;
};

std::string describe(const Query& q) {
    static const char* const names[] = {"machine_of", "proximity", "hops", "distance", "nearest"};
    return std::string(names[static_cast<int>(q.ask)]) + " " + std::to_string(q.a) + " " +
           std::to_string(q.b);
}

Answer oracle(const Cluster& c, QueryEngine& e, const Query& q) {
    Answer r;
    const PeId a(q.a), b(q.b);
    switch (q.ask) {
    case Ask::MachineOf:
        r.machine = c.machine_of(a).value;
        break;
    case Ask::Proximity:
        r.proximity = static_cast<int>(c.proximity(a, b));
        break;
    case Ask::Hops:
        if (const auto h = e.hop_count(a, b))
            r.hops = *h;
        else
            r.rc = NETTOPO_UNREACHABLE;
        break;
    case Ask::Distance:
        if (const auto d = e.distance(a, b))
            r.ns = *d;
        else
            r.rc = NETTOPO_UNREACHABLE;
        break;
    case Ask::Nearest:
        r.nearest = e.nearest(a, std::min(q.b, c.num_pes()));
        break;
    }
    return r;
}

// What the C API answers; never touches Catch (it runs on worker threads).
Answer ask(nettopo_topology* t, const Query& q) {
    Answer r;
    switch (q.ask) {
    case Ask::MachineOf:
        r.rc = nettopo_machine_of(t, q.a, &r.machine);
        break;
    case Ask::Proximity:
        r.rc = nettopo_proximity(t, q.a, q.b, &r.proximity);
        break;
    case Ask::Hops:
        r.rc = nettopo_hops(t, q.a, q.b, &r.hops);
        break;
    case Ask::Distance:
        r.rc = nettopo_distance_ns(t, q.a, q.b, &r.ns);
        break;
    case Ask::Nearest: {
        std::vector<std::uint32_t> pes(q.b);
        std::vector<double> ns(q.b);
        std::uint32_t found = 0;
        r.rc = nettopo_nearest(t, q.a, q.b, pes.data(), ns.data(), &found);
        for (std::uint32_t i = 0; i < found && r.rc == NETTOPO_OK; ++i)
            r.nearest.push_back({PeId(pes[i]), ns[i]});
        break;
    }
    }
    return r;
}

// Random queries of every kind over n PEs; nearest asks up to n + 2 PEs.
std::vector<Query> random_queries(std::uint32_t n, std::size_t count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::uint32_t> pe(0, n - 1), kind(0, 9), k(0, n + 2);
    std::vector<Query> v;
    v.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t x = kind(rng);
        const Ask a = x == 0   ? Ask::MachineOf
                      : x == 1 ? Ask::Proximity
                      : x < 5  ? Ask::Hops
                      : x < 9  ? Ask::Distance
                               : Ask::Nearest;
        v.push_back({a, pe(rng), a == Ask::Nearest ? std::min(k(rng), 64u) : pe(rng)});
    }
    return v;
}

// Every pair of PEs (up to 40,000 of them), else the first PE of every
// machine to the first of every other plus random pairs; nearest from a few
// PEs, for several k.
std::vector<Query> thorough_queries(const Cluster& c) {
    const std::uint32_t n = c.num_pes();
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    if (std::uint64_t{n} * n <= 40000) {
        for (std::uint32_t a = 0; a < n; ++a)
            for (std::uint32_t b = 0; b < n; ++b) pairs.push_back({a, b});
    } else {
        const std::uint32_t m = std::min(c.num_machines(), 150u);
        for (std::uint32_t x = 0; x < m; ++x)
            for (std::uint32_t y = 0; y < m; ++y)
                pairs.push_back(
                    {c.pes_of_machine(MachineId(x)).first, c.pes_of_machine(MachineId(y)).first});
        std::mt19937_64 rng(n);
        std::uniform_int_distribution<std::uint32_t> pe(0, n - 1);
        for (int i = 0; i < 5000; ++i) pairs.push_back({pe(rng), pe(rng)});
    }
    std::vector<Query> v;
    for (auto [a, b] : pairs)
        for (Ask k : {Ask::Proximity, Ask::Hops, Ask::Distance}) v.push_back({k, a, b});
    for (std::uint32_t p = 0; p < n; p += std::max(1u, n / 16)) {
        v.push_back({Ask::MachineOf, p, 0});
        for (std::uint32_t k : {0u, 1u, 7u, n / 3, n - 1, n + 5}) v.push_back({Ask::Nearest, p, k});
    }
    return v;
}

// The C API on `path` answers every query as the oracle does.
void check_against_oracle(const std::string& path) {
    INFO(path);
    const Cluster c = load_cluster(path);
    QueryEngine engine(c);
    const Handle t = open(path);
    CHECK(nettopo_num_pes(t.get()) == c.num_pes());
    CHECK(nettopo_num_machines(t.get()) == c.num_machines());
    CHECK(nettopo_num_nodes(t.get()) == c.num_nodes());
    for (std::uint32_t m = 0; m < c.num_machines(); ++m)
        CHECK(nettopo_machine_name(t.get(), m) == c.machine_name(MachineId(m)));
    std::size_t mismatches = 0;
    for (const Query& q : thorough_queries(c)) {
        if (ask(t.get(), q) == oracle(c, engine, q)) continue;
        if (++mismatches > 5) continue; // report a few
        FAIL_CHECK(describe(q) << ": the C API differs from QueryEngine without an index");
    }
    CHECK(mismatches == 0);
}

// Clusters beyond share/examples, written where nettopo_open can read them.
struct Inputs {
    test::TempDir dir{"nettopo-capi-test-"};
    std::vector<std::string> paths;

    Inputs() {
        for (const char* name : {"small-fattree.topo", "fig9b.topo", "ring4.topo"})
            paths.push_back(example(name));
        // Generated families: closed-form indexes (the dragonfly's latencies,
        // local 100 ns and global 300, come from its general index).
        const char* const specs[] = {
            "torus --dims 6x5x4 --machine 'core:2 pu:1'",
            "dragonfly --p 2 --a 4 --h 2 --g 9 --machine 'core:2 pu:1'",
            "fat-tree --k 4 --n 3 --machine 'pack:2 core:2 pu:1'",
        };
        int i = 0;
        for (const char* spec : specs) {
            paths.push_back(dir / ("family" + std::to_string(i++) + ".xml"));
            save_archive(generate_from_spec(spec), paths.back());
        }
        // Random clusters: a description, and a disconnected one as an
        // archive (a description must be connected under the default options).
        std::mt19937_64 rng(12);
        const test::ClusterSpec connected = test::random_cluster(rng);
        paths.push_back(dir / "random.topo");
        std::ofstream(paths.back()) << connected.description();
        test::RandomOptions o;
        o.allow_disconnected = true;
        o.extra_link_ratio = 0.1;
        o.min_machines = 8;
        for (;;) { // until one is disconnected
            const test::ClusterSpec spec = test::random_cluster(rng, o);
            if (spec.connected) continue;
            paths.push_back(dir / "disconnected.xml");
            save_archive(test::build_cluster(spec, true), paths.back());
            break;
        }
    }
};

} // namespace

TEST_CASE("the C API answers as QueryEngine without an index", "[capi]") {
    const Inputs inputs;
    for (const std::string& path : inputs.paths) check_against_oracle(path);
}

TEST_CASE("the C API answers 8 threads querying one handle at once as one thread without an "
          "index",
          "[capi]") {
    const Inputs inputs;
    constexpr unsigned threads = 8;
    constexpr std::size_t per_thread = 4000;
    for (const std::string& path : {inputs.paths[0], inputs.paths[4], inputs.paths.back()}) {
        INFO(path);
        const Cluster c = load_cluster(path);
        QueryEngine engine(c);
        std::vector<std::vector<Query>> queries(threads);
        std::vector<std::vector<Answer>> expected(threads), got(threads);
        for (unsigned i = 0; i < threads; ++i) {
            queries[i] = random_queries(c.num_pes(), per_thread, 100 + i);
            for (const Query& q : queries[i]) expected[i].push_back(oracle(c, engine, q));
        }
        // Each thread also fails once and must read its own message.
        std::vector<std::string> before(threads), after(threads);

        const Handle t = open(path); // fresh: the threads race to build its index
        std::latch start(threads);
        std::vector<std::thread> pool;
        for (unsigned i = 0; i < threads; ++i)
            pool.emplace_back([&, i] {
                before[i] = nettopo_last_error();
                start.arrive_and_wait();
                for (const Query& q : queries[i]) got[i].push_back(ask(t.get(), q));
                std::uint32_t m;
                nettopo_machine_of(t.get(), 1000000 + i, &m);
                for (const Query& q : queries[i]) // more traffic while others fail
                    if (q.ask == Ask::Hops) ask(t.get(), q);
                after[i] = nettopo_last_error();
            });
        for (std::thread& th : pool) th.join();

        for (unsigned i = 0; i < threads; ++i) {
            CHECK(before[i].empty()); // no failure yet on a new thread
            CHECK_THAT(after[i], Catch::Contains("PE " + std::to_string(1000000 + i) + " "));
            REQUIRE(got[i].size() == expected[i].size());
            std::size_t mismatches = 0;
            for (std::size_t j = 0; j < got[i].size(); ++j)
                if (!(got[i][j] == expected[i][j]) && ++mismatches <= 5)
                    FAIL_CHECK("thread " << i << ": " << describe(queries[i][j])
                                         << ": differs from the oracle");
            CHECK(mismatches == 0);
        }
    }
}

TEST_CASE("the C API's failures are codes and messages, never exceptions", "[capi]") {
    const Handle t = open(example("fig9b.topo")); // 12 PEs
    std::uint32_t u = 7;
    CHECK(nettopo_hops(t.get(), 12, 0, &u) == NETTOPO_ERR_RANGE);
    CHECK(u == 7);
    CHECK_THAT(nettopo_last_error(),
               Catch::Equals("nettopo_hops: PE 12 does not exist: the cluster has 12 PEs (0..11)"));
    CHECK(nettopo_machine_name(t.get(), 99) == nullptr);
    CHECK_THAT(nettopo_last_error(), Catch::Contains("machine 99 does not exist"));

    test::TempDir dir("nettopo-capi-test-");
    const std::string empty = dir / "empty.topo", directory = dir.path.string();
    std::ofstream(empty).flush();
    for (const std::string& path : {empty, directory}) {
        nettopo_topology* other = t.get();
        CHECK(nettopo_open(path.c_str(), &other) == NETTOPO_ERR_INPUT);
        CHECK(other == nullptr);
        CHECK_THAT(nettopo_last_error(), Catch::Contains(path));
    }
}

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
    return out;
}

std::string cpuset_text(nettopo_topology* t, std::uint32_t m, std::uint32_t d) {
    std::size_t length = 0;
    REQUIRE(nettopo_device_cpuset(t, m, d, nullptr, 0, &length) == NETTOPO_OK);
    std::string text(length + 1, '\0');
    REQUIRE(nettopo_device_cpuset(t, m, d, text.data(), text.size(), nullptr) == NETTOPO_OK);
    text.resize(length);
    return text;
}

// Every device call of the C API on `path` answers as the library does.
void check_devices_against_library(const std::string& path) {
    INFO(path);
    const Cluster c = load_cluster(path);
    QueryEngine engine(c);
    const Handle t = open(path);
    std::uint32_t gpus = 0;
    for (std::uint32_t m = 0; m < c.num_machines(); ++m) {
        const auto devices = c.machine_type(MachineId(m)).tree().devices();
        std::uint32_t n = 0;
        REQUIRE(nettopo_num_devices(t.get(), m, &n) == NETTOPO_OK);
        REQUIRE(n == devices.size());
        for (std::uint32_t i = 0; i < n; ++i) {
            const MachineDevice d{MachineId(m), i};
            const IoDevice& dev = devices[i];
            INFO(dev.name);
            gpus += dev.kind == DeviceKind::Gpu;
            nettopo_device info;
            REQUIRE(nettopo_device_info(t.get(), m, i, &info) == NETTOPO_OK);
            CHECK(info.kind == static_cast<int>(dev.kind));
            CHECK(info.kind_name == to_string(dev.kind));
            CHECK(info.name == dev.name);
            CHECK(info.names == joined(dev.names));
            CHECK(info.pci_bus_id == device_pci_bus_id(c, d));
            CHECK(info.vendor == dev.vendor);
            CHECK(info.model == dev.model);
            CHECK(info.subtype == dev.subtype);
            CHECK(cpuset_text(t.get(), m, i) == device_cpu_list(c, d));
            std::uint32_t first = 0, count = 0;
            REQUIRE(nettopo_device_pes(t.get(), m, i, &first, &count) == NETTOPO_OK);
            CHECK((first == device_pes(c, d).first && count == device_pes(c, d).count));
            std::vector<std::uint32_t> numa(64);
            REQUIRE(nettopo_device_numa_nodes(t.get(), m, i, numa.data(), 64, &count) ==
                    NETTOPO_OK);
            numa.resize(std::min(count, 64u));
            CHECK(numa == device_numa_nodes(c, d));
            // Found by its name, and by the host's name before it.
            std::uint32_t fm = 0, fd = 0;
            const std::string host = std::string(c.machine_name(MachineId(m))) + ":" + dev.name;
            REQUIRE(nettopo_find_device(t.get(), host.c_str(), &fm, &fd) == NETTOPO_OK);
            CHECK((fm == m && fd == i));
            // Its nearest PEs, within its machine and beyond it.
            for (std::uint32_t k : {1u, count + 3, c.num_pes() + 1}) {
                std::vector<std::uint32_t> pes(k);
                std::vector<double> ns(k);
                std::uint32_t found = 0;
                REQUIRE(nettopo_nearest_to_device(t.get(), m, i, k, pes.data(), ns.data(),
                                                  &found) == NETTOPO_OK);
                const auto want = nearest_to_device(engine, d, std::min(k, c.num_pes()));
                REQUIRE(found == want.size());
                for (std::uint32_t j = 0; j < found; ++j)
                    CHECK((pes[j] == want[j].pe.value && ns[j] == want[j].distance_ns));
            }
        }
        // The nearest devices of a few PEs, of every kind and of each.
        const PeRange pes = c.pes_of_machine(MachineId(m));
        for (std::uint32_t p : {pes.first, pes.first + pes.count / 3, pes.first + pes.count - 1})
            for (int kind = NETTOPO_DEVICE_ANY; kind <= NETTOPO_DEVICE_OTHER; ++kind) {
                std::vector<std::uint32_t> found_devices(devices.size() + 1);
                std::vector<double> latency(devices.size() + 1);
                std::uint32_t found = 0;
                REQUIRE(nettopo_nearest_devices(t.get(), p, kind, n + 1, found_devices.data(),
                                                latency.data(), &found) == NETTOPO_OK);
                std::optional<DeviceKind> of;
                if (kind != NETTOPO_DEVICE_ANY) of = static_cast<DeviceKind>(kind);
                const auto want = nearest_devices(c, PeId(p), of);
                REQUIRE(found == want.size());
                for (std::uint32_t j = 0; j < found; ++j)
                    CHECK((found_devices[j] == want[j].device.index &&
                           latency[j] == want[j].latency_ns));
            }
    }
    if (gpus == 0) return;
    // One GPU a rank on every GPU, and the --env file.
    nettopo_gpu_binding* raw = nullptr;
    REQUIRE(nettopo_distribute_gpus(t.get(), nullptr, gpus, 1, -1, &raw) == NETTOPO_OK);
    const std::unique_ptr<nettopo_gpu_binding, void (*)(nettopo_gpu_binding*)> b(
        raw, nettopo_gpu_binding_close);
    const auto want = distribute_gpus(c, all_machines(c), {gpus, 1, std::nullopt});
    REQUIRE(nettopo_gpu_binding_num_ranks(b.get()) == want.size());
    for (std::uint32_t r = 0; r < want.size(); ++r) {
        nettopo_gpu_rank rank;
        REQUIRE(nettopo_gpu_binding_rank(b.get(), r, &rank) == NETTOPO_OK);
        const auto devices = c.machine_type(want[r].machine).tree().devices();
        std::vector<std::string> g, x;
        for (std::uint32_t i : want[r].gpus) g.push_back(devices[i].name);
        for (std::uint32_t i : want[r].nics) x.push_back(devices[i].name);
        CHECK(rank.machine == want[r].machine.value);
        CHECK(rank.host == c.machine_name(want[r].machine));
        CHECK(rank.cpuset == rank_cpu_list(c, want[r]));
        CHECK(rank.gpus == joined(g));
        CHECK(rank.nics == joined(x));
        CHECK(std::vector<std::uint32_t>(rank.gpu_devices, rank.gpu_devices + rank.num_gpus) ==
              want[r].gpus);
        CHECK(std::vector<std::uint32_t>(rank.nic_devices, rank.nic_devices + rank.num_nics) ==
              want[r].nics);
        REQUIRE(rank.num_pes == want[r].pus.size());
        const std::uint32_t first = c.pes_of_machine(want[r].machine).first;
        for (std::uint32_t j = 0; j < rank.num_pes; ++j)
            CHECK(rank.pes[j] == first + want[r].pus[j]);
    }
    std::size_t length = 0;
    REQUIRE(nettopo_gpu_binding_env(b.get(), "cmd", nullptr, 0, &length) == NETTOPO_OK);
    std::string env(length + 1, '\0');
    REQUIRE(nettopo_gpu_binding_env(b.get(), "cmd", env.data(), env.size(), nullptr) == NETTOPO_OK);
    env.resize(length);
    CHECK(env == gpu_env_script(c, want, "cmd"));
}

} // namespace

TEST_CASE("the C API's devices answer as the library on every real export", "[capi][real]") {
    int with_devices = 0;
    for (const std::string& path : test::real_xmls()) {
        check_devices_against_library(path);
        with_devices += !load_cluster(path).type(TypeId(0)).tree().devices().empty();
    }
    CHECK(with_devices >= 10);
}

TEST_CASE("the C API's views answer as JobView and the library on random allocations", "[capi]") {
    const Inputs inputs;
    std::mt19937_64 rng(26);
    for (const std::string& path : inputs.paths) {
        INFO(path);
        const Cluster c = load_cluster(path);
        QueryEngine engine(c);
        const Handle t = open(path);
        for (int round = 0; round < 4; ++round) {
            // Some machines, in a random order, as a hostlist.
            std::vector<std::uint32_t> order(c.num_machines());
            std::iota(order.begin(), order.end(), 0u);
            std::shuffle(order.begin(), order.end(), rng);
            order.resize(1 + rng() % c.num_machines());
            std::vector<std::string> names;
            std::vector<MachineId> machines;
            for (std::uint32_t m : order) {
                names.emplace_back(c.machine_name(MachineId(m)));
                machines.push_back(MachineId(m));
            }
            const std::string hostlist = compress_hostlist(names);
            INFO(hostlist);
            nettopo_view* raw = nullptr;
            REQUIRE(nettopo_view_open(t.get(), hostlist.c_str(), &raw) == NETTOPO_OK);
            const std::unique_ptr<nettopo_view, void (*)(nettopo_view*)> v(raw, nettopo_view_close);
            const JobView view(c, machines);
            REQUIRE(nettopo_view_num_pes(v.get()) == view.num_pes());
            CHECK(nettopo_view_num_machines(v.get()) == view.num_machines());
            CHECK(nettopo_view_num_nodes(v.get()) == view.num_nodes());
            for (std::uint32_t i = 0; i < view.num_machines(); ++i) {
                std::uint32_t m = 0;
                REQUIRE(nettopo_view_machine(v.get(), i, &m) == NETTOPO_OK);
                CHECK(m == view.machine(i).value);
            }
            std::uniform_int_distribution<std::uint32_t> pe(0, view.num_pes() - 1);
            for (int q = 0; q < 50; ++q) {
                const std::uint32_t a = pe(rng), b = pe(rng);
                const PeId ca = view.cluster_pe(a), cb = view.cluster_pe(b);
                std::uint32_t x = 0, hops = 0;
                REQUIRE(nettopo_view_cluster_pe(v.get(), a, &x) == NETTOPO_OK);
                CHECK(x == ca.value);
                REQUIRE(nettopo_view_pe(v.get(), ca.value, &x) == NETTOPO_OK);
                CHECK(x == a);
                int level = -1;
                REQUIRE(nettopo_view_proximity(v.get(), a, b, &level) == NETTOPO_OK);
                CHECK(level == static_cast<int>(c.proximity(ca, cb)));
                const auto h = engine.hop_count(ca, cb);
                CHECK(nettopo_view_hops(v.get(), a, b, &hops) ==
                      (h ? NETTOPO_OK : NETTOPO_UNREACHABLE));
                if (h) CHECK(hops == *h);
            }
            for (std::uint32_t k : {0u, 3u, view.num_pes() + 2}) {
                const std::uint32_t p = pe(rng);
                std::vector<std::uint32_t> pes(k);
                std::vector<double> ns(k);
                std::uint32_t found = 0;
                REQUIRE(nettopo_view_nearest(v.get(), p, k, pes.data(), ns.data(), &found) ==
                        NETTOPO_OK);
                const auto want =
                    nearest_in_view(engine, view, view.cluster_pe(p), std::min(k, view.num_pes()));
                REQUIRE(found == want.size());
                for (std::uint32_t j = 0; j < found; ++j)
                    CHECK((pes[j] == *view.view_pe(want[j].pe) && ns[j] == want[j].distance_ns));
            }
            // distribute over the view, both policies, more ranks than PEs too.
            for (const int policy : {NETTOPO_SCATTER, NETTOPO_COMPACT})
                for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{view.num_pes()} + 5}) {
                    std::vector<std::uint32_t> pes(n);
                    REQUIRE(nettopo_distribute(t.get(), v.get(), n, policy, pes.data()) ==
                            NETTOPO_OK);
                    const auto want =
                        distribute(c, machines, n, static_cast<DistributePolicy>(policy));
                    for (std::uint64_t r = 0; r < n; ++r) CHECK(pes[r] == want[r].value);
                }
        }
    }
}
