// End hosts in nettopo's formats: the description's forwards=no, the
// archive's forwards="no" (version 3, written only where a machine does not
// forward, so that other archives stay version 2 byte for byte), round trips
// through both, and what an older or malformed archive gets.
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/description.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/description_text.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {

// n1-n4 and h1 are end hosts, n5, n6 and r forward; r routes between the
// leaves besides the spine; h1 has two rails; x1-x2 are cabled back to back.
const char* const hosts_text =
    "name hosts\n"
    "machines n[1-4] pu:1 forwards=no\n"
    "machines n[5-6] pu:1\n"
    "machine r pack:1 core:2 pu:1 forwards=yes\n"
    "machine h1 pu:1 forwards=no\n"
    "machines x[1-2] pu:1 forwards=no\n"
    "switch spine\nswitch leaf0\nswitch leaf1\n"
    "link leaf0 spine 10\nlink leaf1 spine 10\n"
    "link n1 leaf0 1\nlink n2 leaf0\t1\nlink n3 leaf1 1\nlink n4 leaf1 1\n"
    "link n5 leaf0 1\nlink n6 leaf1 1\nlink r leaf0 2\nlink r leaf1 2\n"
    "link h1 leaf0 1\nlink h1 leaf1 1\nlink x1 leaf0 1\nlink x1 x2 1\n";

Cluster parse(const std::string& text, const std::string& source = "hosts.topo") {
    return test::from_description_text(text, source);
}

std::string written(const Cluster& c) {
    return test::description_text(c);
}

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
    const auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

std::string archive_error(const std::string& text) {
    try {
        test::from_archive_text(text, "bad.xml");
    } catch (const InputError& e) {
        return e.what();
    }
    FAIL("accepted:\n" << text);
    return {};
}

std::string flags(const Cluster& c) {
    std::string s;
    for (std::uint32_t m = 0; m < c.num_machines(); ++m)
        s += c.network().forwards(VertexId(m)) ? 'F' : '-';
    return s;
}

} // namespace

TEST_CASE("description: forwards=no marks end hosts, types are shared", "[forwarding]") {
    const Cluster c = parse(hosts_text);
    CHECK(flags(c) == "----FFF---");
    CHECK(c.network().num_end_hosts() == 7);
    CHECK(c.num_types() == 2); // forwards= is the machine's, not its type's
    // n1 to n3 through the spine; x2 reaches x1 only: x1 does not forward.
    const auto index = build_distance_index(c);
    CHECK(index->hops(MachineId(0), MachineId(2)) == 4);
    CHECK(index->hops(MachineId(8), MachineId(9)) == 1);
    CHECK(index->hops(MachineId(9), MachineId(0)) == DistanceIndex::unreachable_hops);
    // The same file without the marks: every machine forwards, x2 reaches all.
    std::string plain = hosts_text;
    for (std::size_t at; (at = plain.find(" forwards=no")) != std::string::npos;)
        plain.erase(at, 12);
    const Cluster p = parse(plain);
    CHECK(p.network().all_forward());
    CHECK(build_distance_index(p)->hops(MachineId(9), MachineId(0)) == 3); // x2 x1 leaf0 n1
}

TEST_CASE("description: a bad forwards= value names file and line", "[forwarding]") {
    try {
        parse("machine a pu:1\nmachine b pu:1 forwards=maybe\nlink a b 1\n", "t.topo");
        FAIL("accepted");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Contains("t.topo:2: "));
        CHECK_THAT(e.what(), Contains("forwards=no"));
    }
}

TEST_CASE("description writer: end hosts are written back as forwards=no", "[forwarding]") {
    const Cluster c = parse(hosts_text);
    const std::string text = written(c);
    CHECK_THAT(text, Contains("machines n[1-4] pu:1 forwards=no\n"));
    CHECK_THAT(text, Contains("machines n[5-6] pu:1\n"));
    CHECK_THAT(text, Contains("machine h1 pu:1 forwards=no\n"));
    const Cluster back = parse(text);
    CHECK(flags(back) == flags(c));
    CHECK(written(back) == text);
    CHECK(test::archive_text(back) == test::archive_text(c));
}

TEST_CASE("archive: end hosts need version 3; other archives stay version 2", "[forwarding]") {
    const Cluster c = parse(hosts_text);
    const std::string text = test::archive_text(c);
    CHECK_THAT(text, Contains("<nettopo version=\"3\" name=\"hosts\">"));
    // Runs break where forwarding changes; the attribute only where it is "no".
    CHECK_THAT(text, Contains("<machines prefix=\"n\" first=\"1\" count=\"4\" width=\"0\" "
                              "type=\"0\" forwards=\"no\" />"));
    CHECK_THAT(text, Contains("<machines prefix=\"n\" first=\"5\" count=\"2\" width=\"0\" "
                              "type=\"0\" />"));
    CHECK_THAT(text, Contains("<machine name=\"h1\" type=\"0\" forwards=\"no\" />"));
    const Cluster back = test::from_archive_text(text);
    CHECK(flags(back) == flags(c));
    CHECK(test::archive_text(back) == text);
    const auto a = build_distance_index(c), b = build_distance_index(back);
    for (std::uint32_t x = 0; x < c.num_machines(); ++x)
        for (std::uint32_t y = 0; y < c.num_machines(); ++y) {
            CHECK(a->hops(MachineId(x), MachineId(y)) == b->hops(MachineId(x), MachineId(y)));
            CHECK(a->latency_ps(MachineId(x), MachineId(y)) ==
                  b->latency_ps(MachineId(x), MachineId(y)));
        }

    std::string plain = hosts_text;
    for (std::size_t at; (at = plain.find(" forwards=no")) != std::string::npos;)
        plain.erase(at, 12);
    const std::string v2 = test::archive_text(parse(plain));
    CHECK_THAT(v2, Contains("<nettopo version=\"2\" "));
    CHECK(v2.find("forwards") == std::string::npos);
    // forwards="yes" is the default, accepted where the attribute is.
    const std::string yes = replace_once(replace_once(v2, "version=\"2\"", "version=\"3\""),
                                         "type=\"1\" />", "type=\"1\" forwards=\"yes\" />");
    CHECK(test::from_archive_text(yes).network().all_forward());
}

TEST_CASE("archive: forwards= in an older version or with a bad value is refused", "[forwarding]") {
    const std::string text = test::archive_text(parse(hosts_text));
    // Said version 2, a nettopo that knows only version 2 would take the end
    // hosts for routers: the attribute is refused there, with its line.
    const std::string as_v2 = replace_once(text, "version=\"3\"", "version=\"2\"");
    const std::string e = archive_error(as_v2);
    CHECK_THAT(e, Contains("bad.xml:"));
    CHECK_THAT(e, Contains("needs archive format version 3"));
    const std::string bad = replace_once(text, "forwards=\"no\"", "forwards=\"0\"");
    CHECK_THAT(archive_error(bad), Contains("neither \"yes\" nor \"no\""));
    // And a version newer than this nettopo is refused as before.
    CHECK_THAT(archive_error(replace_once(text, "version=\"3\"", "version=\"6\"")),
               Contains("version 6 is newer than this nettopo reads (version 5)"));
}
