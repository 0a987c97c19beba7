// LoadOptions::level_latencies on every input kind load_cluster and
// load_topology read: an hwloc export, an hwloc synthetic string, this
// machine, a description (over its lat. options), an archive (over its
// <latencies>), a binary image (given, or beside its archive). And what an
// archive or image written after records: read back without overrides, the
// same latencies (issue 26 part 2).
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/formats/image.hpp"
#include "nettopo/formats/load.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace nettopo;
using test::archive_text;
using test::TempDir;

namespace {

// Two packages of an L3 over two cores of two PUs: PUs 0 and 2 meet at the
// L3, 0 and 4 at the Machine. The description sets the L3 and the Core.
constexpr const char* description = "name lat\n"
                                    "machines m[1-2] pack:2 l3:1 core:2 pu:2 lat.L3=33 lat.Core=4\n"
                                    "switch s\n"
                                    "link m1 s 100\n"
                                    "link m2 s 100\n";

// L3 at 30 and Machine at 200 over whatever the input says.
LoadOptions with_overrides() {
    LoadOptions o;
    o.level_latencies.set(ObjectType::L3, 30);
    o.level_latencies.set(ObjectType::Machine, 200);
    return o;
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
}

// Every type of `c` has the overrides of with_overrides(), and `core_ns` at its Core.
void require_overridden(const Cluster& c, double core_ns) {
    REQUIRE(c.num_types() >= 1);
    for (std::uint32_t t = 0; t < c.num_types(); ++t) {
        const MachineType& type = c.type(TypeId(t));
        CHECK(type.latencies()[ObjectType::L3] == 30);
        CHECK(type.latencies()[ObjectType::Machine] == 200);
        CHECK(type.latencies()[ObjectType::Core] == core_ns);
    }
}

// The description read without overrides, and saved as an archive at `path`.
Cluster described_archive(const std::string& path) {
    std::istringstream text(description);
    Cluster c = read_description(text, "c.topo", {});
    save_archive(c, path);
    return c;
}

} // namespace

TEST_CASE("level latencies: a description's lat. options, then the caller's",
          "[latency][overrides][load]") {
    TempDir dir("nettopo-lat-");
    const std::string path = dir / "c.topo";
    write_file(path, description);
    const Cluster plain = load_cluster(path);
    CHECK(plain.type(TypeId(0)).latencies()[ObjectType::L3] == 33);
    CHECK(plain.type(TypeId(0)).latency_between(0, 2) == 33);

    const Cluster c = load_cluster(path, with_overrides());
    require_overridden(c, 4); // lat.Core=4 stays: nothing overrides it
    const MachineType& t = c.type(TypeId(0));
    CHECK(t.latency_between(0, 2) == 30);
    CHECK(t.latency_between(0, 4) == 200);
    CHECK(t.latency_between(0, 1) == 4);
    // The cluster's distances, through the model: same machine, same answers.
    CHECK(c.intra_machine_latency(PeId(0), PeId(2)) == 30);
}

TEST_CASE("level latencies: hwloc exports, synthetic strings and this machine",
          "[latency][overrides][load]") {
    const Cluster xml =
        load_cluster(NETTOPO_TEST_DATA "/hwloc-smt-interleaved.xml", with_overrides());
    require_overridden(xml, 5);
    const Cluster synthetic = load_cluster("pack:2 l3:1 core:2 pu:2", with_overrides());
    require_overridden(synthetic, 5);
    CHECK(synthetic.type(TypeId(0)).latency_between(0, 2) == 30);
    CHECK(synthetic.type(TypeId(0)).latency_between(0, 4) == 200);
    const Cluster here = discover_cluster(with_overrides());
    require_overridden(here, 5);
}

TEST_CASE("level latencies: an archive's own, then the caller's; the archive written records "
          "them",
          "[latency][overrides][load][archive]") {
    TempDir dir("nettopo-lat-");
    const std::string archive = dir / "c.xml";
    described_archive(archive);
    CHECK(load_cluster(archive).type(TypeId(0)).latencies()[ObjectType::L3] == 33);

    const Cluster overridden = load_cluster(archive, with_overrides());
    require_overridden(overridden, 4);
    // Written, then read back with no overrides: the same cluster, latencies included.
    const std::string again = dir / "again.xml";
    save_archive(overridden, again);
    const Cluster back = load_cluster(again);
    require_overridden(back, 4);
    CHECK(archive_text(back) == archive_text(overridden));
    CHECK(back.type(TypeId(0)).latency_between(0, 2) == 30);
    // The description written keeps them too, as lat. options.
    std::ostringstream written;
    write_description(overridden, written);
    CHECK(written.str().find("lat.l3=30") != std::string::npos);
    CHECK(written.str().find("lat.machine=200") != std::string::npos);
}

TEST_CASE("level latencies: binary images, given or beside their archive",
          "[latency][overrides][load][image]") {
    TempDir dir("nettopo-lat-");
    const std::string archive = dir / "c.xml";
    const Cluster described = described_archive(archive);
    const std::string image = sibling_image_path(archive);
    save_image(described, nullptr, image, file_stamp(archive));

    // Without overrides, each path gives the image's own table.
    CHECK(load_topology(archive).image == image); // read from the image, not the archive
    CHECK(load_topology(archive).cluster.type(TypeId(0)).latencies()[ObjectType::L3] == 33);

    const LoadOptions o = with_overrides();
    const LoadedTopology beside = load_topology(archive, o);
    CHECK(beside.image == image);
    require_overridden(beside.cluster, 4);
    CHECK(beside.cluster.type(TypeId(0)).latency_between(0, 2) == 30);
    require_overridden(load_topology(image, o).cluster, 4);
    require_overridden(load_cluster(image, o), 4);
    require_overridden(read_image(image, false, ImageIndex::read, o.level_latencies).cluster, 4);

    // An image written from the overridden cluster records them.
    const std::string kept = dir / "kept.ntimg";
    save_image(beside.cluster, nullptr, kept);
    const Cluster back = read_image(kept).cluster;
    require_overridden(back, 4);
    CHECK(archive_text(back) == archive_text(beside.cluster));
}
