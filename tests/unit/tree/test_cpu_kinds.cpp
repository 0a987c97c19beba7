// CPU kinds in the machine tree (issue 26): the builder's checks, the kind
// of each PU, equality, and the signature section that carries them
// between processes and in images ("|k:", percent-encoded text).
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/tree/machine_tree.hpp"
#include "testkit/real_data.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

// Package, 2 cores of 2 PUs: PUs 0-3 in logical order.
MachineTree::Builder four_pus() {
    MachineTree::Builder b;
    const ObjectId m = b.add(ObjectType::Machine, ObjectId());
    const ObjectId p = b.add(ObjectType::Package, m, 0);
    for (std::uint32_t c = 0; c < 2; ++c) {
        const ObjectId core = b.add(ObjectType::Core, p, c);
        b.add(ObjectType::PU, core, c);
        b.add(ObjectType::PU, core, c + 2);
    }
    return b;
}

CpuKind kind(std::int32_t efficiency, std::vector<CpuKindInfo> infos = {}) {
    return CpuKind{efficiency, std::move(infos)};
}

// The tree of four_pus() with a small kind on PUs 0 and 2 and a big one on 1 and 3.
MachineTree hybrid() {
    MachineTree::Builder b = four_pus();
    b.add_cpu_kind(kind(0, {{"CoreType", "Small"}}), std::vector<std::uint32_t>{0, 2});
    b.add_cpu_kind(kind(1, {{"CoreType", "Big"}, {"FrequencyMaxMHz", "4000"}}),
                   std::vector<std::uint32_t>{1, 3});
    return std::move(b).finish();
}

std::string refusal(MachineTree::Builder b) {
    try {
        std::move(b).finish();
    } catch (const InputError& e) {
        return e.what();
    }
    FAIL("the tree was accepted");
    return {};
}

} // namespace

TEST_CASE("cpu kinds: each PU's kind, and the PUs of each kind", "[tree][cpu_kinds]") {
    const MachineTree t = hybrid();
    REQUIRE(t.cpu_kinds().size() == 2);
    CHECK(t.cpu_kinds()[1].infos[1].value == "4000");
    CHECK(t.cpu_kind_of_pu(0) == 0u);
    CHECK(t.cpu_kind_of_pu(1) == 1u);
    CHECK(t.pus_of_cpu_kind(1) == std::vector<std::uint32_t>{1, 3});
    // A tree without kinds: none anywhere.
    const MachineTree plain = std::move(four_pus()).finish();
    CHECK(plain.cpu_kinds().empty());
    CHECK_FALSE(plain.cpu_kind_of_pu(3));
    CHECK(plain.pus_of_cpu_kind(0).empty());
    // Some PUs may have no kind (hwloc describes what it found).
    MachineTree::Builder b = four_pus();
    b.add_cpu_kind(kind(0), std::vector<std::uint32_t>{3});
    b.add_cpu_kind(kind(1), std::vector<std::uint32_t>{1});
    const MachineTree partial = std::move(b).finish();
    CHECK_FALSE(partial.cpu_kind_of_pu(0));
    CHECK(partial.cpu_kind_of_pu(3) == 0u);
}

TEST_CASE("cpu kinds: a single kind is not kept", "[tree][cpu_kinds]") {
    // hwloc gives many homogeneous machines one kind (from their frequency
    // infos): it tells no PU from another, and the tree keeps none, so its
    // signature, equality and everything printed are those without kinds.
    const MachineTree plain = std::move(four_pus()).finish();
    for (const std::vector<std::uint32_t>& pus :
         {std::vector<std::uint32_t>{0, 1, 2, 3}, std::vector<std::uint32_t>{2}}) {
        MachineTree::Builder b = four_pus();
        b.add_cpu_kind(kind(0, {{"FrequencyMaxMHz", "3000"}}), pus);
        const MachineTree one = std::move(b).finish();
        CHECK(one.cpu_kinds().empty());
        CHECK_FALSE(one.cpu_kind_of_pu(2));
        CHECK(one.pus_of_cpu_kind(0).empty());
        CHECK(one == plain);
        CHECK(one.signature() == plain.signature());
    }
    // A signature holding one kind (none writes one) reads as the tree without.
    CHECK(tree_from_signature(plain.signature() + "|k:0/0-3/FrequencyMaxMHz:3000;") == plain);
    // What the builder refuses, it refuses in a single kind too.
    MachineTree::Builder bad = four_pus();
    CHECK_THROWS_WITH(bad.add_cpu_kind(kind(-2), std::vector<std::uint32_t>{0}),
                      Contains("efficiency -2"));
}

