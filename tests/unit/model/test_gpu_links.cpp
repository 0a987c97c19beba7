// GPU interconnects (model/gpu_links.hpp, tree/gpu_interconnect.hpp) on the
// shared exports that carry hwloc's matrices: what each matrix keeps, the
// NV<n>, XGMI labels of every pair, and how the matrices travel (signature,
// archive). The labels are also held to an independent reading of the XML
// in tests/tools/devices_oracle.py.
#include "hwloc/interconnect_convert.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/model/device_matrix.hpp"
#include "nettopo/model/gpu_links.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

Cluster shared_export(const std::string& name) {
    return load_cluster(std::string(NETTOPO_SHARED_DATA) + "/hwloc-xml/" + name);
}

const MachineTree& tree_of(const Cluster& c) {
    return c.type(TypeId(0)).tree();
}

std::uint32_t gpu(const MachineTree& t, const std::string& name) {
    const auto d = t.find_device(name);
    REQUIRE(d);
    return *d;
}

std::size_t count(const Interconnect& m, EndpointKind k) {
    std::size_t n = 0;
    for (const InterconnectEndpoint& e : m.endpoints) n += e.kind == k;
    return n;
}

// The matrix entries between every two GPUs of machine 0.
std::vector<std::string> gpu_entries(const Cluster& c) {
    const MachineTree& t = tree_of(c);
    std::vector<std::string> out;
    for (std::uint32_t a = 0; a < t.devices().size(); ++a)
        for (std::uint32_t b = 0; b < t.devices().size(); ++b)
            if (a != b && t.devices()[a].kind == DeviceKind::Gpu &&
                t.devices()[b].kind == DeviceKind::Gpu)
                out.push_back(matrix_entry(c, MachineId(0), a, b));
    return out;
}

} // namespace

TEST_CASE("gpu links: DGX-2, 16 V100 through 12 NVSwitches, is NV6 everywhere", "[io][real]") {
    const Cluster c = shared_export("nvidiaDGX2.xml");
    const MachineTree& t = tree_of(c);
    REQUIRE(t.interconnects().size() == 1);
    const Interconnect& m = t.interconnects()[0];
    CHECK(m.kind == InterconnectKind::NvlinkBandwidth);
    CHECK(m.link_mbps == 25000); // V100: NVLink 2
    CHECK(count(m, EndpointKind::Device) == 16);
    CHECK(count(m, EndpointKind::Pci) == 12);
    // The switches stay in the PCI tree as PCI functions, no device: NVIDIA
    // ones but 0000:66:00.0, which the export gives id 0000:0000.
    std::size_t nvidia = 0;
    for (const InterconnectEndpoint& e : m.endpoints)
        if (e.kind == EndpointKind::Pci) {
            CHECK(t.pci()[e.index].kind == PciKind::Device);
            nvidia += t.pci()[e.index].vendor_id == 0x10de;
        }
    CHECK(nvidia == 11);
    // gpu0 and gpu8 are on different baseboards: no switch in common, one
    // NVSwitch fabric all the same, as nvidia-smi shows it.
    const auto link = gpu_link(c, MachineId(0), gpu(t, "gpu0"), gpu(t, "gpu8"));
    REQUIRE(link);
    CHECK(*link == GpuLink{GpuLinkKind::Nvlink, 150000, 6, 0, true});
    CHECK(link_label(*link) == "NV6");
    const auto entries = gpu_entries(c);
    CHECK(entries.size() == 16 * 15);
    CHECK(std::count(entries.begin(), entries.end(), "NV6") == 16 * 15);
    CHECK_FALSE(gpu_link(c, MachineId(0), gpu(t, "gpu3"), gpu(t, "gpu3")));
}

TEST_CASE("gpu links: POWER8's P100 pairs are NV2, their CPU ports kept", "[io][real]") {
    const Cluster c = shared_export("power8gpudistances.xml");
    const MachineTree& t = tree_of(c);
    REQUIRE(t.interconnects().size() == 1);
    const Interconnect& m = t.interconnects()[0];
    CHECK(m.link_mbps == 20000); // P100: NVLink 1
    CHECK(count(m, EndpointKind::Device) == 4);
    CHECK(count(m, EndpointKind::Cpu) == 2);
    for (const InterconnectEndpoint& e : m.endpoints)
        if (e.kind == EndpointKind::Cpu)
            CHECK(t.object(ObjectId(e.index)).type == ObjectType::Package);
    CHECK(*gpu_link(c, MachineId(0), gpu(t, "gpu0"), gpu(t, "gpu1")) ==
          GpuLink{GpuLinkKind::Nvlink, 40000, 2, 0, false});
    CHECK(*gpu_link(c, MachineId(0), gpu(t, "gpu2"), gpu(t, "gpu3")) ==
          GpuLink{GpuLinkKind::Nvlink, 40000, 2, 0, false});
    // Across the sockets the GPUs share only CPU ports: no GPU link, the
    // PCIe class.
    CHECK_FALSE(gpu_link(c, MachineId(0), gpu(t, "gpu0"), gpu(t, "gpu2")));
    CHECK(matrix_entry(c, MachineId(0), gpu(t, "gpu0"), gpu(t, "gpu2")) == "SYS");
}

