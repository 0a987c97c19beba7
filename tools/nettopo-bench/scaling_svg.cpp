// The scaling figure: median time per operation against the number of
// machines, both axes logarithmic, one line per operation (the thesis'
// Figure 12). A small SVG writer of our own: axes, decade ticks, lines,
// markers and a legend are all it needs.
#include "common/output.hpp"
#include "nettopo-bench/bench_report.hpp"
#include "nettopo/support/detail/atomic_file.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace nettopo::bench {
namespace {

constexpr double width = 1000, height = 560;
constexpr double left = 80, right = 380, top = 50, bottom = 60; // margins
constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string escape(std::string_view s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

struct Range {
    double lo = 0, hi = 0; // decades (log10), whole numbers
};

Range decades(double min, double max) {
    Range r{std::floor(std::log10(min)), std::ceil(std::log10(max))};
    if (r.hi <= r.lo) r.hi = r.lo + 1;
    return r;
}

std::string decade_label(int e, bool time) {
    if (!time)
        return e < 4 ? fmt::format("{}", static_cast<long long>(std::pow(10, e)))
                     : fmt::format("1e{}", e);
    return format_duration(std::pow(10, e));
}

} // namespace

void write_scaling_svg(std::ostream& out, const Header& header,
                       const std::vector<Measurement>& ms) {
    // operation -> (machines, median ns), in first-seen order of operations.
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::pair<double, double>>> lines;
    for (const Measurement& m : ms) {
        const double t = summarize(m.ns_per_item).median;
        if (m.machines == 0 || !(t > 0)) continue;
        if (!lines.count(m.operation)) order.push_back(m.operation);
        lines[m.operation].emplace_back(static_cast<double>(m.machines), t);
    }
    double xmin = 1, xmax = 10, ymin = 1, ymax = 10;
    bool first = true;
    for (auto& [op, pts] : lines) {
        std::sort(pts.begin(), pts.end());
        for (const auto& [x, y] : pts) {
            xmin = first ? x : std::min(xmin, x), xmax = first ? x : std::max(xmax, x);
            ymin = first ? y : std::min(ymin, y), ymax = first ? y : std::max(ymax, y);
            first = false;
        }
    }
    const Range xr = decades(xmin, xmax), yr = decades(ymin, ymax);
    const double pw = width - left - right, ph = height - top - bottom;
    const auto px = [&](double x) { return left + (std::log10(x) - xr.lo) / (xr.hi - xr.lo) * pw; };
    const auto py = [&](double y) {
        return top + ph - (std::log10(y) - yr.lo) / (yr.hi - yr.lo) * ph;
    };

    out << fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
                       "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n",
                       width, height, width, height);
    out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    out << fmt::format("<text x=\"{}\" y=\"24\" font-size=\"15\">{}</text>\n", left,
                       escape("nettopo-bench: median time per operation against machines"));
    out << fmt::format("<text x=\"{}\" y=\"40\" fill=\"#555\">{}</text>\n", left,
                       escape(header.command));
    for (int e = static_cast<int>(xr.lo); e <= static_cast<int>(xr.hi); ++e) {
        const double x = px(std::pow(10, e));
        out << fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" "
                           "stroke=\"#ddd\"/>\n<text x=\"{0:.1f}\" y=\"{3}\" "
                           "text-anchor=\"middle\">{4}</text>\n",
                           x, top, top + ph, top + ph + 18, decade_label(e, false));
    }
    for (int e = static_cast<int>(yr.lo); e <= static_cast<int>(yr.hi); ++e) {
        const double y = py(std::pow(10, e));
        out << fmt::format("<line x1=\"{1}\" y1=\"{0:.1f}\" x2=\"{2}\" y2=\"{0:.1f}\" "
                           "stroke=\"#ddd\"/>\n<text x=\"{3}\" y=\"{4:.1f}\" "
                           "text-anchor=\"end\">{5}</text>\n",
                           y, left, left + pw, left - 6, y + 4, escape(decade_label(e, true)));
    }
    out << fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
                       "stroke=\"black\"/>\n",
                       left, top, pw, ph);
    out << fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">machines</text>\n",
                       left + pw / 2, height - 18);
    out << fmt::format("<text transform=\"translate(18 {}) rotate(-90)\" "
                       "text-anchor=\"middle\">time (median)</text>\n",
                       top + ph / 2);
    for (std::size_t i = 0; i < order.size(); ++i) {
        const char* colour = palette[i % std::size(palette)];
        // Past the palette, lines repeat its colours dashed.
        const char* dash = (i / std::size(palette)) % 2 ? R"( stroke-dasharray="7 4")" : "";
        const auto& pts = lines[order[i]];
        std::string points;
        for (const auto& [x, y] : pts) points += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
        if (pts.size() > 1)
            out << fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} "
                               "points=\"{}\"/>\n",
                               colour, dash, points);
        for (const auto& [x, y] : pts)
            out << fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\"/>\n",
                               px(x), py(y), colour);
        const double ly = top + 8 + 18 * static_cast<double>(i);
        out << fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" "
                           "stroke=\"{3}\" stroke-width=\"2\"{7}/>\n<text x=\"{4}\" "
                           "y=\"{5:.1f}\">{6}</text>\n",
                           left + pw + 14, ly, left + pw + 38, colour, left + pw + 44, ly + 4,
                           escape(order[i]), dash);
    }
    out << "</svg>\n";
}

void save_scaling_svg(const std::string& path, const Header& header,
                      const std::vector<Measurement>& ms) {
    write_output(path, [&](std::ostream& out) { write_scaling_svg(out, header, ms); });
}

} // namespace nettopo::bench
