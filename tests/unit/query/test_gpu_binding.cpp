// distribute_gpus and its launch files (query/gpu_binding.hpp,
// balance/gpu_launch.hpp) on a real SNC4 server with 4 H100s and on a small
// built cluster that mixes it with a host of another kind. hwloc's tools are
// the oracle of tests/tools/gpu_binding_oracle.py; here are the rules the
// oracle cannot see: block filling, grouping, cores kept whole, adapters
// balanced, errors, and the exact text of the files.
#include "nettopo/balance/gpu_launch.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/query/distribute.hpp"
#include "nettopo/query/gpu_binding.hpp"
#include "nettopo/support/error.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <sstream>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

const std::string ipa20 = std::string(NETTOPO_SHARED_DATA) + "/hwloc-xml/ipa20-snc4-4xH100.xml";

std::vector<std::string> names_of(const Cluster& c, const GpuRank& r,
                                  const std::vector<std::uint32_t>& devices) {
    std::vector<std::string> out;
    for (std::uint32_t d : devices)
        out.push_back(c.machine_type(r.machine).tree().devices()[d].name);
    return out;
}

// A host with one package of `cores` two-PU cores and two GPUs on one PCIe
// switch under its host bridge, and no adapter.
MachineTree two_gpu_host(int cores) {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    const ObjectId pack = b.add(ObjectType::Package, root);
    for (int c = 0; c < cores; ++c) {
        const ObjectId core = b.add(ObjectType::Core, pack);
        for (int t = 0; t < 2; ++t) b.add(ObjectType::PU, core);
    }
    const std::uint32_t host = b.add_pci({PciKind::HostBridge, no_pci, pack, 0, 0x10});
    for (std::uint8_t i = 0; i < 2; ++i) {
        const std::uint32_t gpu =
            b.add_pci({PciKind::Device, host, pack, 0, static_cast<std::uint8_t>(0x21 - i), 0, 0,
                       0x1002, 0x740c});
        b.add_device({DeviceKind::Gpu,
                      "gpu" + std::to_string(i),
                      {"rsmi" + std::to_string(i)},
                      gpu,
                      pack,
                      "AMD",
                      "MI250X",
                      "RSMI"});
    }
    return std::move(b).finish();
}

// Two ipa20 hosts, then a two-GPU host, on one switch.
Cluster mixed_cluster() {
    const Cluster one = load_cluster(ipa20);
    ClusterBuilder b;
    const TypeId big = b.add_type(one.type(TypeId(0)));
    const TypeId small = b.add_type(
        MachineType("two-gpu", two_gpu_host(4), NodeLevel{}, LevelLatencies::defaults()));
    b.add_machine("big0", big);
    b.add_machine("big1", big);
    b.add_machine("small", small);
    b.add_switch("leaf");
    for (std::uint32_t m = 0; m < 3; ++m) b.add_link({false, m}, {true, 0}, 100);
    return std::move(b).build();
}

} // namespace

TEST_CASE("gpu binding: one GPU a rank on the SNC4 server", "[gpu-binding]") {
    const Cluster c = load_cluster(ipa20);
    const auto all = all_machines(c);
    const auto ranks = distribute_gpus(c, all, {4, 1, std::nullopt});
    REQUIRE(ranks.size() == 4);
    const MachineTree& tree = c.type(TypeId(0)).tree();
    const std::vector<std::string> nics = {"mlx5_0", "mlx5_2", "mlx5_3", "mlx5_3"};
    for (std::uint32_t r = 0; r < 4; ++r) {
        CAPTURE(r);
        // Rank r has gpu r, and the PUs of its locality (one SNC NUMA node) whole.
        CHECK(names_of(c, ranks[r], ranks[r].gpus) ==
              std::vector<std::string>{"gpu" + std::to_string(r)});
        const TreeObject& loc = tree.object(tree.devices()[ranks[r].gpus[0]].locality);
        REQUIRE(ranks[r].pus.size() == loc.pu_count);
        CHECK(ranks[r].pus.front() == loc.first_pu);
        // The PIX adapter where there is one; gpu2's NUMA node has none, and the
        // adapter of its own package (NUMA 5) is nearer than the other package's.
        CHECK(names_of(c, ranks[r], ranks[r].nics) == std::vector<std::string>{nics[r]});
    }
    // Two adapters a rank: the PIX pair of gpu0's switch is shared out, one each.
    const auto two = distribute_gpus(c, all, {2, 1, 2u});
    CHECK(names_of(c, two[0], two[0].nics) == std::vector<std::string>{"mlx5_0", "mlx5_1"});
    CHECK(names_of(c, two[1], two[1].nics)[0] == "mlx5_2");
    // Zero adapters asked for: none given.
    CHECK(distribute_gpus(c, all, {1, 1, 0u})[0].nics.empty());
}

