// hwloc 3.0 exports converted to the 2.x form (hwloc/hwloc3_to_v2.hpp): the
// conversion against hwloc's own pair, its rules one by one as hwloc 3's
// exporter states them (hwloc/topology-xml.c, exporting with
// HWLOC_TOPOLOGY_EXPORT_XML_FLAG_V2), read back by the hwloc 2.9 nettopo runs
// with, and what is refused, with file and line.
#include "hwloc/hwloc_xml_check.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/hwloc3_text.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <hwloc.h>
#include <pugixml.hpp>
#include <string>
#include <utility>
#include <vector>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

using test::converted_text;
using test::hwloc_read;

hwloc_obj_t os_device(hwloc_topology_t topo, const std::string& name) {
    for (hwloc_obj_t o = hwloc_get_next_osdev(topo, nullptr); o; o = hwloc_get_next_osdev(topo, o))
        if (o->name && name == o->name) return o;
    FAIL("no OS device " << name);
    return nullptr;
}

// POSIX cksum (`cksum FILE`): the CRC-32 of polynomial 0x04C11DB7 over the
// bytes and then the length, complemented.
std::uint32_t posix_cksum(std::string_view bytes) {
    std::uint32_t crc = 0;
    const auto add = [&](unsigned char b) {
        crc ^= static_cast<std::uint32_t>(b) << 24;
        for (int i = 0; i < 8; ++i) crc = (crc & 0x80000000u) ? (crc << 1) ^ 0x04C11DB7u : crc << 1;
    };
    for (const char c : bytes) add(static_cast<unsigned char>(c));
    for (std::size_t n = bytes.size(); n; n >>= 8) add(static_cast<unsigned char>(n & 0xffu));
    return ~crc;
}

// A small 3.0 export: a Machine with two NUMA nodes and an L2 over two
// cores, `devices` as its OS devices and `after` after the root object.
std::string export_v3(const std::string& devices, const std::string& after = "",
                      const std::string& l2 = R"(cache_inclusive="1")") {
    return R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc2.dtd">
<topology version="3.0">
  <object type="Machine" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" allowed_cpuset="0x00000003" nodeset="0x00000003" complete_nodeset="0x00000003" allowed_nodeset="0x00000003" gp_index="1" id="obj1">
    <info name="DMIProductName" value="test"/>
    <object type="NUMANode" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="2" id="obj2" local_memory="1073741824"/>
    <object type="NUMANode" os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002" nodeset="0x00000002" complete_nodeset="0x00000002" id="obj3" subtype="HBM" local_memory="1073741824"/>
    <object type="L2Cache" cpuset="0x00000003" complete_cpuset="0x00000003" nodeset="0x00000003" complete_nodeset="0x00000003" gp_index="4" id="obj4" cache_size="1048576" depth="2" cache_linesize="64" cache_associativity="8" cache_type="0" )" +
           l2 + R"(>
      <object type="Core" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="5" id="obj5">
        <object type="PU" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="6" id="obj6"/>
      </object>
      <object type="Core" os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002" nodeset="0x00000002" complete_nodeset="0x00000002" gp_index="7" id="obj7">
        <object type="PU" os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002" nodeset="0x00000002" complete_nodeset="0x00000002" gp_index="8" id="obj8"/>
      </object>
    </object>
)" + devices +
           R"(  </object>
  <info name="Backend" value="Linux"/>
  <info name="HostName" value="node7"/>
)" + after +
           "</topology>\n";
}

std::string device(const std::string& name, const std::string& subtype, unsigned types,
                   int gp_index) {
    return "    <object type=\"OSDev\" gp_index=\"" + std::to_string(gp_index) + "\" name=\"" +
           name + "\"" + (subtype.empty() ? "" : " subtype=\"" + subtype + "\"") +
           " osdev_type=\"" + std::to_string(types) + "\"/>\n";
}

// The lines of export_v3 where `devices` and `after` start.
constexpr std::size_t devices_line = 16, after_line = 19;

// The InputError converting `text` gives.
InputError conversion_error(const std::string& text) {
    try {
        converted_text(text, "x.xml");
    } catch (const InputError& e) {
        return e;
    }
    FAIL("no InputError");
    return InputError("");
}

} // namespace

