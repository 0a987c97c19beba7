// Adapters and rails: the adapters an ibnetdiscover dump gives each host
// (both output formats, merged subnets), adapter indexes in both naming
// conventions, and the rails inferred from the real DGX SuperPOD and
// CS7500 dumps of ../shared/data/fabrics: what they show as they are, and
// what a real cable moved in a copy of them shows. The synthetic fabrics
// below are written here to reach the rule's corners, never called real.
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/fabric/rails.hpp"
#include "testkit/temp_dir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Contains;

namespace {

std::string shared_fabric(const std::string& name) {
    return std::string(NETTOPO_SHARED_DATA) + "/fabrics/" + name;
}

Fabric parse(const std::string& text, const std::string& source = "t.txt") {
    std::istringstream in(text);
    return read_ibnetdiscover(in, source);
}

// Every occurrence of `from` replaced by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    std::size_t at = 0, n = 0;
    while ((at = text.find(from, at)) != std::string::npos) {
        text.replace(at, from.size(), to);
        at += to.size();
        ++n;
    }
    REQUIRE(n > 0);
    return text;
}

// A -p report (both ends of each cable) of hosts whose adapters are cabled
// as `cables` says: {host, device, leaf}, a (host, device) given twice being
// two ports of one adapter; leaves are joined by one spine.
std::string ports_report(const std::vector<std::array<std::string, 3>>& cables) {
    std::map<std::string, unsigned> leaf_guid, next_port, adapter_guid, adapter_port;
    std::string out;
    for (const auto& c : cables)
        if (!leaf_guid.contains(c[2])) leaf_guid[c[2]] = 0x10 + unsigned(leaf_guid.size());
    const auto line = [&](const std::string& a, unsigned ga, unsigned pa, const std::string& da,
                          const std::string& b, unsigned gb, unsigned pb, const std::string& db) {
        out += fmt::format("{} 1 {} 0x{:016x} 4x EDR - {} 2 {} 0x{:016x} ( '{}' - '{}' )\n", a, pa,
                           ga, b, pb, gb, da, db);
    };
    for (const auto& [leaf, g] : leaf_guid) {
        const unsigned port = ++next_port[leaf];
        line("SW", g, port, "leaf " + leaf, "SW", 0x1, g, "spine");
        line("SW", 0x1, g, "spine", "SW", g, port, "leaf " + leaf);
    }
    for (const auto& c : cables) {
        const std::string desc = c[0] + " " + c[1];
        if (!adapter_guid.contains(desc))
            adapter_guid[desc] = 0x100 + static_cast<unsigned>(adapter_guid.size());
        const unsigned g = adapter_guid[desc], own = ++adapter_port[desc], port = ++next_port[c[2]];
        line("CA", g, own, desc, "SW", leaf_guid[c[2]], port, "leaf " + c[2]);
        line("SW", leaf_guid[c[2]], port, "leaf " + c[2], "CA", g, own, desc);
    }
    return out;
}

std::vector<std::string> problem_texts(const Rails& r) {
    std::vector<std::string> out;
    for (const RailProblem& p : r.problems) out.push_back(p.text);
    return out;
}

} // namespace

TEST_CASE("rails: adapter indexes in both naming conventions", "[fabric][rails]") {
    CHECK(adapter_index("mlx5_0") == 0u);
    CHECK(adapter_index("mlx5_11") == 11u);
    CHECK(adapter_index("HCA-1") == 0u);
    CHECK(adapter_index("HCA-4") == 3u);
    CHECK(adapter_index("hfi1_0") == 0u);
    CHECK(adapter_index("qib0") == 0u);
    CHECK_FALSE(adapter_index("HCA-0"));
    CHECK_FALSE(adapter_index("mlx5_"));
    CHECK_FALSE(adapter_index(""));
}