TEST_CASE("gpu links: ipa20's four H100 are NV6 to each other", "[io][real]") {
    const Cluster c = shared_export("ipa20-snc4-4xH100.xml");
    const MachineTree& t = tree_of(c);
    REQUIRE(t.interconnects().size() == 1);
    CHECK(t.interconnects()[0].link_mbps == 25000);
    const auto entries = gpu_entries(c);
    CHECK(entries.size() == 12);
    CHECK(std::count(entries.begin(), entries.end(), "NV6") == 12);
    CHECK(gpu_link(c, MachineId(0), gpu(t, "gpu1"), gpu(t, "gpu2"))->bandwidth_mbps == 150000);
    // An adapter stays in its PCIe class.
    CHECK(matrix_entry(c, MachineId(0), gpu(t, "gpu0"), gpu(t, "mlx5_0")) == "PIX");
}

TEST_CASE("gpu links: Tioga's eight MI250X GCDs are XGMI, one hop", "[io][real]") {
    const Cluster c = shared_export("eas-tioga-4xMI250X.xml");
    const MachineTree& t = tree_of(c);
    REQUIRE(t.interconnects().size() == 2);
    CHECK(t.interconnects()[0].kind == InterconnectKind::XgmiBandwidth);
    CHECK(t.interconnects()[1].kind == InterconnectKind::XgmiHops);
    CHECK(*gpu_link(c, MachineId(0), gpu(t, "gpu0"), gpu(t, "gpu7")) ==
          GpuLink{GpuLinkKind::Xgmi, 100000, 0, 1, false});
    const auto entries = gpu_entries(c);
    CHECK(std::count(entries.begin(), entries.end(), "XGMI") == 8 * 7);
}

TEST_CASE("gpu links: the matrices travel through the signature and the archive", "[io][real]") {
    for (const char* name :
         {"nvidiaDGX2.xml", "power8gpudistances.xml", "eas-tioga-4xMI250X.xml"}) {
        INFO(name);
        const Cluster c = shared_export(name);
        const MachineTree& t = tree_of(c);
        CHECK(tree_from_signature(t.signature()) == t);
        const Cluster back = test::from_archive_text(test::archive_text(c));
        CHECK(tree_of(back) == t);
    }
}

TEST_CASE("gpu links: one NVLink's bandwidth follows hwloc's NVLink versions", "[io]") {
    using detail::nvlink_link_mbps;
    CHECK(nvlink_link_mbps("Tesla P100-SXM2-16GB", "2.5.0") == 20000);
    CHECK(nvlink_link_mbps("Tesla V100-SXM3-32GB-H", "2.9.0") == 25000);
    CHECK(nvlink_link_mbps("NVIDIA H100 80GB HBM3", "2.12.2") == 25000);
    CHECK(nvlink_link_mbps("NVIDIA A100-SXM4-40GB", "2.10.0") == 25000);
    // hwloc 2.9.0 alone counted NVLink 3 and 4 links twice.
    CHECK(nvlink_link_mbps("NVIDIA A100-SXM4-40GB", "2.9.0") == 50000);
    CHECK(nvlink_link_mbps("NVIDIA A100-SXM4-40GB", "2.9.1") == 25000);
    CHECK(nvlink_link_mbps("NVIDIA B200", "2.12.0") == 50000);
    CHECK(nvlink_link_mbps("NVIDIA GB200", "") == 50000);
    CHECK(nvlink_link_mbps("", "") == 25000);
}

TEST_CASE("gpu links: bad matrices are refused when the tree is finished", "[io]") {
    MachineTree::Builder b;
    const ObjectId root = b.add(ObjectType::Machine, ObjectId());
    b.add(ObjectType::PU, root);
    b.add_device({DeviceKind::Gpu, "gpu0", {}, no_pci, root, "", "", ""});
    b.add_device({DeviceKind::Gpu, "gpu1", {}, no_pci, root, "", "", ""});
    const std::vector<InterconnectEndpoint> both = {{EndpointKind::Device, 0},
                                                    {EndpointKind::Device, 1}};
    SECTION("a good one is kept") {
        b.add_interconnect({InterconnectKind::XgmiHops, both, {0, 1, 1, 0}, 0});
        CHECK(std::move(b).finish().interconnects().size() == 1);
    }
    SECTION("values that do not fill the matrix") {
        b.add_interconnect({InterconnectKind::XgmiHops, both, {0, 1, 1}, 0});
        CHECK_THROWS_WITH(std::move(b).finish(), Contains("3 values for 2 endpoints"));
    }
    SECTION("an endpoint that does not exist") {
        b.add_interconnect(
            {InterconnectKind::XgmiHops, {{EndpointKind::Pci, 0}, both[0]}, {0, 1, 1, 0}, 0});
        CHECK_THROWS_WITH(std::move(b).finish(), Contains("does not exist"));
    }
    SECTION("one endpoint twice") {
        b.add_interconnect({InterconnectKind::XgmiHops, {both[0], both[0]}, {0, 1, 1, 0}, 0});
        CHECK_THROWS_WITH(std::move(b).finish(), Contains("twice"));
    }
    SECTION("NVLink without the bandwidth of a link") {
        b.add_interconnect({InterconnectKind::NvlinkBandwidth, both, {0, 1, 1, 0}, 0});
        CHECK_THROWS_WITH(std::move(b).finish(), Contains("link_mbps"));
    }
}

