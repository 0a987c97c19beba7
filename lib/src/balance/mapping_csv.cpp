// CSV files of a balancing state: task loads, the task graph, a mapping.
// One reader walks lines (skipping '#' comments and blank lines), checks
// the header, splits fields and names the line of whatever is wrong.
#include "nettopo/balance/mapping_io.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <array>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <ostream>

namespace nettopo {

namespace {

std::string_view trim(std::string_view s) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

// Reads a CSV of `N` fields after the header `header` ("task,pe"), calling
// row(line, fields) for each data line.
template <std::size_t N, class Row>
void read_csv(const std::string& path, std::string_view header, Row&& row) {
    std::ifstream in(path);
    if (!in) throw InputError(path, 0, "cannot open the file");
    std::string text;
    std::size_t line = 0;
    bool header_seen = false;
    std::array<std::string_view, N> fields;
    while (std::getline(in, text)) {
        ++line;
        const std::string_view l = trim(text);
        if (l.empty() || l.front() == '#') continue;
        if (!header_seen) {
            std::string compact;
            for (char c : l)
                if (c != ' ' && c != '\t') compact += c;
            if (compact != header)
                throw InputError(path, line,
                                 fmt::format("expected the header '{}', found '{}'", header, l));
            header_seen = true;
            continue;
        }
        std::size_t count = 0, start = 0;
        while (true) {
            const std::size_t comma = l.find(',', start);
            const std::string_view f =
                trim(l.substr(start, comma == std::string_view::npos ? l.npos : comma - start));
            if (count < N) fields[count] = f;
            ++count;
            if (comma == std::string_view::npos) break;
            start = comma + 1;
        }
        if (count != N)
            throw InputError(path, line,
                             fmt::format("expected {} fields ({}), found {}", N, header, count));
        row(line, fields);
    }
    if (!header_seen)
        throw InputError(path, 0, fmt::format("no header '{}': the file has no data", header));
}

std::uint32_t id_field(const std::string& path, std::size_t line, std::string_view what,
                       std::string_view text) {
    const auto v = parse_uint(text);
    if (!v || *v >= std::numeric_limits<std::uint32_t>::max())
        throw InputError(path, line, fmt::format("{} '{}' is not a whole number", what, text));
    return static_cast<std::uint32_t>(*v);
}

double amount_field(const std::string& path, std::size_t line, std::string_view what,
                    std::string_view text) {
    const auto v = parse_double(text);
    if (!v) throw InputError(path, line, fmt::format("{} '{}' is not a number", what, text));
    if (*v < 0) throw InputError(path, line, fmt::format("{} {} is negative", what, text));
    return *v;
}

std::string out_of_range(std::uint32_t task, std::size_t num_tasks) {
    if (num_tasks == 0) return fmt::format("task {} out of range: there are no tasks", task);
    return fmt::format("task {} out of range: {} tasks, 0..{}", task, num_tasks, num_tasks - 1);
}

// Tasks 0..N-1 each once, whatever the order of the lines.
class TaskSlots {
public:
    explicit TaskSlots(std::uint32_t n) : line_of_(n, 0) {}
    void take(const std::string& path, std::size_t line, std::uint32_t task) {
        if (task >= line_of_.size())
            throw InputError(path, line, out_of_range(task, line_of_.size()));
        if (line_of_[task] != 0)
            throw InputError(
                path, line,
                fmt::format("task {} given twice (first on line {})", task, line_of_[task]));
        line_of_[task] = line;
    }
    void require_all(const std::string& path) const {
        for (std::size_t t = 0; t < line_of_.size(); ++t)
            if (line_of_[t] == 0)
                throw InputError(
                    path, 0,
                    fmt::format("task {} is missing ({} tasks expected)", t, line_of_.size()));
    }

private:
    std::vector<std::size_t> line_of_;
};

} // namespace

std::vector<double> read_task_loads(const std::string& path) {
    struct Row {
        std::size_t line;
        std::uint32_t task;
        double load;
    };
    std::vector<Row> rows;
    read_csv<2>(path, "task,load", [&](std::size_t line, const auto& f) {
        rows.push_back(
            {line, id_field(path, line, "task", f[0]), amount_field(path, line, "load", f[1])});
    });
    // The number of lines is the number of tasks: out of range, duplicates
    // and (by counting) missing tasks all show as a line to point at.
    TaskSlots slots(static_cast<std::uint32_t>(rows.size()));
    std::vector<double> loads(rows.size());
    for (const Row& r : rows) {
        slots.take(path, r.line, r.task);
        loads[r.task] = r.load;
    }
    return loads;
}

TaskGraph read_task_graph(const std::string& path, std::uint32_t num_tasks) {
    std::vector<TaskEdge> edges;
    read_csv<3>(path, "a,b,bytes", [&](std::size_t line, const auto& f) {
        TaskEdge e{TaskId(id_field(path, line, "task", f[0])),
                   TaskId(id_field(path, line, "task", f[1])),
                   amount_field(path, line, "bytes", f[2])};
        for (TaskId t : {e.a, e.b})
            if (t.value >= num_tasks)
                throw InputError(path, line, out_of_range(t.value, num_tasks));
        edges.push_back(e);
    });
    return TaskGraph(num_tasks, edges);
}

std::vector<PeId> read_mapping(const std::string& path, const Cluster& cluster,
                               std::uint32_t num_tasks) {
    std::vector<PeId> mapping(num_tasks);
    TaskSlots slots(num_tasks);
    read_csv<2>(path, "task,pe", [&](std::size_t line, const auto& f) {
        const std::uint32_t task = id_field(path, line, "task", f[0]);
        const std::uint32_t pe = id_field(path, line, "pe", f[1]);
        slots.take(path, line, task);
        if (pe >= cluster.num_pes())
            throw InputError(
                path, line,
                fmt::format("PE {} out of range: the cluster has {} PEs", pe, cluster.num_pes()));
        mapping[task] = PeId(pe);
    });
    slots.require_all(path);
    return mapping;
}

std::vector<double> read_pe_speeds(const std::string& path, const Cluster& cluster) {
    std::vector<double> speeds(cluster.num_pes(), 1.0);
    std::vector<std::size_t> line_of(cluster.num_pes(), 0);
    read_csv<2>(path, "pe,speed", [&](std::size_t line, const auto& f) {
        const std::uint32_t pe = id_field(path, line, "pe", f[0]);
        const double speed = amount_field(path, line, "speed", f[1]);
        if (pe >= cluster.num_pes())
            throw InputError(
                path, line,
                fmt::format("PE {} out of range: the cluster has {} PEs", pe, cluster.num_pes()));
        if (line_of[pe] != 0)
            throw InputError(path, line,
                             fmt::format("PE {} given twice (first on line {})", pe, line_of[pe]));
        if (!(speed > 0))
            throw InputError(path, line, fmt::format("speed {} of PE {} is not above 0", f[1], pe));
        line_of[pe] = line;
        speeds[pe] = speed;
    });
    return speeds;
}

void write_mapping(std::ostream& out, std::span<const PeId> mapping) {
    std::string text = "task,pe\n";
    for (std::size_t t = 0; t < mapping.size(); ++t)
        fmt::format_to(std::back_inserter(text), "{},{}\n", t, mapping[t].value);
    out << text;
}

} // namespace nettopo
