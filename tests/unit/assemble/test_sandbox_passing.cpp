// Every entry point above the hwloc layer that makes hwloc parse a user's
// input passes the caller's hwloc sandbox on (LoadOptions, read_description,
// write_description, synthetic_machine, machine_from_file, GenerateOptions,
// AssembleOptions): one run per file or synthetic description, and the same
// result as without a sandbox.
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"
#include "testkit/counting_sandbox.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
namespace fs = std::filesystem;

namespace {

using test::CountingSandbox;
using test::TempDir;
using Sources = std::vector<std::string>;

const fs::path real_xml_dir = fs::path(NETTOPO_SHARED_DATA) / "hwloc-xml";
const std::string small_export = (real_xml_dir / "16em64t-4s2c2t.xml").string();
const std::string two_types = "machine a pack:2 pu:1\nmachine b core:2 pu:2\nlink a b 5\n";

} // namespace

TEST_CASE("sandbox passing: load_cluster and the text description", "[sandbox_passing]") {
    const CountingSandbox xml;
    LoadOptions options;
    options.hwloc_sandbox = &xml;
    CHECK(load_cluster(small_export, options).num_pes() == 16);
    CHECK(xml.sources() == Sources{small_export});

    const TempDir tmp("nettopo-sandbox-passing-");
    { std::ofstream(tmp / "two.topo") << two_types; }
    const CountingSandbox description;
    options.hwloc_sandbox = &description;
    const Cluster c = load_cluster(tmp / "two.topo", options);
    CHECK(description.sources() == Sources{"pack:2 pu:1", "core:2 pu:2"});
    std::istringstream in(two_types);
    CHECK(read_description(in, "two.topo", options).num_pes() == c.num_pes());
    CHECK(description.runs() == 4);

    const CountingSandbox writer;
    std::ostringstream with, without;
    write_description(c, with, nullptr, &writer);
    write_description(c, without);
    CHECK(with.str() == without.str());
    CHECK(writer.sources() == Sources{"pack:2 pu:1", "core:2 pu:2"});
    save_description(c, tmp / "saved.topo", nullptr, &writer);
    CHECK(writer.runs() == 4);
    CHECK(test::read_file(tmp.path / "saved.topo") == without.str());
}

TEST_CASE("sandbox passing: generated clusters", "[sandbox_passing]") {
    const CountingSandbox sandbox;
    CHECK(synthetic_machine("core:2 pu:2", {}, &sandbox).tree().num_pus() == 4);
    CHECK(machine_from_file(small_export, {}, &sandbox).tree().num_pus() == 16);
    GenerateOptions options;
    options.hwloc_sandbox = &sandbox;
    const Cluster c = generate_from_spec("ring --machines 3 --machine 'core:2 pu:1'", options);
    CHECK(c.num_pes() == 6);
    CHECK(sandbox.sources() == Sources{"core:2 pu:2", small_export, "core:2 pu:1"});
}

TEST_CASE("sandbox passing: assembled clusters", "[sandbox_passing]") {
    if (!fs::is_directory(real_xml_dir)) {
        WARN("shared data absent, skipped: " << real_xml_dir.string());
        return;
    }
    const TempDir tmp("nettopo-sandbox-assemble-");
    fs::copy_file(small_export, tmp.path / "a.xml");
    fs::copy_file(real_xml_dir / "16amd64-4distances.xml", tmp.path / "b.xml");
    ClusterSources sources;
    sources.hosts = {tmp.path.string()};
    AssembleOptions options;
    options.hosts_only = true;
    options.default_machine = "pack:2 pu:2";
    const CountingSandbox sandbox;
    options.hwloc_sandbox = &sandbox;
    const Assembly sandboxed = assemble_from_files(sources, options);
    CHECK(sandbox.sources() == Sources{tmp / "a.xml", tmp / "b.xml", "pack:2 pu:2"});
    options.hwloc_sandbox = nullptr;
    const Assembly direct = assemble_from_files(sources, options);
    CHECK(sandboxed.cluster.num_pes() == direct.cluster.num_pes());
    CHECK(sandboxed.cluster.num_machines() == 2);
}