TEST_CASE("rails: each host's adapters, as the dump gives them", "[fabric][rails]") {
    const std::string path = shared_fabric("dgx-superpod-cs8500.ibnetdiscover");
    const std::string text = test::read_file(path);
    const Fabric f = parse(text, path);
    // The oracle: the dump's own Ca headers and the port line after each.
    const std::regex header(R"re(^Ca\s+\d+\s+"H-([0-9a-f]+)"\s*#\s*"([^"]*)")re");
    const std::regex port(R"re(^\[(\d+)\](?:\([0-9a-f]+\))?\s+"([SH]-[0-9a-f]+)"\[(\d+)\])re");
    std::map<std::uint64_t, std::pair<std::string, std::vector<std::string>>> expected;
    std::istringstream in(text);
    std::uint64_t current = 0;
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, header)) {
            current = std::stoull(m[1], nullptr, 16);
            if (m[2] == "Mellanox Technologies Aggregation Node")
                current = 0;
            else
                expected[current].first = m[2];
        } else if (line.starts_with("Switch")) {
            current = 0;
        } else if (current != 0 && std::regex_search(line, m, port)) {
            expected[current].second.push_back(fmt::format("{}:{}", m[1].str(), m[3].str()));
        }
    }
    REQUIRE(f.adapters.size() == expected.size());
    std::size_t named = 0;
    for (const FabricAdapter& a : f.adapters) {
        INFO(a.description);
        REQUIRE(expected.contains(a.guid));
        const auto& [desc, ports] = expected[a.guid];
        CHECK(a.description == desc);
        std::istringstream words(desc);
        std::string host, device;
        words >> host >> device;
        if (device.starts_with("HCA-") || device.starts_with("mlx5_")) {
            ++named;
            CHECK(a.device == device);
            CHECK(f.nodes[a.host].name == host);
        } else {
            CHECK(a.device.empty());
        }
        std::vector<std::string> got;
        for (const FabricAdapter::Port& p : a.ports)
            got.push_back(fmt::format("{}:{}", p.port, p.peer_port));
        CHECK(got == ports);
    }
    CHECK(named > 900);
    // Hosts in natural order, then adapter index.
    const auto it = std::find_if(f.adapters.begin(), f.adapters.end(),
                                 [&](const FabricAdapter& a) { return a.device == "HCA-6"; });
    REQUIRE(it != f.adapters.end());
    CHECK(std::prev(it)->device == "HCA-3");
}

TEST_CASE("rails: the two output formats give the same adapters", "[fabric][rails]") {
    const std::string dir = std::string(NETTOPO_TEST_DATA) + "/ibnetdiscover/";
    const Fabric t = parse(test::read_file(dir + "small-topology.txt"));
    const Fabric p = parse(test::read_file(dir + "small-ports.txt"));
    REQUIRE(t.adapters.size() == 4);
    REQUIRE(p.adapters.size() == t.adapters.size());
    for (std::size_t i = 0; i < t.adapters.size(); ++i) {
        const FabricAdapter &a = t.adapters[i], &b = p.adapters[i];
        CHECK(a.guid == b.guid);
        CHECK(a.device == b.device);
        CHECK(t.nodes[a.host].name == p.nodes[b.host].name);
        REQUIRE(a.ports.size() == b.ports.size());
        for (std::size_t k = 0; k < a.ports.size(); ++k) {
            CHECK(t.nodes[a.ports[k].peer].name == p.nodes[b.ports[k].peer].name);
            CHECK(a.ports[k].peer_port == b.ports[k].peer_port);
        }
    }
    // Merged with itself: the same adapters once each.
    std::vector<Fabric> two{t, t};
    const Fabric m = merge_fabrics(std::move(two));
    CHECK(m.adapters.size() == t.adapters.size());
}