TEST_CASE("devices: one device by name, and CPU lists as cpuset-of prints them", "[gpu-binding]") {
    const Cluster one = load_cluster(ipa20);
    const auto gpu2 = find_device(one, "gpu2");
    REQUIRE(gpu2);
    CHECK(device(one, *gpu2).name == "gpu2");
    CHECK(find_device(one, "cuda2") == gpu2);
    CHECK(find_device(one, "testhost-nvidia:gpu2") == gpu2);
    CHECK(device_cpu_list(one, *gpu2) == "98-111,210-223");
    CHECK(device_cpu_list(one, *find_device(one, "mlx5_0")) == "42-55,154-167");
    CHECK_FALSE(find_device(one, "gpu9"));
    CHECK_FALSE(find_device(one, "nohost:gpu2"));
    // On several machines a bare name is ambiguous; HOST:NAME is not.
    const Cluster c = mixed_cluster();
    CHECK_THROWS_WITH(find_device(c, "gpu0"),
                      "'gpu0' names a device of 3 machines (big0, big1, ...): say which, as "
                      "big0:gpu0");
    const auto small = find_device(c, "small:gpu1");
    REQUIRE(small);
    CHECK(small->machine == *c.find_machine("small"));
    CHECK(device_cpu_list(c, *small) == "0-7"); // no OS indexes: logical ones
    // A rank's CPU list: its PUs' OS indexes.
    const auto ranks = distribute_gpus(one, all_machines(one), {4, 1, std::nullopt});
    CHECK(rank_cpu_list(one, ranks[0]) == "42-55,154-167");
    CHECK(rank_cpu_list(one, ranks[2]) == "98-111,210-223");
}

TEST_CASE("gpu binding: GPUs grouped by locality, cores shared whole", "[gpu-binding]") {
    const Cluster c = load_cluster(ipa20);
    const auto all = all_machines(c);
    // Two GPUs a rank: the groups follow the localities' order (gpu1's PUs come
    // first), and take ranks by their lowest GPU.
    const auto pairs = distribute_gpus(c, all, {2, 2, std::nullopt});
    CHECK(names_of(c, pairs[0], pairs[0].gpus) == std::vector<std::string>{"gpu0", "gpu1"});
    CHECK(names_of(c, pairs[1], pairs[1].gpus) == std::vector<std::string>{"gpu2", "gpu3"});
    CHECK(pairs[0].pus.size() == 56);

    // The two-GPU host: both GPUs local to its whole package, so the two ranks
    // cut its 4 cores in two runs of 2 cores (4 PUs) each.
    const Cluster mixed = mixed_cluster();
    const std::vector<MachineId> small = {*mixed.find_machine("small")};
    const auto halves = distribute_gpus(mixed, small, {2, 1, std::nullopt});
    CHECK(halves[0].pus == std::vector<std::uint32_t>{0, 1, 2, 3});
    CHECK(halves[1].pus == std::vector<std::uint32_t>{4, 5, 6, 7});
    CHECK(halves[0].nics.empty());
    // The GPU on the lower bus is index 0 for the runtime, whatever its number.
    const MachineTree& st = mixed.machine_type(small[0]).tree();
    CHECK(gpu_runtime_index(st, 0) == 1);
    CHECK(gpu_runtime_index(st, 1) == 0);
    // Three cores for two ranks: 2 + 1 cores, never a core split.
    const Cluster three = [] {
        ClusterBuilder b;
        b.add_machine("h", b.add_type(MachineType("t", two_gpu_host(3), NodeLevel{},
                                                  LevelLatencies::defaults())));
        return std::move(b).build();
    }();
    const auto uneven = distribute_gpus(three, all_machines(three), {2, 1, std::nullopt});
    CHECK(uneven[0].pus == std::vector<std::uint32_t>{0, 1, 2, 3});
    CHECK(uneven[1].pus == std::vector<std::uint32_t>{4, 5});
}

TEST_CASE("gpu binding: hosts filled in allocation order", "[gpu-binding]") {
    const Cluster c = mixed_cluster();
    const MachineId big0 = *c.find_machine("big0"), big1 = *c.find_machine("big1"),
                    small = *c.find_machine("small");
    const std::vector<MachineId> order = {small, big1, big0};
    const auto ranks = distribute_gpus(c, order, {7, 1, std::nullopt});
    std::vector<MachineId> hosts;
    for (const GpuRank& r : ranks) hosts.push_back(r.machine);
    CHECK(hosts == std::vector<MachineId>{small, small, big1, big1, big1, big1, big0});
    // Two GPUs a rank: 1 + 2 + 2 room; 5 do not fit.
    CHECK(distribute_gpus(c, order, {5, 2, std::nullopt}).size() == 5 - 0);
    CHECK_THROWS_WITH(distribute_gpus(c, order, {6, 2, std::nullopt}),
                      Contains("6 ranks of 2 GPUs need 12 GPUs; the 3 hosts given hold 10 GPUs, "
                               "room for 5 such ranks"));
}

