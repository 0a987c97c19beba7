// Devices of generated and described machines (tree/generated_devices.hpp):
// the words gpu:N nic:N of a synthetic description, the spreading rule over
// the localities, the PCI tree's classes, the errors naming the word, and the
// round trips (signature, archive, description, image) that carry them.
// Machines without the words keep their trees, signatures and archives.
#include "nettopo/formats/image.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/device_matrix.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/query/gpu_binding.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/generated_devices.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/description_text.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

// The devices of a kind in order, each as "name@first_pu+pu_count".
std::vector<std::string> placed(const MachineTree& t, DeviceKind kind) {
    std::vector<std::string> out;
    for (const IoDevice& d : t.devices())
        if (d.kind == kind) {
            const TreeObject& o = t.object(d.locality);
            out.push_back(d.name + "@" + std::to_string(o.first_pu) + "+" +
                          std::to_string(o.pu_count));
        }
    return out;
}

// One machine of that description, as a cluster (the device queries take one).
Cluster machine(const std::string& description) {
    return load_cluster(description);
}

// device-matrix's class between two devices of the only machine, by name.
std::string link(const Cluster& c, std::string_view a, std::string_view b) {
    const MachineTree& t = c.type(TypeId(0)).tree();
    return std::string(
        to_string(device_link(c, MachineId(0), *t.find_device(a), *t.find_device(b))));
}

std::string refused(const std::string& description) {
    try {
        tree_from_synthetic(description);
    } catch (const InputError& e) {
        return e.what();
    }
    FAIL("accepted: " << description);
    return {};
}

} // namespace

TEST_CASE("generated devices: localities are the NUMA nodes', else the packages, else the "
          "machine",
          "[io][generated]") {
    const auto localities = [](const std::string& d) {
        const MachineTree t = tree_from_synthetic(d);
        std::vector<std::string> out;
        for (ObjectId id : device_localities(t)) out.push_back(t.level_name(id));
        return out;
    };
    using V = std::vector<std::string>;
    // hwloc adds one NUMA node for the whole machine: the packages decide.
    CHECK(localities("pack:2 core:2 pu:1") == V{"Package", "Package"});
    CHECK(localities("pack:2 numa:1 core:2 pu:1") == V{"Package", "Package"});
    CHECK(localities("pack:2 numa:2 core:2 pu:1") == V(4, "Group0"));
    CHECK(localities("pack:2 l3:2 numa:1 core:1 pu:1") == V(4, "L3"));
    // Two NUMA nodes of one package are one locality.
    CHECK(localities("pack:2 [numa] [numa] core:2 pu:1") == V{"Package", "Package"});
    CHECK(localities("pack:1 core:4 pu:2") == V{"Machine"});
    CHECK(localities("core:4 pu:1") == V{"Machine"});
}

TEST_CASE("generated devices: blocks over the localities, floor(i*k/N)", "[io][generated]") {
    using V = std::vector<std::string>;
    // 8 over 2 packages of 4 PUs: the first four on the first.
    const MachineTree t = tree_from_synthetic("pack:2 core:2 pu:2 gpu:8 nic:8");
    CHECK(placed(t, DeviceKind::Gpu) == V{"gpu0@0+4", "gpu1@0+4", "gpu2@0+4", "gpu3@0+4",
                                          "gpu4@4+4", "gpu5@4+4", "gpu6@4+4", "gpu7@4+4"});
    CHECK(placed(t, DeviceKind::Nic) == V{"mlx5_0@0+4", "mlx5_1@0+4", "mlx5_2@0+4", "mlx5_3@0+4",
                                          "mlx5_4@4+4", "mlx5_5@4+4", "mlx5_6@4+4", "mlx5_7@4+4"});
    // GPUs first (MachineTree's order), then the adapters.
    CHECK(t.devices()[7].name == "gpu7");
    CHECK(t.devices()[8].name == "mlx5_0");
    // Not a multiple: floor or ceil of N/k each, the larger shares spaced out.
    CHECK(placed(tree_from_synthetic("pack:2 core:1 pu:1 gpu:3"), DeviceKind::Gpu) ==
          V{"gpu0@0+1", "gpu1@0+1", "gpu2@1+1"});
    CHECK(placed(tree_from_synthetic("pack:2 numa:2 core:1 pu:1 gpu:6"), DeviceKind::Gpu) ==
          V{"gpu0@0+1", "gpu1@0+1", "gpu2@1+1", "gpu3@2+1", "gpu4@2+1", "gpu5@3+1"});
    // Fewer devices than localities: one on every other, both packages used.
    CHECK(placed(tree_from_synthetic("pack:2 numa:2 core:1 pu:1 nic:2"), DeviceKind::Nic) ==
          V{"mlx5_0@0+1", "mlx5_1@2+1"});
    CHECK(placed(tree_from_synthetic("core:2 pu:1 gpu:2"), DeviceKind::Gpu) ==
          V{"gpu0@0+2", "gpu1@0+2"});
}