TEST_CASE("hwloc 3: the conversion of cxlmem+dax.v3.xml is hwloc's own", "[hwloc3]") {
    const std::string v3 = std::string(NETTOPO_SHARED_DATA) + "/hwloc3-xml/cxlmem+dax.v3.xml";
    if (!std::filesystem::exists(v3)) {
        WARN("no " << v3 << ": skipped");
        return;
    }
    const std::string v2 = test::converted_file(v3);
    // hwloc's tests/hwloc/xml/cxlmem+dax.v2.xml (github open-mpi/hwloc, commit
    // 3b37b024), which its test cxlmem+dax.v3tov2 exports from this file with
    // the v2 flag: 14410 bytes, `cksum` 3700688684. Equal byte for byte.
    CHECK(v2.size() == 14410);
    CHECK(posix_cksum(v2) == 3700688684u);
    // What differs from the 3.0 file, as facts of that file:
    CHECK_THAT(v2, Contains("<topology version=\"2.0\">"));
    CHECK(v2.find(" id=\"obj") == std::string::npos);
    CHECK(v2.find("pci_locality") == std::string::npos);
    const detail::Topology topo = hwloc_read(v2);
    // Block (0) for DAX and CXL memory, which 3.0 calls Memory (and Storage
    // for persistent memory), and for the disks; Network (2) for enp0s2.
    for (const auto& [name, type] : std::vector<std::pair<std::string, hwloc_obj_osdev_type_t>>{
             {"dax0.0", HWLOC_OBJ_OSDEV_BLOCK},
             {"enp0s2", HWLOC_OBJ_OSDEV_NETWORK},
             {"sr0", HWLOC_OBJ_OSDEV_BLOCK},
             {"sda", HWLOC_OBJ_OSDEV_BLOCK},
             {"mem0", HWLOC_OBJ_OSDEV_BLOCK},
             {"mem1", HWLOC_OBJ_OSDEV_BLOCK},
             {"mem2", HWLOC_OBJ_OSDEV_BLOCK},
             {"mem3", HWLOC_OBJ_OSDEV_BLOCK}}) {
        INFO(name);
        CHECK(os_device(topo.get(), name)->attr->osdev.type == type);
    }
    // The topology's infos follow the root's own, in their order.
    const hwloc_obj_t root = hwloc_get_root_obj(topo.get());
    std::vector<std::string> infos;
    for (unsigned i = 0; i < root->infos_count; ++i)
        if (std::string_view(root->infos[i].name).substr(0, 3) != "DMI")
            infos.push_back(std::string(root->infos[i].name) + "=" + root->infos[i].value);
    CHECK(infos == std::vector<std::string>{
                       "Backend=Linux", "LinuxCgroup=/", "OSName=Linux", "OSRelease=6.1.0-rc4+",
                       "OSVersion=#1 SMP PREEMPT_DYNAMIC Thu Dec  1 15:21:30 CET 2022",
                       "HostName=efi", "Architecture=x86_64"});
}

TEST_CASE("hwloc 3: OS device types from the 3.0 bitmask, as hwloc's v2 export writes them",
          "[hwloc3]") {
    // 3.0 bits: Storage 1, Memory 2, GPU 4, CoProcessor 8, Network 16,
    // OpenFabrics 32, DMA 64. One 2.x type each, the first that applies.
    struct Row {
        const char* name;
        const char* subtype;
        unsigned types;
        hwloc_obj_osdev_type_t v2;
        const char* backend; // the Backend info 2.x devices carried, or ""
    };
    const std::vector<Row> rows = {
        {"sda", "Disk", 1, HWLOC_OBJ_OSDEV_BLOCK, ""},
        {"dax0.0", "SPM", 2, HWLOC_OBJ_OSDEV_BLOCK, ""},
        {"mem0", "CXLMem", 3, HWLOC_OBJ_OSDEV_BLOCK, ""},
        {"eth0", "", 16, HWLOC_OBJ_OSDEV_NETWORK, ""},
        {"mlx5_0", "", 48, HWLOC_OBJ_OSDEV_OPENFABRICS, ""},
        {"bxi0", "BXI", 16, HWLOC_OBJ_OSDEV_OPENFABRICS, ""}, // OpenFabrics in 2.x
        {"dma0chan0", "", 64, HWLOC_OBJ_OSDEV_DMA, ""},
        {"cuda0", "CUDA", 12, HWLOC_OBJ_OSDEV_COPROC, "CUDA"},
        {"opencl0d0", "OpenCL", 12, HWLOC_OBJ_OSDEV_COPROC, "OpenCL"},
        {"ze0", "LevelZero", 12, HWLOC_OBJ_OSDEV_COPROC, "LevelZero"},
        {"nvml0", "NVML", 12, HWLOC_OBJ_OSDEV_GPU, "NVML"},
        {"rsmi0", "RSMI", 12, HWLOC_OBJ_OSDEV_GPU, "RSMI"},
        {"ve0", "VectorEngine", 8, HWLOC_OBJ_OSDEV_COPROC, ""},
        {"card0", "Display", 4, HWLOC_OBJ_OSDEV_GPU, "GL"},
    };
    std::string devices;
    int gp = 20;
    for (const Row& r : rows) devices += device(r.name, r.subtype, r.types, gp++);
    devices += device("none0", "", 0, gp++); // no type: 2.x gets no osdev_type
    const std::string v2 = converted_text(export_v3(devices));
    CHECK_THAT(v2, Contains(R"(name="none0"/>)"));
    const detail::Topology topo = hwloc_read(v2);
    for (const Row& r : rows) {
        INFO(r.name);
        const hwloc_obj_t o = os_device(topo.get(), r.name);
        CHECK(o->attr->osdev.type == r.v2);
        const char* backend = hwloc_obj_get_info_by_name(o, "Backend");
        CHECK(std::string(backend ? backend : "") == r.backend);
    }
}

