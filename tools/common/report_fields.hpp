// The named values a report's header carries (a benchmark's or a balancing's
// parameters, the machine it ran on), typed so that JSON prints numbers as
// numbers and yes/no as true/false, while tables and CSV comments print text.
#pragma once

#include "common/json_writer.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace nettopo {

// monostate: unknown (JSON null, text "unknown").
using ReportValue = std::variant<std::monostate, std::string, std::uint64_t, double, bool>;

struct ReportField {
    std::string name;
    ReportValue value;
};
using ReportFields = std::vector<ReportField>;

// "12", "0.5", "yes", "unknown", or the text itself.
std::string report_text(const ReportValue& v);
// " name=value" for each field, as a comment line of a table shows them.
std::string report_fields_text(const ReportFields& fields);
// `key`: {"name": value, ...}.
void write_report_fields_json(JsonWriter& j, std::string_view key, const ReportFields& fields);

} // namespace nettopo