TEST_CASE("generated devices: a DGX-like PCI tree, PIX within a pair, NODE, SYS",
          "[io][generated]") {
    const Cluster c = machine("pack:2 numa:1 core:2 pu:1 gpu:4 nic:4");
    const MachineTree& t = c.type(TypeId(0)).tree();
    // Each pair: host bridge, root port, switch upstream, two downstream ports.
    CHECK(t.pci().size() == 4 * 7);
    const IoDevice& gpu0 = t.devices()[*t.find_device("gpu0")];
    const IoDevice& nic0 = t.devices()[*t.find_device("mlx5_0")];
    CHECK(pci_bus_id(t.pci()[gpu0.pci]) == "0000:13:00.0");
    CHECK(pci_bus_id(t.pci()[nic0.pci]) == "0000:14:00.0");
    CHECK(t.pci()[gpu0.pci].vendor_id == 0x10de);
    CHECK(t.pci()[nic0.pci].vendor_id == 0x15b3);
    CHECK(gpu0.names.empty());
    CHECK(nic0.names == std::vector<std::string>{"mlx5_0"});
    CHECK(nic0.subtype == "OpenFabrics");
    CHECK(device_pci_bus_id(c, {MachineId(0), *t.find_device("gpu3")}) == "0000:43:00.0");
    CHECK(link(c, "gpu0", "mlx5_0") == "PIX");
    CHECK(link(c, "gpu1", "mlx5_1") == "PIX");
    CHECK(link(c, "gpu0", "mlx5_1") == "NODE");
    CHECK(link(c, "gpu0", "gpu1") == "NODE");
    CHECK(link(c, "gpu0", "mlx5_2") == "SYS");
    CHECK(link(c, "mlx5_0", "mlx5_3") == "SYS");
    // One NUMA node for the whole machine: across the packages is NODE too.
    CHECK(link(machine("pack:2 core:1 pu:1 gpu:2 nic:2"), "gpu0", "mlx5_1") == "NODE");
    // Past 15 pairs, the next PCI domain.
    const MachineTree many = tree_from_synthetic("core:1 pu:1 gpu:17 nic:16");
    CHECK(pci_bus_id(many.pci()[many.devices()[*many.find_device("gpu14")].pci]) == "0000:f3:00.0");
    CHECK(pci_bus_id(many.pci()[many.devices()[*many.find_device("gpu15")].pci]) == "0001:13:00.0");
    CHECK(pci_bus_id(many.pci()[many.devices()[*many.find_device("mlx5_15")].pci]) ==
          "0001:14:00.0");
    // A GPU without an adapter keeps its pair's place: gpu16's pair has no mlx5.
    CHECK(pci_bus_id(many.pci()[many.devices()[*many.find_device("gpu16")].pci]) == "0001:23:00.0");
}

TEST_CASE("generated devices: unequal counts pair the first ones of each locality",
          "[io][generated]") {
    const Cluster c = machine("pack:2 numa:1 core:1 pu:1 gpu:4 nic:2");
    CHECK(link(c, "gpu0", "mlx5_0") == "PIX");
    CHECK(link(c, "gpu1", "mlx5_0") == "NODE");
    CHECK(link(c, "gpu2", "mlx5_1") == "PIX");
    // Each rank's adapter is its pair's, or the nearest of its package.
    const std::vector<MachineId> all{MachineId(0)};
    const auto ranks = distribute_gpus(c, all, {4, 1, std::nullopt});
    REQUIRE(ranks.size() == 4);
    const MachineTree& t = c.type(TypeId(0)).tree();
    std::vector<std::string> nics;
    for (const GpuRank& r : ranks) nics.push_back(t.devices()[r.nics.at(0)].name);
    CHECK(nics == std::vector<std::string>{"mlx5_0", "mlx5_0", "mlx5_1", "mlx5_1"});
}