TEST_CASE("cpu kinds: the builder refuses what hwloc cannot have given", "[tree][cpu_kinds]") {
    const std::vector<std::uint32_t> pu0{0}, pu1{1}, none{}, pu4{4};
    MachineTree::Builder b = four_pus();
    CHECK_THROWS_WITH(b.add_cpu_kind(kind(0), pu4),
                      Contains("CPU kind #0 names PU 4, but the machine has 4 PUs"));
    CHECK_THROWS_WITH(b.add_cpu_kind(kind(0), none), Contains("CPU kind #0 has no PU"));
    CHECK_THROWS_WITH(b.add_cpu_kind(kind(-2), pu0), Contains("efficiency -2"));
    CHECK_THROWS_WITH(b.add_cpu_kind(kind(0, {{"", "x"}}), pu0), Contains("without a name"));
    CHECK_THROWS_WITH(b.add_cpu_kind(kind(0, {{"CoreType", "a\x1b[31m"}}), pu0),
                      Contains("control character"));
    CHECK_THROWS_WITH(b.add_cpu_kind(kind(0, {{"CoreType", "\xff"}}), pu0),
                      Contains("not valid UTF-8"));
    b.add_cpu_kind(kind(0), pu0);
    CHECK_THROWS_WITH(b.add_cpu_kind(kind(1), std::vector<std::uint32_t>{1, 0}),
                      Contains("PU 0 is in CPU kinds #0 and #1"));

    // Efficiencies, checked together: hwloc's ranks 0..n-1, or all unknown.
    const auto with = [&](std::int32_t a, std::int32_t e) {
        MachineTree::Builder t = four_pus();
        t.add_cpu_kind(kind(a), pu0);
        t.add_cpu_kind(kind(e), pu1);
        return t;
    };
    // A tree of part of a machine keeps hwloc's ranks of the kinds it has.
    CHECK_NOTHROW(std::move(with(0, 2)).finish());
    CHECK_THAT(refusal(with(1, 1)), Contains("share the efficiency 1"));
    CHECK_THAT(refusal(with(-1, 0)), Contains("1 of 2 CPU kinds have an unknown efficiency"));
    CHECK_NOTHROW(std::move(with(-1, -1)).finish());
    CHECK_NOTHROW(std::move(with(1, 0)).finish()); // any order, as a hand-written archive may
}

TEST_CASE("cpu kinds: equality and the signature see them", "[tree][cpu_kinds][signature]") {
    const MachineTree plain = std::move(four_pus()).finish();
    const MachineTree t = hybrid();
    CHECK_FALSE(t == plain);
    // Trees without kinds keep the signature they had before kinds.
    CHECK(plain.signature().find("|k:") == std::string::npos);
    CHECK(t.signature() ==
          plain.signature() + "|k:0/0,2/CoreType:Small;1/1,3/CoreType:Big,FrequencyMaxMHz:4000;");
    CHECK(tree_from_signature(t.signature()) == t);

    // The same kinds over other PUs: another tree.
    MachineTree::Builder b = four_pus();
    b.add_cpu_kind(kind(0, {{"CoreType", "Small"}}), std::vector<std::uint32_t>{0, 1});
    b.add_cpu_kind(kind(1, {{"CoreType", "Big"}, {"FrequencyMaxMHz", "4000"}}),
                   std::vector<std::uint32_t>{2, 3});
    CHECK_FALSE(std::move(b).finish() == t);
}

