#include "nettopo-discover/check_printer.hpp"

#include "common/cluster_printer.hpp"
#include "common/json_writer.hpp"
#include "common/rails_printer.hpp"
#include "common/tool_support.hpp"

#include <fmt/format.h>

namespace nettopo {

std::string issue_text(const AssemblyIssue& issue) {
    return issue.summary(remedy_hint(issue.remedy));
}

namespace {

std::vector<std::string> problem_lines(const CheckReport& r) {
    std::vector<std::string> lines;
    for (const AssemblyIssue& issue : r.issues) lines.push_back(issue_text(issue));
    lines.insert(lines.end(), r.problems.begin(), r.problems.end());
    for (const RailProblem& p : r.rails.problems) lines.push_back(p.text);
    return lines;
}

std::vector<std::string> note_lines(const CheckReport& r) {
    std::vector<std::string> lines;
    for (const AssemblyIssue& note : r.notes) lines.push_back(issue_text(note));
    if (!r.defaulted_hosts.empty())
        lines.push_back(
            AssemblyIssue{"host", "in the fabric given --default-machine", r.defaulted_hosts}
                .summary());
    return lines;
}

} // namespace

void write_check_text(const CheckReport& r, std::ostream& out) {
    write_summary_text(r.summary, out);
    out << fmt::format(
        "hops between machines ({} pairs{}):\n", r.hops.all_sources ? "all ordered" : "ordered",
        r.hops.all_sources ? "" : fmt::format(", from {} sampled machines", r.hops.sources));
    for (std::size_t h = 0; h < r.hops.pairs_at_hops.size(); ++h)
        if (r.hops.pairs_at_hops[h])
            out << fmt::format("  {:>3} hops: {}\n", h, r.hops.pairs_at_hops[h]);
    if (r.hops.unreachable_pairs)
        out << fmt::format("  unreachable: {}\n", r.hops.unreachable_pairs);
    if (!r.rails.rails.empty()) out << fmt::format("rails: {}\n", r.rails.summary());
    for (const auto& n : note_lines(r)) out << fmt::format("note: {}\n", n);
    for (const auto& a : r.accepted) out << fmt::format("accepted: {}\n", a);
    for (const auto& u : r.unused_accepts)
        out << fmt::format("note: {} (it accepts no problem: fixed, or mistyped?)\n", u);
    for (const auto& p : problem_lines(r)) out << fmt::format("problem: {}\n", p);
    out << (r.ok() ? "check: ok\n"
                   : fmt::format("check: FAILED, {}\n", counted(r.num_problems(), "problem")));
}

void write_check_json(const CheckReport& r, std::ostream& out) {
    JsonWriter w(out);
    w.begin_object();
    w.field("ok", r.ok());
    w.field("num_machines", r.summary.machines);
    w.field("num_switches", r.summary.switches);
    w.field("num_links", r.summary.links);
    w.field("num_pes", r.summary.pes);
    w.field("num_components", r.summary.components);
    w.field("diameter_hops", r.summary.diameter_hops);
    w.key("hop_distribution").begin_object();
    w.field("all_sources", r.hops.all_sources);
    w.field("sources", r.hops.sources);
    w.key("pairs_at_hops").begin_array();
    for (std::uint64_t n : r.hops.pairs_at_hops) w.value(n);
    w.end_array();
    w.field("unreachable_pairs", r.hops.unreachable_pairs);
    w.end_object();
    w.key("notes").begin_array();
    for (const auto& n : note_lines(r)) w.value(n);
    w.end_array();
    w.key("problems").begin_array();
    for (const auto& p : problem_lines(r)) w.value(p);
    w.end_array();
    if (!r.rails.rails.empty()) write_rails_json(r.rails, w);
    if (r.accepting) {
        w.key("accepted").begin_array();
        for (const auto& a : r.accepted) w.value(a);
        w.end_array();
        w.key("unused_accept_lines").begin_array();
        for (const auto& u : r.unused_accepts) w.value(u);
        w.end_array();
    }
    w.end_object();
    w.line();
}

} // namespace nettopo
