// The JSON writer every tool prints through: one document per line, numbers
// as numbers, and never a number JSON cannot hold (NaN, infinity).
#include "common/json_writer.hpp"
#include "common/report_fields.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>

using namespace nettopo;

TEST_CASE("JsonWriter: numbers as numbers, null for what is not one", "[tools]") {
    std::ostringstream out;
    JsonWriter j(out);
    j.begin_object()
        .field("latency_ns", 250.5)
        .field("hops", std::optional<std::uint32_t>{})
        .field("nan", std::numeric_limits<double>::quiet_NaN())
        .field("inf", -std::numeric_limits<double>::infinity())
        .field("name", "a \"quoted\"\nname")
        .end_object()
        .line();
    CHECK(out.str() == "{\"latency_ns\":250.5,\"hops\":null,\"nan\":null,\"inf\":null,"
                       "\"name\":\"a \\\"quoted\\\"\\nname\"}\n");
}

TEST_CASE("report fields: typed in JSON, text in tables", "[tools]") {
    const ReportFields fields = {{"num_pes", std::uint64_t{128}},
                                 {"loss", 0.25},
                                 {"verify", false},
                                 {"cluster", std::string("fat-tree --k 4")},
                                 {"cpu", ReportValue{}}};
    CHECK(report_fields_text(fields) ==
          " num_pes=128 loss=0.25 verify=no cluster=fat-tree --k 4 cpu=unknown");
    std::ostringstream out;
    JsonWriter j(out);
    j.begin_object();
    write_report_fields_json(j, "parameters", fields);
    j.end_object().line();
    CHECK(out.str() == "{\"parameters\":{\"num_pes\":128,\"loss\":0.25,\"verify\":false,"
                       "\"cluster\":\"fat-tree --k 4\",\"cpu\":null}}\n");
}
