// The I/O side of a machine tree (tree/io_devices.hpp): it travels exactly
// through the tree's signature (images, the hwloc sandbox) and the archive,
// strings with the signature's separators included; bad references are
// refused; and every real export keeps its devices through an archive. The
// devices themselves are held to hwloc's tools in tests/tools/devices_oracle.py.
#include "nettopo/formats/load.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/machine_tree.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/real_data.hpp"

#include <catch2/catch.hpp>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

// A Package with two cores, a host bridge, a bridge and two PCI functions:
// a GPU with odd names and a two-name adapter.
MachineTree with_devices(std::string odd_model = "Model /;,|:% \u00e9 x") {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    const ObjectId pack = b.add(ObjectType::Package, root);
    for (int c = 0; c < 2; ++c) b.add(ObjectType::PU, b.add(ObjectType::Core, pack));
    const std::uint32_t host = b.add_pci({PciKind::HostBridge, no_pci, pack, 0, 0x80});
    const std::uint32_t bridge =
        b.add_pci({PciKind::Bridge, host, pack, 0, 0x80, 1, 0, 0x1000, 0xc030});
    const std::uint32_t gpu =
        b.add_pci({PciKind::Device, bridge, pack, 0, 0x81, 0, 0, 0x10de, 0x2330});
    const std::uint32_t nic =
        b.add_pci({PciKind::Device, bridge, pack, 0, 0x82, 0, 1, 0x15b3, 0x101b});
    b.add_device(
        {DeviceKind::Gpu, "gpu0", {"cuda0", "nvml0"}, gpu, pack, "NVIDIA", odd_model, "CUDA,NVML"});
    b.add_device({DeviceKind::Nic, "mlx5_0", {"mlx5_0", "ib0"}, nic, pack, "", "", "OpenFabrics"});
    return std::move(b).finish();
}

} // namespace

TEST_CASE("devices: the signature reads back the same tree, odd strings included", "[io]") {
    const MachineTree t = with_devices();
    CHECK(t.signature().find("|io:") != std::string::npos);
    const MachineTree back = tree_from_signature(t.signature());
    CHECK(back == t);
    CHECK(back.devices()[0].model == "Model /;,|:% \u00e9 x");
    CHECK_FALSE(back == with_devices("other"));
    CHECK(pci_bus_id(t.pci()[2]) == "0000:81:00.0");
    CHECK(t.find_device("cuda0") == 0u);
    CHECK(t.find_device("ib0") == 1u);
    CHECK_FALSE(t.find_device("gpu1").has_value());
    // A damaged section is refused, not misread.
    const std::string whole = t.signature();
    const std::size_t io = whole.find("|io:") + 4;
    const std::string sig = whole.substr(0, io) + "q" + whole.substr(io + 1);
    CHECK_THROWS_AS(tree_from_signature(sig), InputError);
}

TEST_CASE("devices: bad references are refused when the tree is finished", "[io]") {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    b.add(ObjectType::PU, root);
    SECTION("a device on a PCI object that does not exist") {
        b.add_device({DeviceKind::Gpu, "gpu0", {}, 3, root, "", "", ""});
        CHECK_THROWS_WITH(std::move(b).finish(), Contains("gpu0"));
    }
    SECTION("two devices of one name") {
        b.add_device({DeviceKind::Nic, "eth0", {}, no_pci, root, "", "", ""});
        b.add_device({DeviceKind::Nic, "eth0", {}, no_pci, root, "", "", ""});
        CHECK_THROWS_WITH(std::move(b).finish(), Contains("two devices are called eth0"));
    }
    SECTION("a control character in a device's text (XML holds none; fuzz finding)") {
        b.add_device({DeviceKind::Gpu, "gpu0", {"cuda\x17"}, no_pci, root, "", "", ""});
        CHECK_THROWS_WITH(std::move(b).finish(),
                          Contains("a name of device gpu0") && Contains("U+0017"));
    }
    SECTION("a device model that is not UTF-8") {
        b.add_device({DeviceKind::Gpu,
                      "gpu0",
                      {},
                      no_pci,
                      root,
                      "",
                      "H\xff"
                      "100",
                      ""});
        CHECK_THROWS_WITH(std::move(b).finish(),
                          Contains("the model of device gpu0") && Contains("not valid UTF-8"));
    }
    SECTION("a PCI parent after its child") {
        b.add_pci({PciKind::Device, 1, root});
        b.add_pci({PciKind::Bridge, no_pci, root});
        CHECK_THROWS_AS(std::move(b).finish(), InputError);
    }
}

TEST_CASE("devices: every real export keeps its devices through an archive", "[io][real]") {
    int with_io = 0;
    for (const std::string& path : test::real_xmls()) {
        INFO(path);
        const Cluster c = load_cluster(path);
        const Cluster back = test::from_archive_text(test::archive_text(c));
        const MachineTree& a = c.type(TypeId(0)).tree();
        const MachineTree& b = back.type(TypeId(0)).tree();
        CHECK(a == b);
        with_io += !a.devices().empty();
        // A device's local PEs are its locality's, on its machine.
        for (const MachineDevice& d : find_devices(c, "gpu0")) {
            const PeRange r = device_pes(c, d);
            CHECK(r.count == a.object(a.devices()[d.index].locality).pu_count);
        }
    }
    CHECK(with_io >= 10);
}

TEST_CASE("devices: archive <io> errors name the line", "[io]") {
    const Cluster c = test::from_archive_text(test::archive_text(
        load_cluster(std::string(NETTOPO_SHARED_DATA) + "/hwloc-xml/ipa20-snc4-4xH100.xml")));
    const std::string good = test::archive_text(c);
    const auto refused = [&](const std::string& from, const std::string& to) {
        return test::edited_archive_error(good, from, to);
    };
    CHECK_THAT(refused("<device kind=\"gpu\"", "<device kind=\"tpu\""),
               Contains("unknown device kind 'tpu'"));
    CHECK_THAT(refused("busid=\"0000:cb:00.0\"", "busid=\"0000:cb:00\""), Contains("bad busid"));
    CHECK_THAT(refused("name=\"gpu1\"", "name=\"gpu0\""),
               Contains("a second device called 'gpu0'"));
    CHECK_THAT(refused("<nettopo version=\"4\"", "<nettopo version=\"3\""),
               Contains("needs archive format version 4"));
    CHECK_THAT(refused("<device kind=\"gpu\" name=\"gpu0\" pci=\"",
                       "<device kind=\"gpu\" name=\"gpu0\" pci=\"9999"),
               Contains("bad.xml:"));
}