TEST_CASE("generated devices: the words' errors name them", "[io][generated]") {
    CHECK_THAT(refused("pack:2 core:2 pu:1 gpu:65"),
               Contains("bad count '65' for gpu in hwloc synthetic description 'pack:2 core:2 "
                        "pu:1 gpu:65': expected an integer from 0 to 64"));
    CHECK_THAT(refused("pu:1 nic:-1"), Contains("bad count '-1' for nic"));
    CHECK_THAT(refused("pu:1 nic:x"), Contains("bad count 'x' for nic"));
    CHECK_THAT(refused("pu:1 gpu:"), Contains("bad count '' for gpu"));
    CHECK_THAT(refused("pu:1 gpu:2 GPU:2"), Contains("GPU given twice"));
    CHECK_THAT(refused("pack:2 gpu:2 core:2 pu:1"),
               Contains("'core:2' after the devices in hwloc synthetic description 'pack:2 gpu:2 "
                        "core:2 pu:1': gpu:N and nic:N come last, after pu:<count>"));
    CHECK_THAT(refused("pu:1 gpu:2 [numa]"), Contains("'[numa]' after the devices"));
    CHECK_THAT(refused("pack:2 core:2 gpu:2"),
               Contains("'pack:2 core:2 gpu:2' must end with pu:<count> before its devices"));
    CHECK_THAT(refused("pu:1 gpu:2(model=x)"), Contains("gpu:N takes no attributes"));
    CHECK_THAT(refused("gpu:2"), Contains("must end with pu:<count> before its devices"));
    // The library's own bound, for trees made otherwise.
    CHECK_THROWS_WITH(with_generated_devices(tree_from_synthetic("pu:1"), {0, 65}),
                      Contains("65 adapters asked for a machine: at most 64"));
    const MachineTree once = tree_from_synthetic("pu:1 gpu:1");
    CHECK_THROWS_WITH(with_generated_devices(once, {1, 0}), Contains("has devices already"));
}

TEST_CASE("generated devices: none asked, nothing changed", "[io][generated]") {
    const MachineTree plain = tree_from_synthetic("pack:2 core:2 pu:2");
    CHECK(plain.signature().find("|io:") == std::string::npos);
    CHECK(tree_from_synthetic("pack:2 core:2 pu:2 gpu:0 nic:0") == plain);
    CHECK(with_generated_devices(plain, {}) == plain);
    // Case and blanks as hwloc's words take them.
    CHECK(tree_from_synthetic("pack:2 core:2 pu:2  GPU:2\tNic:1") ==
          tree_from_synthetic("pack:2 core:2 pu:2 gpu:2 nic:1"));
    // What the devices are added to is hwloc's tree, object for object.
    const MachineTree with = tree_from_synthetic("pack:2 core:2 pu:2 gpu:2 nic:2");
    CHECK(with.signature().starts_with(plain.signature()));
    CHECK(with.num_objects() == plain.num_objects());
}

TEST_CASE("generated devices: signature, archive, description and image keep them",
          "[io][generated]") {
    const std::string machine_text = "pack:2 numa:1 core:2 pu:2 gpu:8 nic:8";
    const Cluster c = generate_from_spec("fat-tree --k 2 --n 2 --machine '" + machine_text + "'");
    const MachineTree& t = c.type(TypeId(0)).tree();
    REQUIRE(t.devices().size() == 16);
    CHECK(tree_from_signature(t.signature()) == t);
    CHECK(c.type(TypeId(0)).description() == machine_text);

    const std::string archive = test::archive_text(c);
    CHECK_THAT(archive, Contains("<nettopo version=\"4\""));
    CHECK_THAT(archive, Contains("<io>"));
    const Cluster from_archive = test::from_archive_text(archive);
    CHECK(from_archive.type(TypeId(0)).tree() == t);
    CHECK(test::archive_text(from_archive) == archive);

    // A description keeps the words, and reads back as the same tree.
    const std::string text = test::description_text(c);
    CHECK_THAT(text, Contains(machine_text));
    CHECK(test::from_description_text(text, "d.txt").type(TypeId(0)).tree() == t);

    test::TempDir dir("nettopo-gendev-");
    const std::string path = dir / "c.ntimg";
    save_image(c, nullptr, path);
    const Cluster from_image = read_image(path).cluster;
    CHECK(from_image.type(TypeId(0)).tree() == t);
    CHECK(test::archive_text(from_image) == archive);
    const auto found = find_devices(from_image, "n3:mlx5_5");
    REQUIRE(found.size() == 1);
    CHECK(device_pes(from_image, found[0]).count == 4);
}

TEST_CASE("generated devices: a device-less machine's archive has no <io>", "[io][generated]") {
    const Cluster c = generate_from_spec("ring --machines 3 --machine 'pack:2 core:2 pu:2'");
    const std::string archive = test::archive_text(c);
    CHECK(archive.find("<io>") == std::string::npos);
    CHECK(archive.find("version=\"4\"") == std::string::npos);
}
