// Per-host device identities (Cluster::identities): read from hwloc exports
// (hwloc's infos of the kept devices' OS devices), kept per machine while
// identical hosts share one type, through archives and images, refused when
// they name a device the type lacks or hold bad text. They are held to
// lstopo's own infos by tests/tools/devices_oracle.py.
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/formats/image.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/hwloc/host_exports.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

const std::string ipa20 = std::string(NETTOPO_SHARED_DATA) + "/hwloc-xml/ipa20-snc4-4xH100.xml";

MachineDevice named(const Cluster& c, std::string_view name) {
    const std::vector<MachineDevice> found = find_devices(c, name);
    REQUIRE(found.size() == 1);
    return found.front();
}

} // namespace

TEST_CASE("identities: an export's GUIDs, LIDs, addresses and UUIDs", "[identities][real]") {
    const Cluster c = load_cluster(ipa20);
    // As lstopo -v prints them (the oracle compares every one).
    CHECK(device_identity(c, named(c, "mlx5_0"), {"NodeGUID"}) == "043f:7203:00ae:a282");
    CHECK(device_identity(c, named(c, "mlx5_1"), {"SysImageGUID"}) == "043f:7203:00ae:a282");
    CHECK(device_identity(c, named(c, "mlx5_0"), {"Port1LID"}) == "0xe");
    CHECK(device_identity(c, named(c, "mlx5_0"), {"Port1State"}) == "4");
    CHECK(device_identity(c, named(c, "eno8303"), {"Address"}) == "c4:cb:e1:a7:42:9c");
    CHECK(device_identity(c, named(c, "gpu1"), {"NVIDIAUUID"}) ==
          "GPU-00000000-0000-0000-0000-000000000000");
    CHECK(device_identity(c, named(c, "gpu1"), {"AMDUUID", "NVIDIAUUID"}) ==
          "GPU-00000000-0000-0000-0000-000000000000");
    CHECK(device_identity(c, named(c, "gpu1"), {"NodeGUID"}).empty());
    // The views: mlx5_0's address is its IPoIB interface's (hsi0).
    bool address_of_hsi0 = false;
    for (const DeviceIdentity& i : device_identities(c, named(c, "mlx5_0")))
        address_of_hsi0 |= i.view == "hsi0" && i.name == "Address";
    CHECK(address_of_hsi0);
    // Identities are not the type's: the signature holds none of them.
    CHECK(c.type(TypeId(0)).tree().signature().find("a282") == std::string::npos);
}

TEST_CASE("identities: through archives and images", "[identities][real]") {
    const Cluster c = load_cluster(ipa20);
    REQUIRE(c.has_identities());
    const std::string text = test::archive_text(c);
    CHECK(text.find("<identity device=\"mlx5_0\" view=\"mlx5_0\" name=\"NodeGUID\"") !=
          std::string::npos);
    const Cluster back = test::from_archive_text(text);
    REQUIRE(back.identities(MachineId(0)).size() == c.identities(MachineId(0)).size());
    CHECK(std::equal(back.identities(MachineId(0)).begin(), back.identities(MachineId(0)).end(),
                     c.identities(MachineId(0)).begin()));
    CHECK(test::archive_text(back) == text);
    test::TempDir dir("nettopo-identities-");
    save_image(c, nullptr, dir / "c.ntimg");
    const Image image = read_image(dir / "c.ntimg", true);
    CHECK(test::archive_text(image.cluster) == text);
}

TEST_CASE("identities: two identical hosts share a type, each keeps its own",
          "[identities][real]") {
    test::TempDir dir("nettopo-identities-");
    std::ifstream in(ipa20);
    const std::string xml((std::istreambuf_iterator<char>(in)), {});
    // The same export as a second host: another HostName, another GUID.
    std::string other = std::regex_replace(xml, std::regex("testhost-nvidia"), "otherhost");
    other = std::regex_replace(other, std::regex("043f:7203:00ae:a282"), "043f:7203:00ae:ffff");
    std::ofstream(dir / "a.xml") << xml;
    std::ofstream(dir / "b.xml") << other;
    AssembleOptions options;
    options.hosts_only = true;
    const Cluster c =
        assemble_cluster(load_host_exports({dir.path.string()}), nullptr, options).cluster;
    REQUIRE(c.num_machines() == 2);
    CHECK(c.num_types() == 1);
    const MachineId b = *c.find_machine("otherhost");
    const MachineId a = *c.find_machine("testhost-nvidia");
    CHECK(device_identity(c, {a, named(c, "testhost-nvidia:mlx5_0").index}, {"NodeGUID"}) ==
          "043f:7203:00ae:a282");
    CHECK(device_identity(c, {b, named(c, "otherhost:mlx5_0").index}, {"NodeGUID"}) ==
          "043f:7203:00ae:ffff");
}

TEST_CASE("identities: what the builder and the archive refuse", "[identities]") {
    const Cluster c = load_cluster(ipa20);
    ClusterBuilder b("x");
    const TypeId t = b.add_type(c.type(TypeId(0)));
    const MachineId m = b.add_machine("h", t);
    const auto devices = static_cast<std::uint32_t>(c.type(TypeId(0)).tree().devices().size());
    CHECK_THROWS_WITH(b.set_identities(m, {{devices, "mlx5_0", "NodeGUID", "1"}}),
                      Contains("names device 10, but the machine's type has 10 devices"));
    CHECK_THROWS_WITH(b.set_identities(m, {{0, "", "NodeGUID", "1"}}),
                      Contains("has no OS device or no name"));
    CHECK_THROWS_WITH(b.set_identities(m, {{0, "cuda0", "UUID", "a\x01"}}), Contains("U+0001"));
    CHECK_THROWS_AS(b.set_identities(MachineId(5), {}), InputError);
    const std::string good = test::archive_text(c);
    CHECK_THAT(test::edited_archive_error(good, "<identity device=\"mlx5_0\"",
                                          "<identity device=\"mlx5_9\""),
               Contains("bad.xml:") && Contains("has no such device"));
    CHECK_THAT(test::edited_archive_error(good, "<machine name=\"testhost-nvidia\">",
                                          "<machine name=\"nohost\">"),
               Contains("which the archive lacks"));
    CHECK_THAT(test::edited_archive_error(good, "<nettopo version=\"4\"", "<nettopo version=\"3\""),
               Contains("version 4"));
}
