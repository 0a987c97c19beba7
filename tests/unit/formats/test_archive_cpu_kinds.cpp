// CPU kinds in the archive (version 4, <cpu-kinds>): written only for the
// types that have them, read back exactly, and every malformed kind refused
// with the file and the line of its element.
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/real_data.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <string>

using namespace nettopo;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using test::archive_text;
using test::from_archive_text;

namespace {

// A hand-written version 4 archive of one machine of 4 PUs with two kinds;
// `kinds` replaces its <cpu-kinds> element (line 6 on).
std::string archive_with(const std::string& kinds, int version = 4) {
    return fmt::format(R"(<?xml version="1.0" encoding="UTF-8"?>
<nettopo version="{}" name="hybrid">
  <types count="1">
    <type id="0" description="hybrid" node-request="auto" node-level="Core">
      <latencies />
{}
      <object type="Machine">
        <object type="Core" os="0">
          <object type="PU" os="0" />
          <object type="PU" os="2" />
        </object>
        <object type="Core" os="1">
          <object type="PU" os="1" />
          <object type="PU" os="3" />
        </object>
      </object>
    </type>
  </types>
  <machines count="1"><machine name="m" type="0" /></machines>
  <switches count="0" />
  <links count="0">
</links>
</nettopo>
)",
                       version, kinds);
}

const std::string two_kinds = R"(      <cpu-kinds count="2">
        <kind efficiency="0" pus="0,2">
          <info name="CoreType" value="Small" />
        </kind>
        <kind efficiency="1" pus="1,3" />
      </cpu-kinds>)";

// The error reading `text`, which must be at `line` of bad.xml and say `says`.
void check_refused(const std::string& text, std::size_t line, const std::string& says) {
    try {
        from_archive_text(text, "bad.xml");
    } catch (const InputError& e) {
        CHECK(e.file() == "bad.xml");
        CHECK(e.line() == line);
        CHECK_THAT(e.what(), StartsWith(fmt::format("bad.xml:{}: ", line)));
        CHECK_THAT(e.what(), Contains(says));
        return;
    }
    FAIL("accepted:\n" << text);
}

} // namespace

