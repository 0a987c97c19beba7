#include "common/report_fields.hpp"

#include "nettopo/support/detail/text.hpp"

#include <fmt/format.h>

namespace nettopo {

std::string report_text(const ReportValue& v) {
    struct Text {
        std::string operator()(std::monostate) const { return "unknown"; }
        std::string operator()(const std::string& s) const { return s; }
        std::string operator()(std::uint64_t n) const { return fmt::format("{}", n); }
        std::string operator()(double x) const { return format_number(x); }
        std::string operator()(bool b) const { return b ? "yes" : "no"; }
    };
    return std::visit(Text{}, v);
}

std::string report_fields_text(const ReportFields& fields) {
    std::string s;
    for (const auto& [name, value] : fields)
        fmt::format_to(std::back_inserter(s), " {}={}", name, report_text(value));
    return s;
}

void write_report_fields_json(JsonWriter& j, std::string_view key, const ReportFields& fields) {
    j.key(key).begin_object();
    for (const auto& [name, value] : fields) {
        j.key(name);
        std::visit(
            [&](const auto& x) {
                if constexpr (std::is_same_v<std::decay_t<decltype(x)>, std::monostate>)
                    j.null();
                else
                    j.value(x);
            },
            value);
    }
    j.end_object();
}

} // namespace nettopo