TEST_CASE("rails: the real DGX SuperPOD dump", "[fabric][rails]") {
    const std::string path = shared_fabric("dgx-superpod-cs8500.ibnetdiscover");
    const std::string text = test::read_file(path);
    const Rails r = infer_rails(parse(text, path));
    std::vector<std::uint32_t> indexes;
    for (const Rail& rail : r.rails) indexes.push_back(rail.index);
    // DGX hosts on HCA-1, 2, 3 and 6; ten I/O hosts on HCA-1, 3, 5 and 7.
    CHECK(indexes == std::vector<std::uint32_t>{0, 1, 2, 4, 5, 6});
    CHECK(r.rail_hosts == 260);
    CHECK(r.other_hosts == 8);
    // As it is: one I/O host has its HCA-3 and HCA-5 cables where its nine
    // neighbours have HCA-5 and HCA-3. Leaves that serve two indexes by
    // design (hosts putting two adapters on one leaf; storage hosts
    // alternating theirs over a pair of leaves) are not problems.
    CHECK(problem_texts(r) ==
          std::vector<std::string>{
              "ion2102 HCA-3 (rail 2) is cabled to leaf S-b8cef6030061783a, which serves rails 4 "
              "and 6",
              "ion2102 HCA-5 (rail 4) is cabled to leaf S-b8cef60300617d7a, which serves rails 0 "
              "and 2"});
    CHECK(r.summary() ==
          "6, 1-18 leaves each; 48 of 56 leaves serve one rail; 260 hosts on rails, 8 others");

    SECTION("two real cables of a DGX host swapped in a copy") {
        // agpu1409's HCA-2 and HCA-3 trade places: renaming the two adapters
        // in the copy moves each one's cable to the other's leaf.
        std::string copy = replace_all(text, "\"agpu1409 HCA-2\"", "\"SWAP\"");
        copy = replace_all(copy, "\"agpu1409 HCA-3\"", "\"agpu1409 HCA-2\"");
        copy = replace_all(copy, "\"SWAP\"", "\"agpu1409 HCA-3\"");
        const Rails s = infer_rails(parse(copy, path));
        const auto texts = problem_texts(s);
        REQUIRE(texts.size() == 4);
        CHECK(texts[0] == "agpu1409 HCA-2 (rail 1) is cabled to leaf S-b8cef6030061833a, which "
                          "serves rail 2");
        CHECK(texts[1] == "agpu1409 HCA-3 (rail 2) is cabled to leaf S-b8cef60300617c9a, which "
                          "serves rail 1");
        CHECK(s.problems[0].kind == RailProblem::Kind::wrong_leaf);
        CHECK(s.problems[0].host == "agpu1409");
        CHECK(s.problems[0].adapter == "HCA-2");
        CHECK(s.problems[0].index == 1);
        CHECK(s.problems[0].serves == std::vector<std::uint32_t>{2});
    }
    SECTION("a DGX host's rail-5 adapter named by its vendor string in a copy") {
        const std::string copy =
            replace_all(text, "\"agpu1409 HCA-6\"", "\"MT4123 ConnectX6   Mellanox Technologies\"");
        const Rails s = infer_rails(parse(copy, path));
        const auto texts = problem_texts(s);
        REQUIRE(texts.size() == 3);
        CHECK(texts[0] == "agpu1409 has no adapter on rail 5, which 17 of the 17 hosts sharing "
                          "its leaves have");
        CHECK(s.problems[0].kind == RailProblem::Kind::missing_rail);
    }
}

TEST_CASE("rails: the real CS7500 dump, two indexes per leaf by design", "[fabric][rails]") {
    const std::string path = shared_fabric("fire-cs7500-2rail.ibnetdiscover");
    const Rails r = infer_rails(parse(test::read_file(path), path));
    CHECK(r.rails.size() == 4);
    CHECK(r.rail_hosts == 719);
    // The 4-adapter hosts put HCA-1 and HCA-3 on one leaf, HCA-2 and HCA-4
    // on another: leaves serving two rails, and no mixed-leaf problem.
    std::size_t two = 0;
    for (const RailLeaf& l : r.leaves) two += l.serves.size() == 2;
    CHECK(two >= 2);
    for (const RailProblem& p : r.problems) {
        INFO(p.text);
        CHECK(p.kind != RailProblem::Kind::mixed_leaf);
    }
    // What it shows as it is: every problem names a host of the small
    // lassen/fire corner, none of the 697 two-rail hosts' regular leaves.
    CHECK(r.problems.size() == 6);
}