TEST_CASE("archive cpu kinds: read, written back the same, version 4", "[archive][cpu_kinds]") {
    const Cluster c = from_archive_text(archive_with(two_kinds));
    const MachineTree& tree = c.type(TypeId(0)).tree();
    REQUIRE(tree.cpu_kinds().size() == 2);
    CHECK(tree.cpu_kinds()[0].infos == std::vector<CpuKindInfo>{{"CoreType", "Small"}});
    CHECK(tree.pus_of_cpu_kind(1) == std::vector<std::uint32_t>{1, 3});
    CHECK(c.cpu_kind_of(PeId(2)) == &tree.cpu_kinds()[0]);
    const std::string text = archive_text(c);
    CHECK_THAT(text, Contains("<nettopo version=\"4\""));
    CHECK_THAT(text, Contains("<kind efficiency=\"1\" pus=\"1,3\" />"));
    const Cluster back = from_archive_text(text);
    CHECK(back.type(TypeId(0)).tree() == tree);
    CHECK(archive_text(back) == text);

    // Without kinds (nor NUMA distances nor end hosts), version 2 as before.
    const Cluster plain = from_archive_text(archive_with(""));
    CHECK_THAT(archive_text(plain), Contains("<nettopo version=\"2\""));

    // Unknown efficiencies are left out, and read back unknown.
    const Cluster unranked = from_archive_text(archive_with(R"(      <cpu-kinds count="2">
        <kind pus="0-1" />
        <kind pus="2-3" />
      </cpu-kinds>)"));
    REQUIRE(unranked.type(TypeId(0)).tree().cpu_kinds().size() == 2);
    CHECK(unranked.type(TypeId(0)).tree().cpu_kinds()[0].efficiency == -1);
    CHECK_THAT(archive_text(unranked), Contains("<kind pus=\"0-1\" />"));

    // A single kind (which no nettopo writes) is read, then not kept
    // (min_cpu_kinds): the archive written back is the one without kinds.
    const Cluster single = from_archive_text(archive_with(R"(      <cpu-kinds count="1">
        <kind efficiency="0" pus="0-3">
          <info name="FrequencyMaxMHz" value="3000" />
        </kind>
      </cpu-kinds>)"));
    CHECK(single.type(TypeId(0)).tree().cpu_kinds().empty());
    CHECK(archive_text(single) == archive_text(plain));
}

TEST_CASE("archive cpu kinds: the hybrid exports round-trip", "[archive][cpu_kinds]") {
    for (const std::string& path : test::hybrid_xmls()) {
        INFO(path);
        const Cluster c = load_cluster(path);
        REQUIRE(c.type(TypeId(0)).tree().cpu_kinds().size() == 3);
        const Cluster back = from_archive_text(archive_text(c));
        CHECK(back.type(TypeId(0)).tree() == c.type(TypeId(0)).tree());
        for (std::uint32_t p = 0; p < c.num_pes(); ++p)
            CHECK(*back.cpu_kind_of(PeId(p)) == *c.cpu_kind_of(PeId(p)));
    }
}

TEST_CASE("archive cpu kinds: malformed kinds are refused at their line", "[archive][cpu_kinds]") {
    // Line 6 is <cpu-kinds>, 7 the first <kind>.
    const auto kinds = [](const std::string& body) {
        return fmt::format("      <cpu-kinds count=\"1\">\n{}\n      </cpu-kinds>", body);
    };
    check_refused(archive_with(kinds(R"(<kind efficiency="0" pus="0-4" />)")), 7,
                  "pus=\"0-4\" of CPU kind #0 is not a list of the type's 4 PUs");
    check_refused(archive_with(kinds(R"(<kind efficiency="0" pus="" />)")), 7,
                  "CPU kind #0 has no PU");
    check_refused(archive_with(kinds(R"(<kind efficiency="0" pus="0,x" />)")), 7,
                  "is not a list of indexes");
    check_refused(archive_with(kinds(R"(<kind efficiency="0" />)")), 7,
                  "lacks the attribute 'pus'");
    for (const char* e : {"-1", "x", "1.5", "2147483648", ""}) {
        INFO(e);
        check_refused(archive_with(kinds(fmt::format(R"(<kind efficiency="{}" pus="0" />)", e))), 7,
                      "is not a rank");
    }
    check_refused(archive_with(R"(      <cpu-kinds count="2">
        <kind efficiency="1" pus="0-1" />
        <kind efficiency="1" pus="2-3" />
      </cpu-kinds>)"),
                  6, "CPU kinds share the efficiency 1");
    check_refused(archive_with(kinds(R"(<kind pus="0"><info value="x" /></kind>)")), 7,
                  "lacks the attribute 'name'");
    check_refused(archive_with(kinds(R"(<kind pus="0"><info name="" value="x" /></kind>)")), 7,
                  "without a name");
    check_refused(archive_with(kinds(R"(<kind pus="0"><bogus /></kind>)")), 7,
                  "unexpected <bogus> inside <kind>");
    check_refused(archive_with(kinds(R"(<bogus />)")), 7, "unexpected <bogus> inside <cpu-kinds>");
    // Two kinds naming one PU; one ranked, one not.
    check_refused(archive_with(R"(      <cpu-kinds count="2">
        <kind efficiency="0" pus="0-1" />
        <kind efficiency="1" pus="1-3" />
      </cpu-kinds>)"),
                  8, "PU 1 is in CPU kinds #0 and #1");
    check_refused(archive_with(R"(      <cpu-kinds count="2">
        <kind efficiency="0" pus="0-1" />
        <kind pus="2-3" />
      </cpu-kinds>)"),
                  6, "1 of 2 CPU kinds have an unknown efficiency");
    check_refused(archive_with(two_kinds.substr(0, two_kinds.find("<kind")) + "</cpu-kinds>"), 6,
                  "declares count=\"2\" but holds 0");
    // Only a version 4 archive holds kinds; a later element is refused.
    check_refused(archive_with(two_kinds, 3), 6, "<cpu-kinds> needs archive format version 4");
    check_refused(archive_with("      <gpus />"), 6, "unexpected <gpus> inside <type>");
}
