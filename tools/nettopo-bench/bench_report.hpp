// How nettopo-bench reports: a table for people, CSV and JSON for scripts
// (every repetition, plus the summary), and the scaling figure as SVG. The
// table starts with a header: what ran, with which parameters, on which
// machine; JSON holds it as members (numbers as numbers); CSV is plain, the
// header as # lines only when asked (--csv-comments).
#pragma once

#include "common/format_units.hpp"
#include "common/report_fields.hpp"
#include "nettopo-bench/bench.hpp"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace nettopo::bench {

struct Header {
    std::string command; // the command line
    ReportFields parameters;
    ReportFields machine; // from machine_info()
};

// CPU model, PUs, memory, kernel, compiler, build type, date.
ReportFields machine_info();

void write_table(std::ostream& out, const Header& header, const std::vector<Measurement>& ms);
// Plain CSV; `comments`: the header first, as # lines.
void write_csv(std::ostream& out, const Header& header, const std::vector<Measurement>& ms,
               bool comments = false);
void write_json(std::ostream& out, const Header& header, const std::vector<Measurement>& ms);

// Time against machines, log-log, one line per operation (the thesis'
// Figure 12); operations measured on a single input are drawn as points.
void write_scaling_svg(std::ostream& out, const Header& header, const std::vector<Measurement>& ms);
// The same, written to a file atomically.
void save_scaling_svg(const std::string& path, const Header& header,
                      const std::vector<Measurement>& ms);

// Shared with the other tools' tables.
using nettopo::format_duration;

} // namespace nettopo::bench
