// Hosts gathered in memory (GatheredHosts: one tree per kind of machine, as
// nettopo-discover --mpi brings them) assemble into the very archive their
// exports give through assemble_from_files, on the real clusters.
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/hwloc/host_exports.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/real_data.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <unordered_map>

using namespace nettopo;

namespace {

std::string archive_text(const Cluster& c) {
    std::ostringstream out;
    write_archive(c, out);
    return out.str();
}

// The exports as a gather would bring them: each distinct tree once.
GatheredHosts gathered_from(const std::vector<HostExport>& exports) {
    GatheredHosts g;
    std::unordered_map<std::string, std::uint32_t> tree_of_signature;
    for (const HostExport& e : exports) {
        const auto [it, fresh] = tree_of_signature.try_emplace(
            e.tree.signature(), static_cast<std::uint32_t>(g.trees.size()));
        if (fresh) g.trees.push_back(e.tree);
        g.hosts.push_back({e.name, it->second, e.source, e.identities});
    }
    return g;
}

} // namespace

TEST_CASE("gathered hosts assemble as their exports do", "[assemble][gathered]") {
    for (const std::string name : {"avakas", "plafrim"}) {
        if (!test::have_real_cluster(name)) continue;
        INFO(name);
        ClusterSources files;
        files.hosts = {test::real_cluster_dir(name) + "/hwloc"};
        files.ibnetdiscover = {test::real_cluster_dir(name) + "/ib-subnet-0.txt"};
        const Assembly from_files = assemble_from_files(files, {});
        const GatheredHosts g = gathered_from(load_host_exports(files.hosts));
        // Fewer types than trees when exports of hosts outside the fabric are left out.
        CHECK(g.trees.size() < g.hosts.size());
        CHECK(g.trees.size() >= from_files.cluster.num_types());
        ClusterSources gathered = files;
        gathered.hosts.clear();
        gathered.gathered = &g;
        const Assembly from_memory = assemble_from_files(gathered, {});
        CHECK(from_files.cluster.has_identities()); // and gathered hosts carry them too
        CHECK(archive_text(from_memory.cluster) == archive_text(from_files.cluster));
        REQUIRE(from_memory.issues.size() == from_files.issues.size());
        for (std::size_t i = 0; i < from_files.issues.size(); ++i)
            CHECK(from_memory.issues[i].summary() == from_files.issues[i].summary());
        REQUIRE(from_memory.notes.size() == from_files.notes.size());
        for (std::size_t i = 0; i < from_files.notes.size(); ++i)
            CHECK(from_memory.notes[i].summary() == from_files.notes[i].summary());
        // Flat, as --hosts-only.
        AssembleOptions flat;
        flat.hosts_only = true;
        flat.name = name;
        CHECK(
            archive_text(assemble_gathered(g, nullptr, flat).cluster) ==
            archive_text(assemble_cluster(load_host_exports(files.hosts), nullptr, flat).cluster));
    }
}

TEST_CASE("gathered hosts: what the caller got wrong", "[assemble][gathered]") {
    GatheredHosts g;
    g.hosts.push_back({"node0", 0, "node0"});
    AssembleOptions flat;
    flat.hosts_only = true;
    CHECK_THROWS_AS(assemble_gathered(g, nullptr, flat), UsageError); // no tree 0
    ClusterSources both;
    both.hosts = {"node0.xml"};
    both.gathered = &g;
    CHECK_THROWS_AS(assemble_from_files(both, flat), UsageError);
}
