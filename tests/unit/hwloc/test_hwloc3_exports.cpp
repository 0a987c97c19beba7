// Every hwloc 3.0 export of ../shared/data/hwloc3-xml read by nettopo, against
// counts the test reads from the XML itself (pugixml, without the converter):
// PUs, cores, NUMA nodes, packages, the OS devices by name (hwloc 2.9 on the
// conversion, I/O kept), and the HostName on the machine. The one machine
// there in both formats (32em64t-2n8c2t-pci-normalio.xml, hwloc-xml/ holds
// hwloc 2.14's export of it) is compared with its 2.x twin.
#include "nettopo/formats/load.hpp"
#include "nettopo/hwloc/host_exports.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/tree/object_type.hpp"
#include "testkit/hwloc3_text.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <hwloc.h>
#include <pugixml.hpp>
#include <string>
#include <vector>

using namespace nettopo;
namespace fs = std::filesystem;

namespace {

using test::converted_file;
using test::hwloc_read;
using test::read_file;

std::vector<std::string> hwloc3_exports() {
    std::vector<std::string> files;
    const fs::path dir = fs::path(NETTOPO_SHARED_DATA) / "hwloc3-xml";
    if (!fs::is_directory(dir)) return files;
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".xml") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

// What an export says of itself, read from its XML.
struct Declared {
    unsigned pus = 0, cores = 0, numa_nodes = 0, packages = 0;
    std::vector<std::string> os_devices; // names, sorted
    std::string hostname;                // the topology's HostName info (3.0) or the root's (2.x)
};

Declared declared(const std::string& text) {
    pugi::xml_document doc;
    REQUIRE(doc.load_string(text.c_str()));
    Declared d;
    const auto count = [&](const char* type) {
        return static_cast<unsigned>(
            doc.select_nodes(("//object[@type='" + std::string(type) + "']").c_str()).size());
    };
    d.pus = count("PU");
    d.cores = count("Core");
    d.numa_nodes = count("NUMANode");
    d.packages = count("Package");
    for (const pugi::xpath_node& n : doc.select_nodes("//object[@type='OSDev']"))
        d.os_devices.push_back(n.node().attribute("name").value());
    std::sort(d.os_devices.begin(), d.os_devices.end());
    const pugi::xpath_node host = doc.select_node(
        "/topology/info[@name='HostName'] | /topology/object/info[@name='HostName']");
    if (host) d.hostname = host.node().attribute("value").value();
    return d;
}

// The same facts from hwloc's reading.
Declared read_back(hwloc_topology_t topo) {
    Declared d;
    const auto count = [&](hwloc_obj_type_t type) {
        return static_cast<unsigned>(hwloc_get_nbobjs_by_type(topo, type));
    };
    d.pus = count(HWLOC_OBJ_PU);
    d.cores = count(HWLOC_OBJ_CORE);
    d.numa_nodes = count(HWLOC_OBJ_NUMANODE);
    d.packages = count(HWLOC_OBJ_PACKAGE);
    for (hwloc_obj_t o = hwloc_get_next_osdev(topo, nullptr); o; o = hwloc_get_next_osdev(topo, o))
        d.os_devices.push_back(o->name ? o->name : "");
    std::sort(d.os_devices.begin(), d.os_devices.end());
    const char* host = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "HostName");
    d.hostname = host ? host : "";
    return d;
}

} // namespace

TEST_CASE("hwloc 3 exports: every one reads with the counts its XML declares", "[hwloc3]") {
    const std::vector<std::string> files = hwloc3_exports();
    if (files.empty()) {
        WARN("no " << NETTOPO_SHARED_DATA << "/hwloc3-xml: skipped");
        return;
    }
    CHECK(files.size() >= 6);
    for (const std::string& path : files) {
        INFO(path);
        const Declared d = declared(read_file(path));
        REQUIRE(d.pus > 0);
        // nettopo's machine.
        const HwlocMachine m = load_hwloc_xml(path);
        CHECK(m.tree.num_pus() == d.pus);
        CHECK(m.tree.count(ObjectType::Core) == d.cores);
        CHECK(m.tree.count(ObjectType::NUMANode) == d.numa_nodes);
        CHECK(m.tree.count(ObjectType::Package) == d.packages);
        CHECK(m.hostname == d.hostname);
        // What hwloc 2.9 reads of the conversion, I/O included.
        const Declared back = read_back(hwloc_read(converted_file(path)).get());
        CHECK(back.pus == d.pus);
        CHECK(back.cores == d.cores);
        CHECK(back.numa_nodes == d.numa_nodes);
        CHECK(back.packages == d.packages);
        CHECK(back.os_devices == d.os_devices);
        CHECK(back.hostname == d.hostname);
        // The machine of a cluster is named after its HostName.
        const Cluster c = load_cluster(path);
        CHECK(c.num_pes() == d.pus);
        if (!d.hostname.empty()) CHECK(c.machine_name(MachineId(0)) == d.hostname);
    }
}

