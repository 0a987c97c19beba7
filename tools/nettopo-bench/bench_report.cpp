// Table, CSV and JSON forms of benchmark results.
#include "nettopo-bench/bench_report.hpp"

#include "common/json_writer.hpp"
#include "common/text_table.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>

namespace nettopo::bench {

namespace {

void write_header(std::ostream& out, const Header& h) {
    out << "# " << h.command << '\n';
    out << "# parameters:" << report_fields_text(h.parameters) << '\n';
    out << "# machine:" << report_fields_text(h.machine) << '\n';
}

} // namespace

void write_table(std::ostream& out, const Header& header, const std::vector<Measurement>& ms) {
    write_header(out, header);
    std::vector<std::vector<std::string>> rows{
        {"input", "operation", "machines", "items", "median", "min", "max", "note"}};
    for (const Measurement& m : ms) {
        const Summary s = summarize(m.ns_per_item);
        const bool timed = !m.ns_per_item.empty();
        const auto shown = [timed](double ns) { return timed ? format_duration(ns) : "-"; };
        rows.push_back({m.input, m.operation, fmt::format("{}", m.machines),
                        fmt::format("{}", m.items), shown(s.median), shown(s.min), shown(s.max),
                        m.note});
    }
    write_text_table(out, rows, {false, false, true, true, true, true, true, false});
}

void write_csv(std::ostream& out, const Header& header, const std::vector<Measurement>& ms,
               bool comments) {
    if (comments) write_header(out, header);
    out << "input,operation,num_machines,items,repetitions,median_ns,min_ns,max_ns,note\n";
    for (const Measurement& m : ms) {
        const Summary s = summarize(m.ns_per_item);
        out << csv_field(m.input) << ',' << csv_field(m.operation) << ',' << m.machines << ','
            << m.items << ',' << m.ns_per_item.size() << ',';
        if (!m.ns_per_item.empty())
            out << format_number(s.median) << ',' << format_number(s.min) << ','
                << format_number(s.max);
        else
            out << ",,"; // not timed: the note says why
        out << ',' << csv_field(m.note) << '\n';
    }
}

void write_json(std::ostream& out, const Header& header, const std::vector<Measurement>& ms) {
    JsonWriter j(out);
    j.begin_object().field("command", header.command);
    write_report_fields_json(j, "parameters", header.parameters);
    write_report_fields_json(j, "machine", header.machine);
    j.key("measurements").begin_array();
    for (const Measurement& m : ms) {
        const Summary s = summarize(m.ns_per_item);
        j.begin_object()
            .field("input", m.input)
            .field("operation", m.operation)
            .field("num_machines", m.machines)
            .field("items", m.items);
        const auto timed = [&](double v) {
            return m.ns_per_item.empty() ? std::optional<double>() : std::optional<double>(v);
        };
        j.field("median_ns", timed(s.median))
            .field("min_ns", timed(s.min))
            .field("max_ns", timed(s.max));
        j.key("ns_per_item").begin_array();
        for (double v : m.ns_per_item) j.value(v);
        j.end_array().field("note", m.note).end_object();
    }
    j.end_array().end_object().line();
}

} // namespace nettopo::bench
