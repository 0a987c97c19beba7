// The join of a fabric's adapters with the hosts' exports (assemble's
// adapter_join): on real data, LLNL's Lassen export (lassen28, two
// dual-function ConnectX-5 per socket) with the real CS7500 fabric that
// cables lassen28's HCA-1 and HCA-2, and plafrim's exports with their
// fabric. The export is edited in copies at test time (its GUIDs dropped or
// changed) to reach the by-name join and the mismatches; said where done.
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/formats/archive.hpp"
#include "testkit/real_data.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <sstream>

using namespace nettopo;
using namespace nettopo::test;

namespace {

const std::string lassen_export =
    std::string(NETTOPO_SHARED_DATA) + "/hwloc-xml/coral-lassen-power9-4xV100.xml";
const std::string fire_fabric =
    std::string(NETTOPO_SHARED_DATA) + "/fabrics/fire-cs7500-2rail.ibnetdiscover";

Assembly assemble_lassen(const std::string& export_path) {
    ClusterSources s;
    s.hosts = {export_path};
    s.ibnetdiscover = {fire_fabric};
    AssembleOptions o;
    o.default_machine = "pack:2 core:2 pu:1";
    return assemble_from_files(s, o);
}

// "device@guid->peer" for each attachment of `host`.
std::vector<std::string> cables_of(const Cluster& c, const std::string& host) {
    std::vector<std::string> out;
    for (const Attachment& a : c.attachments(c.require_machine(host)))
        out.push_back(fmt::format("{}@{:x}->{}", a.device, a.guid, c.vertex_name(a.peer)));
    return out;
}

const AssemblyIssue* note_about(const Assembly& a, const std::string& what) {
    for (const AssemblyIssue& n : a.notes)
        if (n.noun == "adapter" && n.what.find(what) != std::string::npos) return &n;
    return nullptr;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("adapter join: lassen28 by NodeGUID, its uncabled functions noted",
          "[assemble][adapters]") {
    const Assembly a = assemble_lassen(lassen_export);
    // The dump: lassen28 HCA-1 is GUID 506b4b03003ceee8, HCA-2 ...eee9; the
    // export's mlx5_0 and mlx5_1 have those NodeGUIDs.
    CHECK(cables_of(a.cluster, "lassen28") ==
          std::vector<std::string>{"mlx5_0@506b4b03003ceee8->S-ec0d9a0300246a50",
                                   "mlx5_1@506b4b03003ceee9->S-ec0d9a030025cc00"});
    // A host without an export keeps the fabric's names.
    CHECK(cables_of(a.cluster, "lassen27").size() == 2);
    CHECK(cables_of(a.cluster, "lassen27")[0].starts_with("HCA-1@"));
    const AssemblyIssue* uncabled = note_about(a, "cabled nowhere");
    REQUIRE(uncabled);
    CHECK(uncabled->names == std::vector<std::string>{"lassen28:mlx5_2", "lassen28:mlx5_3"});
    CHECK(!note_about(a, "matching no adapter"));
}

TEST_CASE("adapter join: by name when the export gives no GUID", "[assemble][adapters]") {
    // A copy of the export without its NodeGUID infos: HCA-1 and HCA-2 are
    // mlx5_0 and mlx5_1 by adapter index, the same join.
    const TempDir tmp("nettopo-join-");
    const std::string copy = (tmp.path / "lassen28.xml").string();
    std::ofstream(copy) << std::regex_replace(read_text(lassen_export),
                                              std::regex("<info name=\"NodeGUID\"[^>]*/>"), "");
    const Assembly a = assemble_lassen(copy);
    const auto cables = cables_of(a.cluster, "lassen28");
    REQUIRE(cables.size() == 2);
    CHECK(cables[0] == "mlx5_0@506b4b03003ceee8->S-ec0d9a0300246a50");
    CHECK(cables[1] == "mlx5_1@506b4b03003ceee9->S-ec0d9a030025cc00");
}

TEST_CASE("adapter join: another GUID is another adapter, whatever the name",
          "[assemble][adapters]") {
    // A copy whose mlx5_0 has another NodeGUID (as if its card was swapped
    // after the dump): HCA-1 joins nothing and keeps the fabric's name.
    const TempDir tmp("nettopo-join-");
    const std::string copy = (tmp.path / "lassen28.xml").string();
    std::string text = read_text(lassen_export);
    const auto at = text.find("506b:4b03:003c:eee8");
    REQUIRE(at != std::string::npos);
    text.replace(at, 19, "506b:4b03:003c:0001");
    std::ofstream(copy) << text;
    const Assembly a = assemble_lassen(copy);
    CHECK(cables_of(a.cluster, "lassen28") ==
          std::vector<std::string>{"HCA-1@506b4b03003ceee8->S-ec0d9a0300246a50",
                                   "mlx5_1@506b4b03003ceee9->S-ec0d9a030025cc00"});
    const AssemblyIssue* unmatched = note_about(a, "matching no adapter");
    REQUIRE(unmatched);
    CHECK(unmatched->names == std::vector<std::string>{"lassen28:HCA-1"});
    const AssemblyIssue* uncabled = note_about(a, "cabled nowhere");
    REQUIRE(uncabled);
    CHECK(uncabled->names ==
          std::vector<std::string>{"lassen28:mlx5_0", "lassen28:mlx5_2", "lassen28:mlx5_3"});
}

TEST_CASE("adapter join: plafrim's hosts", "[assemble][adapters][real-clusters]") {
    if (!have_real_cluster("plafrim")) return;
    const Assembly a = assemble_real_cluster("plafrim");
    // dancharia's HCA-2 in the -p dump is the node GUID 00237dffff9452d4 of
    // its trace line, the export's mlx4_1; its mlx4_0 is an Ethernet port.
    CHECK(cables_of(a.cluster, "dancharia") ==
          std::vector<std::string>{"mlx4_1@237dffff9452d4->4036-8C9E"});
    std::size_t with = 0;
    for (std::uint32_t m = 0; m < a.cluster.num_machines(); ++m)
        with += !a.cluster.attachments(MachineId(m)).empty();
    CHECK(with == a.cluster.num_machines());
}

TEST_CASE("rails: an archive keeps what the fabric shows", "[assemble][adapters][rails]") {
    // Every shared fabric dump with rails: the rails of the assembled
    // cluster's attachments, written to an archive and read back, are the
    // rails --check infers from the dump itself (summary and every problem).
    std::size_t with_rails = 0;
    for (const char* name :
         {"dgx-superpod-cs8500.ibnetdiscover", "dgx-superpod-small.ibnetdiscover",
          "fire-cs7500-2rail.ibnetdiscover", "osc-exporter-test.ibnetdiscover",
          "osc-exporter-test2.ibnetdiscover", "rdma-core-man-example.ibnetdiscover"}) {
        INFO(name);
        ClusterSources s;
        s.ibnetdiscover = {std::string(NETTOPO_SHARED_DATA) + "/fabrics/" + name};
        AssembleOptions o;
        o.default_machine = "pu:1";
        o.build.allow_disconnected = true;
        const Assembly a = assemble_from_files(s, o);
        std::ostringstream text;
        write_archive(a.cluster, text);
        std::istringstream in(text.str());
        const Rails back = infer_rails(read_archive(in, "back.xml"));
        CHECK(back.summary() == a.rails.summary());
        REQUIRE(back.problems.size() == a.rails.problems.size());
        for (std::size_t i = 0; i < back.problems.size(); ++i)
            CHECK(back.problems[i].text == a.rails.problems[i].text);
        with_rails += !a.rails.rails.empty();
    }
    CHECK(with_rails == 2); // cs8500 and fire-cs7500
}