TEST_CASE("hwloc 3: topology infos, memory tiers, inclusiveness, page sizes, HOPS, ids",
          "[hwloc3]") {
    const std::string after =
        R"(  <distances2 type="NUMANode" nbobjs="2" kind="33" name="XGMIHops" indexing="os">
    <indexes length="4">0 1 </indexes>
    <u64values length="8">0 1 1 0 </u64values>
    <info name="Source" value="test"/>
  </distances2>
  <info name="PageSizeNr" value="2"/>
  <info name="PageSizes" value="4096,2097152"/>
  <memtier kinds="1" nodeset="0x00000002"/>
  <memtier kinds="2" nodeset="0x00000001"/>
  <pci_locality domain="0x0" bus_min="0x0" bus_max="0x3" cpuset="0x00000003"/>
)";
    const std::string v2 = converted_text(export_v3("", after));
    const detail::Topology topo = hwloc_read(v2);
    const hwloc_obj_t root = hwloc_get_root_obj(topo.get());
    const auto info = [](hwloc_obj_t o, const char* name) {
        const char* v = hwloc_obj_get_info_by_name(o, name);
        return std::string(v ? v : "");
    };
    // The topology's infos on the root, after its own.
    CHECK(info(root, "DMIProductName") == "test");
    CHECK(info(root, "HostName") == "node7");
    CHECK(info(root, "Backend") == "Linux");
    CHECK(info(root, "PageSizes") == "4096,2097152");
    // Two tiers: their count on the root, each node's tier as an info, and a
    // node without subtype gets its tier's (kinds 2: DRAM).
    CHECK(info(root, "MemoryTiersNr") == "2");
    const hwloc_obj_t node0 = hwloc_get_numanode_obj_by_os_index(topo.get(), 0);
    const hwloc_obj_t node1 = hwloc_get_numanode_obj_by_os_index(topo.get(), 1);
    REQUIRE(node0);
    REQUIRE(node1);
    CHECK(info(node0, "MemoryTier") == "1");
    CHECK(info(node1, "MemoryTier") == "0");
    CHECK(std::string(node0->subtype ? node0->subtype : "") == "DRAM");
    CHECK(std::string(node1->subtype ? node1->subtype : "") == "HBM");
    // Page sizes as each node's page types.
    for (const hwloc_obj_t node : {node0, node1}) {
        REQUIRE(node->attr->numanode.page_types_len == 2);
        CHECK(node->attr->numanode.page_types[0].size == 4096);
        CHECK(node->attr->numanode.page_types[1].size == 2097152);
    }
    // cache_inclusive as the Inclusive info.
    const hwloc_obj_t l2 = hwloc_get_obj_by_type(topo.get(), HWLOC_OBJ_L2CACHE, 0);
    REQUIRE(l2);
    CHECK(info(l2, "Inclusive") == "1");
    // HOPS (32) was a latency (4) in 2.x; the matrix's info is left out.
    unsigned nr = 1;
    hwloc_distances_s* d = nullptr;
    REQUIRE(hwloc_distances_get_by_name(topo.get(), "XGMIHops", &nr, &d, 0) == 0);
    REQUIRE(nr == 1);
    CHECK(d->kind == (HWLOC_DISTANCES_KIND_FROM_OS | HWLOC_DISTANCES_KIND_MEANS_LATENCY));
    hwloc_distances_release(topo.get(), d);
    CHECK(v2.find("Source") == std::string::npos);
    // The gp_index of an object known by its id only.
    CHECK_THAT(
        v2,
        Contains(
            R"(os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002" nodeset="0x00000002" complete_nodeset="0x00000002" gp_index="3")"));
    CHECK(v2.find("pci_locality") == std::string::npos);
    CHECK(v2.find("memtier") == std::string::npos);
    // An exclusive cache has no Inclusive info.
    CHECK(converted_text(export_v3("", "", R"(cache_inclusive="0")")).find("Inclusive") ==
          std::string::npos);
}