TEST_CASE("cpu kinds: any text reads back from the signature", "[tree][cpu_kinds][signature]") {
    // Every separator of the signature, '%', blanks and UTF-8, in names and
    // values; an empty value; unknown efficiencies.
    const std::string odd = "a|b,c;d%e:f/g h\xc3\xa9";
    MachineTree::Builder b = four_pus();
    b.add_cpu_kind(kind(-1, {{odd, odd}, {"Empty", ""}}), std::vector<std::uint32_t>{0, 1, 2});
    b.add_cpu_kind(kind(-1), std::vector<std::uint32_t>{3});
    const MachineTree t = std::move(b).finish();
    const std::string text = t.signature();
    const std::string section = text.substr(text.find("|k:") + 1);
    CHECK(section.find('|') == std::string::npos);
    CHECK(section.find(' ') == std::string::npos);
    CHECK_THAT(section, Contains("a%7Cb%2Cc%3Bd%25e%3Af%2Fg%20h%C3%A9"));
    const MachineTree back = tree_from_signature(text);
    CHECK(back == t);
    CHECK(back.cpu_kinds()[0].infos[0].name == odd);
    CHECK(back.signature() == text);
}

TEST_CASE("cpu kinds: a bad section is refused", "[tree][cpu_kinds][signature]") {
    const std::string base = std::move(four_pus()).finish().signature();
    for (const char* section :
         {"|k:", "|k:0/0", "|k:0/0/", "|k:x/0/;", "|k:0/0/a;", "|k:0/0/a:b:c;", "|k:0/0/a:b,;",
          "|k:0/0/a%4:b;", "|k:0/0/a%zz:b;", "|k:0/0/a:b/c;", "|k:0/9/;", "|k:0//;", "|k:0/1-0/;",
          "|k:0/0/;0/1/;", "|k:-2/0/;", "|k:0/0/%1B:x;"}) {
        INFO(section);
        CHECK_THROWS_AS(tree_from_signature(base + section), InputError);
    }
}

TEST_CASE("cpu kinds: parse_cpu_list reads what format_cpu_list writes", "[support][cpu_kinds]") {
    CHECK(parse_cpu_list("", 4).empty());
    CHECK(parse_cpu_list("3,0-1,1", 4) == std::vector<std::uint32_t>{0, 1, 3});
    CHECK(parse_cpu_list("2-3,0-3", 4) == std::vector<std::uint32_t>{0, 1, 2, 3});
    for (const std::vector<std::uint32_t>& set :
         {std::vector<std::uint32_t>{0, 1, 2, 3, 8}, std::vector<std::uint32_t>{5},
          std::vector<std::uint32_t>{0, 2, 4, 6, 7}})
        CHECK(parse_cpu_list(format_cpu_list(set), 9) == set);
    CHECK_THROWS_WITH(parse_cpu_list("0-4", 4), Contains("names an index past the last, 3"));
    CHECK_THROWS_WITH(parse_cpu_list("0", 0), Contains("there is none"));
    CHECK_THROWS_WITH(parse_cpu_list("3-1", 4), Contains("runs backwards"));
    for (const char* bad :
         {",", "1,", ",1", "1,,2", "-1", "+1", " 1", "1 ", "a", "1-", "1-2-3", "99999999999"})
        CHECK_THROWS_AS(parse_cpu_list(bad, 4), InputError);
    // A list repeating one wide range costs its length, not its ranges' sum.
    std::string many;
    for (int i = 0; i < 10000; ++i) many += "0-99999,";
    many += "7";
    CHECK(parse_cpu_list(many, 100000).size() == 100000);
}

