// What is wrong with a fabric itself (issue 27 part 3): adapters whose
// descriptions name no host became hosts of their own and are reported,
// grouped by description; a fabric without a link is a problem; a check
// counts both, strict assembly is not stopped by them.
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/assemble/detail/check_report.hpp"
#include "nettopo/fabric/fabric.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace nettopo;
using Catch::Contains;

namespace {

Fabric parse(const std::string& text) {
    std::istringstream in(text);
    return read_ibnetdiscover(in, "f.txt");
}

Assembly assemble_defaulted(const Fabric& f, bool strict = false) {
    AssembleOptions o;
    o.default_machine = "pu:1";
    o.strict = strict;
    o.build.allow_disconnected = true;
    return assemble_cluster({}, &f, o);
}

} // namespace

TEST_CASE("fabric problems: adapters naming no host", "[assemble][fabric]") {
    // The real rdma-core example: four adapters described only
    // 'MT23108 InfiniHost Mellanox Technologies', one host named by its own.
    const std::string path =
        std::string(NETTOPO_SHARED_DATA) + "/fabrics/rdma-core-man-example.ibnetdiscover";
    std::ifstream in(path);
    REQUIRE(in);
    const Fabric f = read_ibnetdiscover(in, path);
    const Assembly a = assemble_defaulted(f);
    REQUIRE(a.fabric_problems.size() == 1);
    const AssemblyIssue& p = a.fabric_problems[0];
    CHECK(p.noun == "adapter");
    CHECK(p.names.size() == 4);
    CHECK_THAT(p.what, Contains("'MT23108 InfiniHost Mellanox Technologies'"));
    CHECK(p.remedy == Remedy::node_name_map);
    for (const std::string& n : p.names) CHECK(n.starts_with("H-"));
    const CheckReport r = check_assembly(a, true);
    CHECK(r.num_problems() == 1);
    // Strict assembly is about sources that disagree: not stopped.
    CHECK_NOTHROW(assemble_defaulted(f, true));
}

TEST_CASE("fabric problems: a fabric without a link", "[assemble][fabric]") {
    // Synthetic: one adapter whose only port is reported without a peer.
    const Fabric f = parse("CA 5 1 0x0002c9030002e6d1 4x QDR                'node01 HCA-1'\n");
    REQUIRE(f.nodes.size() == 1);
    REQUIRE(f.links.empty());
    const Assembly a = assemble_defaulted(f);
    REQUIRE(a.fabric_problems.size() == 1);
    CHECK(a.fabric_problems[0].summary() ==
          "1 fabric without a single link: nothing is cabled: f.txt");
    CHECK_FALSE(check_assembly(a, true).ok());
}
