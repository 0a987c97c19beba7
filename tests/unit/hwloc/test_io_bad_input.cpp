// Damaged I/O parts of real exports (issue 26 part 6), each made from
// power8gpudistances.xml by one edit: a distance matrix whose counts do not
// match or that names an object the export does not hold is refused with the
// file and the matrix's line (hwloc refuses the first without a reason and
// drops the second silently); OS devices left without their PCI function
// are read, one GPU per device of the first runtime, never one per view.
#include "nettopo/formats/load.hpp"
#include "nettopo/model/devices.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

std::string power8() {
    std::ifstream in(std::string(NETTOPO_SHARED_DATA) + "/hwloc-xml/power8gpudistances.xml");
    std::ostringstream s;
    s << in.rdbuf();
    REQUIRE(!s.str().empty());
    return s.str();
}

// `text` with its first `from` replaced by `to` (which must be there).
std::string edited(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

std::string saved(const test::TempDir& dir, const std::string& name, const std::string& text) {
    const std::string path = dir / name;
    std::ofstream(path) << text;
    return path;
}

} // namespace

TEST_CASE("I/O bad input: damaged distance matrices are refused with their line", "[io]") {
    test::TempDir dir("nettopo-io-bad-");
    const std::string good = power8();
    REQUIRE(load_cluster(saved(dir, "good.xml", good)).num_pes() == 16);
    const struct {
        const char* from;
        const char* to;
        const char* says;
    } cases[] = {
        {R"(<distances2 type="NUMANode" nbobjs="2")", R"(<distances2 type="NUMANode" nbobjs="3")",
         ":211: <distances2 name=\"NUMALatency\">: declares 3 objects and lists 2 indexes"},
        {R"(<distances2 type="NUMANode" nbobjs="2")", R"(<distances2 type="NUMANode" nbobjs="x")",
         ":211: <distances2 name=\"NUMALatency\">: nbobjs is not a number of objects"},
        {"OSDev:332 OSDev:333", "OSDev:999 OSDev:333",
         ":215: <distances2hetero name=\"NVLinkBandwidth\">: names OSDev gp_index 999, which "
         "the export does not hold"},
        {"OSDev:332 OSDev:333", "OSDev332 OSDev:333",
         ":215: <distances2hetero name=\"NVLinkBandwidth\">: index 'OSDev332' is not TYPE:GP"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.to);
        const std::string path = saved(dir, "bad.xml", edited(good, c.from, c.to));
        CHECK_THROWS_WITH(load_cluster(path), Contains(path + c.says));
    }
    // A NUMA node by an OS index the export has not.
    const std::size_t at = good.find("<distances2 type=\"NUMANode\"");
    const std::size_t idx = good.find("<indexes", at);
    const std::size_t open = good.find('>', idx) + 1;
    std::string wrong = good;
    wrong.replace(open, good.find('<', open) - open, "0 77 ");
    CHECK_THROWS_WITH(load_cluster(saved(dir, "bad.xml", wrong)),
                      Contains("names NUMANode P#77, which the export does not hold"));
}

TEST_CASE("I/O bad input: OS devices without their PCI function", "[io]") {
    // gpu0's three views (cuda0, opencl0d0, nvml0) hang from the CPU side
    // once its bridges and PCI function are taken out.
    std::string text = power8();
    const std::size_t osdev = text.find("<object type=\"OSDev\" gp_index=\"328\"");
    const std::size_t bridge = text.rfind("<object type=\"Bridge\" gp_index=\"304\"", osdev);
    REQUIRE(bridge != std::string::npos);
    const std::size_t open_end = text.rfind('\n', osdev);
    const std::size_t nvml = text.find("name=\"nvml0\"", osdev);
    std::size_t close = text.find("</object>", text.find("</object>", nvml)); // nvml0's own
    close = text.find('\n', close);
    // Remove the three closing tags of PCIDev, Bridge, Bridge after nvml0.
    std::size_t end = close;
    for (int i = 0; i < 3; ++i) end = text.find('\n', text.find("</object>", end));
    text =
        text.substr(0, bridge) + text.substr(open_end + 1, close - open_end) + text.substr(end + 1);
    test::TempDir dir("nettopo-io-bad-");
    const Cluster c = load_cluster(saved(dir, "loose.xml", text));
    const auto devices = c.type(TypeId(0)).tree().devices();
    REQUIRE(devices.size() == 4); // four GPUs, not six
    const auto gpu0 = find_devices(c, "gpu0");
    REQUIRE(gpu0.size() == 1);
    const IoDevice& d = device(c, gpu0[0]);
    CHECK(d.names == std::vector<std::string>{"cuda0"});
    CHECK(d.pci == no_pci);
    CHECK(find_devices(c, "nvml0").empty()); // not joined by guess
    CHECK(device_pci_bus_id(c, find_devices(c, "gpu1")[0]) == "0003:01:00.0");
}
