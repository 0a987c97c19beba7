// Other programs' files given where a cluster is read (load_cluster): an
// ibnetdiscover dump, a Slurm topology.conf or topology.yaml, an hwloc
// topology diff. Each is refused as what it is, with the Remedy of the
// library's reader that takes it, never as a description's syntax error.
#include "nettopo/formats/load.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <utility>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

InputError load_error(const std::string& path) {
    try {
        load_cluster(path);
    } catch (const InputError& e) {
        return e;
    }
    FAIL("loaded " << path);
    return InputError("");
}

// The file `text` as `name` in `dir`, loaded: its error.
InputError text_error(const test::TempDir& dir, const std::string& text) {
    const std::string path = dir / "input.txt";
    std::ofstream(path) << text;
    return load_error(path);
}

const std::string shared = NETTOPO_SHARED_DATA;
const std::string data = NETTOPO_TEST_DATA;

} // namespace

TEST_CASE("foreign inputs: every ibnetdiscover dump, as the option that reads it",
          "[formats][foreign]") {
    // Each of the three layouts ibnetdiscover prints: the topology file (its
    // first block's vendid= line), the -p port report, the -s route trace.
    const std::pair<std::string, std::size_t> dumps[] = {
        {data + "/ibnetdiscover/small-topology.txt", 12},
        {data + "/ibnetdiscover/small-ports.txt", 5},
        {shared + "/clusters/avakas/ib-subnet-0.txt", 1},
        {shared + "/clusters/plafrim/ib-subnet-0.txt", 1},
        {shared + "/fabrics/dgx-superpod-small.ibnetdiscover", 6},
        {shared + "/fabrics/dgx-superpod-cs8500.ibnetdiscover", 7},
        {shared + "/fabrics/fire-cs7500-2rail.ibnetdiscover", 6},
        {shared + "/fabrics/rdma-core-man-example.ibnetdiscover", 10}, // after "Non-Chassis Nodes"
        {shared + "/fabrics/osc-exporter-test.ibnetdiscover", 1},
        {shared + "/fabrics/osc-exporter-test2.ibnetdiscover", 1},
        {shared + "/fabrics/osc-exporter-test3.ibnetdiscover", 1},
    };
    for (const auto& [path, line] : dumps) {
        INFO(path);
        const InputError e = load_error(path);
        CHECK(e.remedy() == Remedy::read_as_ibnetdiscover);
        CHECK(e.file() == path);
        CHECK(e.line() == line);
        CHECK(std::string(e.what()) == fmt::format("{}:{}: this is an ibnetdiscover dump, not a "
                                                   "cluster topology",
                                                   path, line));
    }
}

TEST_CASE("foreign inputs: Slurm topology files", "[formats][foreign]") {
    const InputError tree = load_error(data + "/slurm/topology-tree.conf");
    CHECK(tree.remedy() == Remedy::read_as_slurm);
    CHECK(tree.line() == 8);
    CHECK_THAT(tree.what(), Contains("this is a Slurm topology.conf, not a cluster topology"));
    const InputError block = load_error(data + "/slurm/topology-block.conf");
    CHECK(block.remedy() == Remedy::read_as_slurm);
    CHECK_THAT(block.what(), Contains(":8: this is a Slurm topology.conf"));
    const InputError yaml = load_error(data + "/slurm/topology.yaml");
    CHECK(yaml.remedy() == Remedy::read_as_slurm);
    CHECK(yaml.line() == 5); // "- topology: topo1", after the "---"
    CHECK_THAT(yaml.what(), Contains("this is a Slurm topology.yaml, not a cluster topology"));
    // Keys in any case, as Slurm reads them; blanks around '='.
    const test::TempDir dir("nettopo-foreign-");
    CHECK(text_error(dir, "switchname=s0 nodes=n[1-2]\n").remedy() == Remedy::read_as_slurm);
    CHECK(text_error(dir, "\n  BlockName = b1 Nodes=n1\n").remedy() == Remedy::read_as_slurm);
    CHECK(text_error(dir, "topology: t\n").remedy() == Remedy::read_as_slurm);
}

TEST_CASE("foreign inputs: an hwloc topology diff names its reference", "[formats][foreign]") {
    const std::string diff = shared + "/clusters/avakas/hwloc/node003.diff.xml";
    const InputError e = load_error(diff);
    CHECK(e.remedy() == Remedy::read_as_host_export);
    CHECK(e.line() == 0);
    CHECK(std::string(e.what()) ==
          diff + ": this is an hwloc topology diff against node001.xml, not a whole export");
    CHECK_THROWS_AS(detect_input_kind(diff), InputError);
    const test::TempDir dir("nettopo-foreign-");
    const std::string path = dir / "d.xml";
    std::ofstream(path) << "<?xml version=\"1.0\"?>\n<topologydiff>\n</topologydiff>\n";
    CHECK(std::string(load_error(path).what()) ==
          path + ": this is an hwloc topology diff, not a whole export");
}

TEST_CASE("foreign inputs: a description's own errors are unchanged", "[formats][foreign]") {
    const test::TempDir dir("nettopo-foreign-");
    // A description may say anything after its first statement; a first
    // statement that is neither a description's nor a known file's keeps
    // the description's error.
    const InputError unknown = text_error(dir, "# a comment\nvendid 0x2c9\n");
    CHECK(unknown.remedy() == Remedy::none);
    CHECK_THAT(unknown.what(), Contains(":2: unknown statement 'vendid'"));
    CHECK(text_error(dir, "SwitchNames=s0\n").remedy() == Remedy::none);
    CHECK(text_error(dir, "Switch x \"S-1\"\n").remedy() == Remedy::none);
    CHECK(text_error(dir, "SW 1 2 3\n").remedy() == Remedy::none);
    CHECK(text_error(dir, "- name: x\n").remedy() == Remedy::none);
    const InputError later = text_error(dir, "machine a pu:1\nSwitchName=s0 Nodes=a\n");
    CHECK(later.remedy() == Remedy::none);
    CHECK_THAT(later.what(), Contains(":2: unknown statement 'SwitchName=s0'"));
}
