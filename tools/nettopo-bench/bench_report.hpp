// How nettopo-bench reports: a table for people, CSV and JSON for scripts
// (every repetition, plus the summary), and the scaling figure as SVG. Every
// form starts with the same header: what ran, with which parameters, on
// which machine.
#pragma once

#include "common/format_units.hpp"
#include "nettopo-bench/bench.hpp"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace nettopo::bench {

struct Header {
    std::string command;                                         // the command line
    std::vector<std::pair<std::string, std::string>> parameters; // name, value
    std::vector<std::pair<std::string, std::string>> machine;    // from machine_info()
};

// CPU model, cores, memory, kernel, compiler, build type, date.
std::vector<std::pair<std::string, std::string>> machine_info();

void write_table(std::ostream& out, const Header& header, const std::vector<Measurement>& ms);
void write_csv(std::ostream& out, const Header& header, const std::vector<Measurement>& ms);
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