TEST_CASE("rails: a leaf whose hosts bring one rail each is mixed", "[fabric][rails]") {
    // Synthetic: h1, h2 keep HCA-1 on L0 and HCA-2 on L1; h3, h4 have HCA-1
    // on L2 and HCA-2 on L0. L0 then serves two rails that no host puts
    // there together, while L1 and L2 serve one.
    const Rails r = infer_rails(parse(ports_report({{"h1", "HCA-1", "L0"},
                                                    {"h1", "HCA-2", "L1"},
                                                    {"h2", "HCA-1", "L0"},
                                                    {"h2", "HCA-2", "L1"},
                                                    {"h3", "HCA-1", "L2"},
                                                    {"h3", "HCA-2", "L0"},
                                                    {"h4", "HCA-1", "L2"},
                                                    {"h4", "HCA-2", "L0"}})));
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0].kind == RailProblem::Kind::mixed_leaf);
    CHECK_THAT(r.problems[0].text, Contains("serves rails 0 and 1"));

    SECTION("hosts putting both adapters on it themselves: a design") {
        const Rails d = infer_rails(parse(ports_report({{"h1", "mlx5_0", "L0"},
                                                        {"h1", "mlx5_1", "L0"},
                                                        {"h1", "mlx5_2", "L1"},
                                                        {"h2", "mlx5_0", "L0"},
                                                        {"h2", "mlx5_1", "L0"},
                                                        {"h2", "mlx5_2", "L1"}})));
        CHECK(d.problems.empty());
        CHECK(d.rails.size() == 3);
    }
    SECTION("an adapter with two ports on one leaf counts once") {
        // h7's dual-port mlx5_0 on L, where six hosts have mlx5_1: one
        // adapter of rail 0 there, not two, so L serves rail 1 alone and h7's
        // adapter is on another rail's leaf, reported once.
        std::vector<std::array<std::string, 3>> cables;
        for (int h = 1; h <= 6; ++h) {
            cables.push_back({fmt::format("h{}", h), "mlx5_0", "L0"});
            cables.push_back({fmt::format("h{}", h), "mlx5_1", "L"});
        }
        cables.push_back({"h7", "mlx5_0", "L"});
        cables.push_back({"h7", "mlx5_0", "L"});
        cables.push_back({"h7", "mlx5_1", "L2"});
        const Fabric f = parse(ports_report(cables));
        const auto h7 = std::find_if(f.adapters.begin(), f.adapters.end(), [&](const auto& a) {
            return f.nodes[a.host].name == "h7" && a.device == "mlx5_0";
        });
        REQUIRE(h7 != f.adapters.end());
        CHECK(h7->ports.size() == 2);
        const Rails d = infer_rails(f);
        REQUIRE(d.problems.size() == 1);
        // 'leaf L' (two words) names no switch: the leaf keeps its GUID name.
        CHECK(d.problems[0].text ==
              "h7 mlx5_0 (rail 0) is cabled to leaf S-0000000000000011, which serves rail 1");
    }
    SECTION("single-adapter hosts and hosts on one switch are not judged") {
        const Rails d = infer_rails(parse(ports_report({{"h1", "mlx5_0", "L0"},
                                                        {"h1", "mlx5_1", "L1"},
                                                        {"h2", "mlx5_0", "L0"},
                                                        {"h2", "mlx5_1", "L1"},
                                                        {"ufm", "mlx5_3", "L0"},
                                                        {"st1", "mlx5_0", "L1"},
                                                        {"st1", "mlx5_1", "L1"}})));
        CHECK(d.problems.empty());
        CHECK(d.rail_hosts == 2);
        CHECK(d.other_hosts == 2);
    }
}
