// The three printed forms of nettopo-balance's results, and its files.
#include "nettopo-balance/balance_output.hpp"

#include "common/format_units.hpp"
#include "common/json_writer.hpp"
#include "common/output.hpp"
#include "common/report_fields.hpp"
#include "common/text_table.hpp"
#include "nettopo/support/detail/atomic_file.hpp"
#include "nettopo/support/error.hpp"

#include <fmt/format.h>

namespace nettopo {

namespace {

void write_header(std::ostream& out, const BalanceReportHeader& h) {
    out << "# " << h.command << '\n' << "# parameters:" << report_fields_text(h.parameters) << '\n';
    // A value of several lines stays inside the comment block.
    for (const auto& [k, v] : h.outputs) {
        out << "# " << k << ": ";
        std::string_view text = v;
        while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
        for (char c : text)
            out << (c == '\n' ? std::string_view("\n#   ") : std::string_view(&c, 1));
        out << '\n';
    }
}

void write_json_header(JsonWriter& j, const BalanceReportHeader& h) {
    j.field("command", h.command);
    write_report_fields_json(j, "parameters", h.parameters);
    j.key("outputs").begin_object();
    for (const auto& [k, v] : h.outputs) j.field(k, v);
    j.end_object();
}

std::string seconds(double s) {
    return format_duration(s * 1e9);
}
std::string ratio(double r) {
    return fmt::format("{:.3f}", r);
}
std::string amount(double v) {
    return v == 0 ? "0" : fmt::format("{:.3g}", v);
}

std::string count(std::uint64_t v) {
    return fmt::format("{}", v);
}

// One reported quantity: its table heading, its CSV/JSON key, its value
// (what scripts get) and its text (what people read).
struct Cell {
    const char* heading;
    const char* key;
    double value;
    std::string text;
};

std::vector<Cell> comparison_cells(const SimulationResult& r) {
    const auto n = [](auto v) { return static_cast<double>(v); };
    return {
        {"total", "total_seconds", r.total_seconds, seconds(r.total_seconds)},
        {"speedup", "speedup", r.speedup, ratio(r.speedup)},
        {"max/avg before", "max_avg_before", r.max_avg_before, ratio(r.max_avg_before)},
        {"max/avg after", "max_avg_after", r.max_avg_after, ratio(r.max_avg_after)},
        {"migrations", "migrations", n(r.migrations), count(r.migrations)},
        {"migrated", "migration_bytes", r.migration_bytes, format_bytes(r.migration_bytes)},
        {"messages", "messages", n(r.messages), count(r.messages)},
        {"lost", "messages_lost", n(r.messages_lost), count(r.messages_lost)},
        {"rounds", "rounds", n(r.rounds), count(r.rounds)},
        {"decision", "decision_seconds", r.decision_seconds, seconds(r.decision_seconds)},
        {"wall", "decision_wall_seconds", r.decision_wall_seconds,
         seconds(r.decision_wall_seconds)},
        {"migration", "migration_seconds", r.migration_seconds, seconds(r.migration_seconds)},
        {"hop-bytes", "hop_bytes", r.hop_bytes, amount(r.hop_bytes)},
        {"latency-bytes", "latency_bytes", r.latency_bytes, amount(r.latency_bytes)},
        // Scripts only.
        {nullptr, "compute_seconds", r.compute_seconds, {}},
        {nullptr, "steps", n(r.steps), {}},
    };
}

// The spread columns (several seeds): min, median and max of each.
struct SpreadField {
    const char* key;
    Spread SimulationSpread::*field;
};
constexpr SpreadField spread_fields[] = {
    {"total_seconds", &SimulationSpread::total_seconds},
    {"speedup", &SimulationSpread::speedup},
    {"migrations", &SimulationSpread::migrations},
    {"max_avg_after", &SimulationSpread::max_avg_after},
    {"decision_seconds", &SimulationSpread::decision_seconds},
};

// What the table shows of a spread: total and migrations.
std::vector<Cell> spread_table_cells(const SimulationSpread& s) {
    return {
        {"total min", "", s.total_seconds.min, seconds(s.total_seconds.min)},
        {"total median", "", s.total_seconds.median, seconds(s.total_seconds.median)},
        {"total max", "", s.total_seconds.max, seconds(s.total_seconds.max)},
        {"migrations min", "", s.migrations.min, fmt::format("{:g}", s.migrations.min)},
        {"migrations max", "", s.migrations.max, fmt::format("{:g}", s.migrations.max)},
    };
}

std::vector<Cell> summary_cells(const BalanceSummary& s) {
    const auto n = [](auto v) { return static_cast<double>(v); };
    return {
        {"max/avg before", "max_avg_before", s.max_avg_before, ratio(s.max_avg_before)},
        {"max/avg after", "max_avg_after", s.max_avg_after, ratio(s.max_avg_after)},
        {"max load before", "max_load_before_seconds", s.max_load_before,
         seconds(s.max_load_before)},
        {"max load after", "max_load_after_seconds", s.max_load_after, seconds(s.max_load_after)},
        {"migrations", "migrations", n(s.migrations), count(s.migrations)},
        {"hop-bytes before", "hop_bytes_before", s.cost_before.hop_bytes,
         amount(s.cost_before.hop_bytes)},
        {"hop-bytes after", "hop_bytes_after", s.cost_after.hop_bytes,
         amount(s.cost_after.hop_bytes)},
        {"latency-bytes before", "latency_bytes_before", s.cost_before.latency_bytes,
         amount(s.cost_before.latency_bytes)},
        {"latency-bytes after", "latency_bytes_after", s.cost_after.latency_bytes,
         amount(s.cost_after.latency_bytes)},
        {"messages", "messages", n(s.messages), count(s.messages)},
        {"messages lost", "messages_lost", n(s.messages_lost), count(s.messages_lost)},
        {"collectives", "collectives", n(s.collectives), count(s.collectives)},
        {"rounds", "rounds", n(s.rounds), count(s.rounds)},
        {"decision (wall)", "decision_wall_seconds", s.decision_wall_seconds,
         seconds(s.decision_wall_seconds)},
        {"protocol (simulated)", "protocol_seconds", s.protocol_seconds,
         seconds(s.protocol_seconds)},
    };
}

} // namespace

void write_comparison(std::ostream& out, ReportFormat format, const BalanceReportHeader& header,
                      std::span<const SimulationResult> results,
                      std::span<const SimulationSpread> spreads) {
    if (!spreads.empty() && spreads.size() != results.size())
        throw UsageError("write_comparison: one spread per result, or none");
    if (format == ReportFormat::Json) {
        JsonWriter j(out);
        j.begin_object();
        write_json_header(j, header);
        j.key("results").begin_array();
        for (std::size_t i = 0; i < results.size(); ++i) {
            const SimulationResult& r = results[i];
            j.begin_object().field("strategy", r.strategy);
            for (const Cell& c : comparison_cells(r)) j.field(c.key, c.value);
            if (!spreads.empty()) {
                j.key("spread").begin_object();
                for (const SpreadField& f : spread_fields) {
                    const Spread& v = spreads[i].*f.field;
                    j.key(f.key).begin_object();
                    j.field("min", v.min).field("median", v.median).field("max", v.max);
                    j.end_object();
                }
                j.end_object();
            }
            j.end_object();
        }
        j.end_array().end_object().line();
        return;
    }
    if (format != ReportFormat::Csv || header.csv_comments) write_header(out, header);
    if (format == ReportFormat::Csv) {
        const SimulationResult none;
        out << "strategy";
        for (const Cell& c : comparison_cells(none)) out << ',' << c.key;
        if (!spreads.empty())
            for (const SpreadField& f : spread_fields)
                out << ',' << f.key << "_min," << f.key << "_median," << f.key << "_max";
        out << '\n';
        for (std::size_t i = 0; i < results.size(); ++i) {
            out << csv_field(results[i].strategy);
            for (const Cell& c : comparison_cells(results[i])) out << ',' << format_number(c.value);
            if (!spreads.empty())
                for (const SpreadField& f : spread_fields) {
                    const Spread& v = spreads[i].*f.field;
                    out << ',' << format_number(v.min) << ',' << format_number(v.median) << ','
                        << format_number(v.max);
                }
            out << '\n';
        }
        return;
    }
    std::vector<std::vector<std::string>> rows(1, {"strategy"});
    for (const Cell& c : comparison_cells(SimulationResult{}))
        if (c.heading) rows[0].push_back(c.heading);
    if (!spreads.empty())
        for (const Cell& c : spread_table_cells(SimulationSpread{})) rows[0].push_back(c.heading);
    for (std::size_t i = 0; i < results.size(); ++i) {
        rows.push_back({results[i].strategy});
        for (Cell& c : comparison_cells(results[i]))
            if (c.heading) rows.back().push_back(std::move(c.text));
        if (!spreads.empty())
            for (Cell& c : spread_table_cells(spreads[i])) rows.back().push_back(std::move(c.text));
    }
    std::vector<bool> numeric(rows[0].size(), true);
    numeric[0] = false;
    write_text_table(out, rows, numeric);
}

void write_mpi_comparison(std::ostream& out, ReportFormat format, const BalanceReportHeader& header,
                          const MpiBalanceComparison& c) {
    const auto n = [](auto v) { return static_cast<double>(v); };
    const std::vector<Cell> cells = {
        {"ranks", "ranks", n(c.ranks), count(c.ranks)},
        {"messages (MPI)", "mpi_messages", n(c.mpi_messages), count(c.mpi_messages)},
        {"messages (reference)", "reference_messages", n(c.reference_messages),
         count(c.reference_messages)},
        {"messages (simulated)", "simulated_messages", n(c.simulated_messages),
         count(c.simulated_messages)},
        {"migrations (MPI)", "mpi_migrations", n(c.mpi_migrations), count(c.mpi_migrations)},
        {"migrations (simulated)", "simulated_migrations", n(c.simulated_migrations),
         count(c.simulated_migrations)},
        {"max/avg before", "max_avg_before", c.max_avg_before, ratio(c.max_avg_before)},
        {"max/avg after (MPI)", "mpi_max_avg_after", c.mpi_max_avg_after,
         ratio(c.mpi_max_avg_after)},
        {"max/avg after (simulated)", "simulated_max_avg_after", c.simulated_max_avg_after,
         ratio(c.simulated_max_avg_after)},
        {"MPI protocol (wall)", "mpi_seconds", c.mpi_seconds, seconds(c.mpi_seconds)},
    };
    if (format == ReportFormat::Json) {
        JsonWriter j(out);
        j.begin_object();
        write_json_header(j, header);
        j.field("strategy", c.strategy)
            .field("reference", c.reference)
            .field("same_mapping", c.same_mapping);
        for (const Cell& cell : cells) j.field(cell.key, cell.value);
        j.end_object().line();
        return;
    }
    if (format != ReportFormat::Csv || header.csv_comments) write_header(out, header);
    if (format == ReportFormat::Csv) {
        out << "strategy,reference,same_mapping";
        for (const Cell& cell : cells) out << ',' << cell.key;
        out << '\n'
            << csv_field(c.strategy) << ',' << csv_field(c.reference) << ','
            << (c.same_mapping ? "true" : "false");
        for (const Cell& cell : cells) out << ',' << format_number(cell.value);
        out << '\n';
        return;
    }
    std::vector<std::vector<std::string>> rows{{"strategy", c.strategy},
                                               {"reference", c.reference},
                                               {"same mapping", c.same_mapping ? "yes" : "no"}};
    for (const Cell& cell : cells) rows.push_back({cell.heading, cell.text});
    write_text_table(out, rows, {false, false});
}

void write_balance_summary(std::ostream& out, ReportFormat format,
                           const BalanceReportHeader& header, const BalanceSummary& s) {
    const std::vector<Cell> cells = summary_cells(s);
    if (format == ReportFormat::Json) {
        JsonWriter j(out);
        j.begin_object();
        write_json_header(j, header);
        j.field("strategy", s.strategy).field("distributed", s.distributed);
        for (const Cell& c : cells) j.field(c.key, c.value);
        j.end_object().line();
        return;
    }
    if (format != ReportFormat::Csv || header.csv_comments) write_header(out, header);
    if (format == ReportFormat::Csv) {
        out << "strategy,distributed";
        for (const Cell& c : cells) out << ',' << c.key;
        out << '\n' << csv_field(s.strategy) << ',' << (s.distributed ? "true" : "false");
        for (const Cell& c : cells) out << ',' << format_number(c.value);
        out << '\n';
        return;
    }
    std::vector<std::vector<std::string>> rows{{"strategy", s.strategy}};
    for (const Cell& c : cells) rows.push_back({c.heading, c.text});
    write_text_table(out, rows, {false, false});
}

void save_mapping(const std::string& path, std::span<const PeId> mapping) {
    write_output(path, [&](std::ostream& out) { write_mapping(out, mapping); });
}

void save_rankfile(const std::string& path, const Cluster& cluster, std::span<const PeId> mapping) {
    write_output(path, [&](std::ostream& out) { write_rankfile(out, cluster, mapping); });
}

SlurmLaunch save_slurm_hostfile(const std::string& path, const Cluster& cluster,
                                std::span<const PeId> mapping) {
    SlurmLaunch launch = slurm_launch(cluster, mapping);
    write_output(path, [&](std::ostream& out) { out << launch.hostfile; });
    return launch;
}

} // namespace nettopo