TEST_CASE("gpu links: archive <interconnect> errors name the line", "[io][real]") {
    const std::string good = test::archive_text(shared_export("power8gpudistances.xml"));
    const auto refused = [&](const std::string& from, const std::string& to) {
        return test::edited_archive_error(good, from, to);
    };
    CHECK_THAT(refused("kind=\"NVLinkBandwidth\"", "kind=\"NVLinkSpeed\""),
               Contains("unknown interconnect kind 'NVLinkSpeed'"));
    CHECK_THAT(refused("<endpoint device=\"gpu1\"", "<endpoint device=\"gpu9\""),
               Contains("device=\"gpu9\" names no <device>"));
    CHECK_THAT(refused(" link-mbps=\"20000\"", ""), Contains("needs link-mbps"));
    CHECK_THAT(refused("<values>1000000 ", "<values>"), Contains("35 values for 6 endpoints"));
    CHECK_THAT(refused("<endpoint object=\"", "<endpoint object=\"9999"), Contains("bad.xml:"));
    CHECK_THAT(refused("<endpoint device=\"gpu1\"", "<endpoint device=\"gpu0\""),
               Contains("named twice"));
}

TEST_CASE("gpu links: a matrix naming what nettopo keeps not, or malformed", "[io][real]") {
    // ipa20's NVLinkBandwidth is <distances2 type="OSDev"> over nvml0-3
    // (gp indexes 894-897), line 1848 of the file.
    const std::string path = std::string(NETTOPO_SHARED_DATA) + "/hwloc-xml/ipa20-snc4-4xH100.xml";
    std::ifstream in(path);
    const std::string good{std::istreambuf_iterator<char>(in), {}};
    const std::string rows = "<indexes length=\"16\">894 895 896 897 </indexes>";
    REQUIRE(good.find(rows) != std::string::npos);
    test::TempDir dir("nettopo-matrices-");
    const auto edited = [&](const std::string& from, const std::string& to) {
        std::string text = good;
        text.replace(text.find(from), from.size(), to);
        std::ofstream(dir / "edited.xml") << text;
        return dir / "edited.xml";
    };
    const auto gpu_pairs = [](const Cluster& c) {
        const auto e = gpu_entries(c);
        return std::count(e.begin(), e.end(), "NV6");
    };
    // An object the export lacks: refused with the matrix's line, before
    // hwloc (which would leave its row out without a word;
    // hwloc_distances_check.cpp).
    CHECK_THROWS_WITH(
        load_cluster(edited(rows, "<indexes length=\"18\">894 895 896 99999 </indexes>")),
        Contains("edited.xml:1848:") &&
            Contains("names OSDev gp_index 99999, which the export does not hold"));
    // A disk (nvme0c0n1, gp 874), no device nettopo keeps: its row goes.
    CHECK(gpu_pairs(load_cluster(
              edited(rows, "<indexes length=\"16\">894 895 896 874 </indexes>"))) == 6);
    // nvml0 twice: the first row stays.
    const Cluster twice =
        load_cluster(edited(rows, "<indexes length=\"16\">894 894 895 896 </indexes>"));
    CHECK(tree_of(twice).interconnects()[0].endpoints.size() == 3);
    // What hwloc refuses is refused with the matrix's line.
    CHECK_THROWS_WITH(load_cluster(edited(rows, "<indexes length=\"12\">894 895 896 </indexes>")),
                      Contains("edited.xml:1848:") &&
                          Contains("declares 4 objects and lists 3 indexes"));
    CHECK_THROWS_WITH(
        load_cluster(edited("type=\"OSDev\" nbobjs=\"4\"", "type=\"Bogus\" nbobjs=\"4\"")),
        Contains("edited.xml:1848:") && Contains("names Bogus gp_index 894"));
    CHECK_THROWS_WITH(
        load_cluster(edited("1000000 150000 150000 150000 150000 1000000 </u64values>",
                            "1000000 150000 150000 150000 150000 1000 </u64values>")),
        Contains("edited.xml:1848:") && Contains("length=\"44\" around 41 characters"));
}