TEST_CASE("cpu kinds: hwloc's kinds of fakecpukinds.xml, per PU", "[tree][cpu_kinds][hwloc]") {
    const std::filesystem::path file =
        std::filesystem::path(NETTOPO_SHARED_DATA) / "hwloc-xml" / "fakecpukinds.xml";
    if (!std::filesystem::exists(file)) {
        WARN("no " << file << ": skipped");
        return;
    }
    // lstopo -i fakecpukinds.xml --cpukinds: kinds of cpusets 0x3, 0x4 and
    // 0x8, ranked 0, 1, 2 (from forced efficiencies 0, 7, 10); the PUs in
    // logical order have the OS indexes 0, 2, 1, 3.
    const MachineTree t = load_hwloc_xml(file).tree;
    REQUIRE(t.cpu_kinds().size() == 3);
    CHECK(t.cpu_kinds()[0] == kind(0, {{"CoreType", "MySmallCore"}, {"FrequencyMaxMHz", "1000"}}));
    CHECK(t.cpu_kinds()[1] == kind(1, {{"CoreType", "YouBigcore"}, {"FrequencyMaxMHz", "2000"}}));
    CHECK(t.cpu_kinds()[2] == kind(2, {{"CoreType", "IntelCore"},
                                       {"FrequencyMaxMHz", "2000"},
                                       {"Features", "EverythingAndEvenMore"}}));
    CHECK(t.pus_of_cpu_kind(0) == std::vector<std::uint32_t>{0, 2});
    CHECK(t.pus_of_cpu_kind(1) == std::vector<std::uint32_t>{1});
    CHECK(t.pus_of_cpu_kind(2) == std::vector<std::uint32_t>{3});
    // A synthetic machine has none.
    CHECK(tree_from_synthetic("pack:1 core:2 pu:2").cpu_kinds().empty());

    // Its allowed part when only P#0 and P#3 are allowed: kind #1 (P#2) has
    // no PU left and is left out; the others keep hwloc's ranks, 0 and 2.
    std::ifstream in(file);
    std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const std::string whole = "allowed_cpuset=\"0x0000000f\"";
    REQUIRE(text.find(whole) != std::string::npos);
    text.replace(text.find(whole), whole.size(), "allowed_cpuset=\"0x00000009\"");
    const test::TempDir dir("nettopo-kinds-");
    std::ofstream(dir / "allowed.xml") << text;
    const MachineTree part =
        load_hwloc_xml(dir / "allowed.xml", nullptr, PuScope::allowed_only).tree;
    REQUIRE(part.num_pus() == 2);
    REQUIRE(part.cpu_kinds().size() == 2);
    CHECK(part.cpu_kinds()[0].efficiency == 0);
    CHECK(part.cpu_kinds()[1].efficiency == 2);
    CHECK(part.cpu_kinds()[1].infos[0].value == "IntelCore");
    CHECK(tree_from_signature(part.signature()) == part);

    // Only P#0 and P#1 allowed: both in kind #0, the one kind left, which the
    // tree does not keep (min_cpu_kinds).
    text.replace(text.find("allowed_cpuset=\"0x00000009\""), whole.size(),
                 "allowed_cpuset=\"0x00000003\"");
    std::ofstream(dir / "one-kind.xml") << text;
    const MachineTree one =
        load_hwloc_xml(dir / "one-kind.xml", nullptr, PuScope::allowed_only).tree;
    REQUIRE(one.num_pus() == 2);
    CHECK(one.cpu_kinds().empty());
}

TEST_CASE("cpu kinds: every real export has none or two and more", "[tree][cpu_kinds][real]") {
    // Several exports get a single kind from hwloc (lstopo --cpukinds; the
    // oracle tools.cpukinds_oracle compares them all): none is kept.
    for (const std::string& path : test::real_xmls()) {
        INFO(path);
        CHECK(load_hwloc_xml(path).tree.cpu_kinds().size() != 1);
    }
}