TEST_CASE("hwloc 3: what the conversion cannot know is refused with file and line", "[hwloc3]") {
    const auto check = [](const std::string& text, std::size_t line, const char* what) {
        const InputError e = conversion_error(text);
        INFO(e.what());
        CHECK(e.file() == "x.xml");
        CHECK(e.line() == line);
        CHECK_THAT(std::string(e.what()), Contains(what));
        CHECK_THAT(std::string(e.what()), Contains("--export-xml-flags v2"));
    };
    // An element 3.0 does not write, inside an object or after the root.
    check(export_v3("    <sensor name=\"t\"/>\n"), devices_line,
          "unknown element <sensor> in <object> of this hwloc 3.0 export");
    check(export_v3("", "  <future/>\n"), after_line, "unknown element <future> in <topology>");
    check(export_v3("", "  <memattr name=\"x\" flags=\"1\"><value/></memattr>\n"), after_line,
          "unknown element <value> in <memattr>");
    // 2.x's page types are not 3.0's.
    check(export_v3("    <page_type size=\"4096\" count=\"0\"/>\n"), devices_line,
          "unknown element <page_type> in <object>");
    // What the conversion consumes must be whole.
    check(export_v3("", "  <memtier kinds=\"1\"/>\n"), after_line,
          "a <memtier> without a nodeset in this hwloc 3.0 export");
    check(export_v3("", "  <memtier kinds=\"1\" nodeset=\"0xzz\"/>\n"), after_line,
          "a <memtier> without a nodeset");
    check(export_v3("", "  <pci_locality domain=\"0x0\" bus_min=\"0x0\" bus_max=\"0x3\"/>\n"),
          after_line, "a <pci_locality> without cpuset");
    check("<topology version=\"3.0\">\n  <info name=\"a\" value=\"b\"/>\n</topology>\n", 2,
          "<info> before the root <object>");
}

TEST_CASE("hwloc 3: which hwloc reads which export itself", "[hwloc3]") {
    using detail::hwloc_reads;
    using V = detail::HwlocXmlVersion;
    CHECK(hwloc_reads("2.9.0", V{2, 0}));
    CHECK(hwloc_reads("2.9.0", V{1, 0}));
    CHECK_FALSE(hwloc_reads("2.9.0", V{3, 0})); // Debian 12's: converted
    CHECK(hwloc_reads("2.10.0", V{3, 0}));
    CHECK(hwloc_reads("2.14.0", V{3, 0}));
    CHECK_FALSE(hwloc_reads("2.14.0", V{3, 1}));
    CHECK(hwloc_reads("3.0.0", V{3, 1}));
    CHECK_FALSE(hwloc_reads("3.0.0", V{4, 0}));
    CHECK_FALSE(hwloc_reads("unknown", V{3, 0}));
    pugi::xml_document doc;
    REQUIRE(doc.load_string("<topology version=\"3.0\"/>"));
    CHECK(detail::hwloc_xml_version(doc.document_element()).major == 3);
    REQUIRE(doc.load_string("<topology/>"));
    CHECK(detail::hwloc_xml_version(doc.document_element()).major == 1);
}

TEST_CASE("hwloc 3: an export of a newer format says its version, nettopo's hwloc and the remedy",
          "[hwloc3]") {
    test::TempDir tmp("nettopo-hwloc4-");
    const std::string path = tmp / "future.xml";
    std::string text = export_v3("");
    text.replace(text.find("version=\"3.0\""), 13, "version=\"4.0\"");
    std::ofstream(path) << text;
    try {
        load_hwloc_xml(path);
        FAIL("no InputError");
    } catch (const InputError& e) {
        CHECK(e.file() == path);
        CHECK(e.line() == 3);
        CHECK_THAT(std::string(e.what()), Contains("hwloc's XML format 4.0"));
        CHECK_THAT(std::string(e.what()), Contains("hwloc " + hwloc_runtime_version()));
        CHECK_THAT(std::string(e.what()), Contains("--export-xml-flags v2"));
        CHECK_THAT(std::string(e.what()), Contains("HWLOC_TOPOLOGY_EXPORT_XML_FLAG_V2"));
    }
}