TEST_CASE("hwloc 3 exports: a machine exported by hwloc 3 and by hwloc 2 reads the same",
          "[hwloc3]") {
    const std::string data = NETTOPO_SHARED_DATA;
    const std::string v3 = data + "/hwloc3-xml/32em64t-2n8c2t-pci-normalio.xml";
    const std::string v2 = data + "/hwloc-xml/32em64t-2n8c2t-pci-normalio.xml";
    if (!fs::exists(v3) || !fs::exists(v2)) {
        WARN("no " << v3 << " or " << v2 << ": skipped");
        return;
    }
    const detail::Topology a = hwloc_read(converted_file(v3)), b = hwloc_read(read_file(v2));
    const Declared da = read_back(a.get()), db = read_back(b.get());
    CHECK(da.pus == db.pus);
    CHECK(da.cores == db.cores);
    CHECK(da.numa_nodes == db.numa_nodes);
    CHECK(da.os_devices == db.os_devices);
    CHECK(da.hostname == db.hostname);
    // Each OS device has the 2.x type hwloc 2 gave it (cuda0 a co-processor,
    // mlx5_0 OpenFabrics, card0 a GPU, ...), and every PU its cpuset.
    for (hwloc_obj_t o = hwloc_get_next_osdev(b.get(), nullptr); o;
         o = hwloc_get_next_osdev(b.get(), o)) {
        hwloc_obj_t twin = hwloc_get_next_osdev(a.get(), nullptr);
        while (twin && std::string(twin->name) != o->name)
            twin = hwloc_get_next_osdev(a.get(), twin);
        INFO(o->name);
        REQUIRE(twin);
        CHECK(twin->attr->osdev.type == o->attr->osdev.type);
    }
    for (unsigned i = 0; i < da.pus; ++i) {
        const hwloc_obj_t pa = hwloc_get_obj_by_type(a.get(), HWLOC_OBJ_PU, i);
        const hwloc_obj_t pb = hwloc_get_obj_by_type(b.get(), HWLOC_OBJ_PU, i);
        CHECK(pa->os_index == pb->os_index);
        CHECK(hwloc_bitmap_isequal(pa->parent->cpuset, pb->parent->cpuset));
    }
    // The NUMA latency matrix.
    unsigned na = 1, nb = 1;
    hwloc_distances_s *ma = nullptr, *mb = nullptr;
    REQUIRE(hwloc_distances_get_by_name(a.get(), "NUMALatency", &na, &ma, 0) == 0);
    REQUIRE(hwloc_distances_get_by_name(b.get(), "NUMALatency", &nb, &mb, 0) == 0);
    REQUIRE(na == 1);
    REQUIRE(nb == 1);
    CHECK(ma->kind == mb->kind);
    CHECK(std::vector<hwloc_uint64_t>(ma->values, ma->values + ma->nbobjs * ma->nbobjs) ==
          std::vector<hwloc_uint64_t>(mb->values, mb->values + mb->nbobjs * mb->nbobjs));
    hwloc_distances_release(a.get(), ma);
    hwloc_distances_release(b.get(), mb);
}

TEST_CASE("hwloc 3 exports: a host's hwloc 3 export among the hosts' exports", "[hwloc3]") {
    const std::string v3 = std::string(NETTOPO_SHARED_DATA) + "/hwloc3-xml/cxlmem+dax.v3.xml";
    if (!fs::exists(v3)) {
        WARN("no " << v3 << ": skipped");
        return;
    }
    const std::vector<HostExport> hosts = load_host_exports({v3});
    REQUIRE(hosts.size() == 1);
    CHECK(hosts[0].name == "efi");
    CHECK(hosts[0].tree.num_pus() == 4);
}