TEST_CASE("gpu binding: bad requests are usage errors", "[gpu-binding]") {
    const Cluster c = mixed_cluster();
    const auto all = all_machines(c);
    CHECK_THROWS_AS(distribute_gpus(c, all, {0, 1, std::nullopt}), UsageError);
    CHECK_THROWS_AS(distribute_gpus(c, all, {1, 0, std::nullopt}), UsageError);
    CHECK_THROWS_AS(distribute_gpus(c, {}, {1, 1, std::nullopt}), UsageError);
    const std::vector<MachineId> twice = {MachineId(0), MachineId(0)};
    CHECK_THROWS_WITH(distribute_gpus(c, twice, {1, 1, std::nullopt}), Contains("twice"));
    CHECK_THROWS_WITH(distribute_gpus(c, all, {1, 1, 5u}),
                      Contains("5 adapters a rank, but big0 has 4 fabric adapters"));
    // A host without adapters gives none unless some are asked for.
    const std::vector<MachineId> small = {*c.find_machine("small")};
    CHECK_THROWS_WITH(distribute_gpus(c, small, {1, 1, 1u}), Contains("but small has 0 adapters"));
}

TEST_CASE("gpu launch: the env file, Slurm's forms and the rankfile", "[gpu-binding]") {
    const Cluster c = mixed_cluster();
    const std::vector<MachineId> order = {*c.find_machine("small"), *c.find_machine("big0")};
    const auto ranks = distribute_gpus(c, order, {3, 1, std::nullopt});
    // A line break in the command cannot end the comment that records it.
    const std::string env = gpu_env_script(c, ranks, "cmd 'x'\nrm -rf /");
    CHECK_THAT(env, Contains("# cmd 'x' rm -rf /\n"));
    CHECK_THAT(env, Contains("0) export NETTOPO_HOST=small NETTOPO_CPUSET=0-3 NETTOPO_GPUS=gpu0 "
                             "NETTOPO_NICS='' ROCR_VISIBLE_DEVICES=1 ;;\n"));
    CHECK_THAT(env, Contains("2) export NETTOPO_HOST=big0 NETTOPO_CPUSET=42-55,154-167 "
                             "NETTOPO_GPUS=gpu0 NETTOPO_NICS=mlx5_0 CUDA_DEVICE_ORDER=PCI_BUS_ID "
                             "CUDA_VISIBLE_DEVICES=0 UCX_NET_DEVICES=mlx5_0:1 "
                             "NCCL_IB_HCA==mlx5_0:1 ;;\n"));
    CHECK_THAT(env, Contains("*) echo"));

    // The small host's two ranks and the big one's one: the lists differ, so
    // no single srun list, and the notes give each node's.
    const SlurmGpuLaunch slurm = slurm_gpu_launch(c, ranks);
    CHECK(slurm.hostfile == "small\nsmall\nbig0\n");
    CHECK(slurm.cpu_bind.empty());
    CHECK(slurm.gpu_bind.empty());
    CHECK_THAT(slurm.notes, Contains("small: mask_cpu:0xf,0xf0\n"));
    CHECK_THAT(slurm.notes, Contains("small: map_gpu:1,0\n"));
    CHECK_THAT(slurm.notes, Contains("big0: map_gpu:0\n"));
    // One host: one list; two GPUs a rank: masks of GPUs.
    const std::vector<MachineId> big = {*c.find_machine("big0")};
    const SlurmGpuLaunch one = slurm_gpu_launch(c, distribute_gpus(c, big, {2, 2, std::nullopt}));
    CHECK(one.gpu_bind == "mask_gpu:0x3,0xc");
    CHECK(one.cpu_bind == "mask_cpu:0xfffc000fffc00000000000000000fffc000fffc000,"
                          "0xfffc000fffc00000000000000000fffc000fffc00000000000000000");
    CHECK(one.notes.empty());

    std::ostringstream logical, physical;
    write_gpu_rankfile(logical, c, ranks, RankfileSlots::logical);
    CHECK(logical.str() == "rank 0=small slot=0-3\nrank 1=small slot=4-7\n"
                           "rank 2=big0 slot=84-111\n");
    // The small host is synthetic: no OS indexes for a physical rankfile.
    CHECK_THROWS_AS(write_gpu_rankfile(physical, c, ranks, RankfileSlots::physical), ValueError);
}
