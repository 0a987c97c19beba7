// The distance matrices of an hwloc 2.x export (<distances2> and
// <distances2hetero>), checked before hwloc reads them: hwloc refuses the
// whole export for a count that does not match ("hwloc cannot load this XML
// export", no line), and drops a matrix that names an object the export does
// not hold without a word, which would leave nettopo ordering NUMA nodes or
// GPUs by defaults while the export says otherwise. Both are refused here
// with the file and the line of the matrix.
#include "hwloc/hwloc_xml_check.hpp"
#include "nettopo/support/error.hpp"

#include <charconv>
#include <fmt/format.h>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace nettopo::detail {

namespace {

std::vector<std::string_view> words(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\n' && text[i] != '\t') ++i;
        if (i > start) out.push_back(text.substr(start, i - start));
    }
    return out;
}

std::optional<std::uint64_t> number(std::string_view w) {
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || p != w.data() + w.size()) return std::nullopt;
    return v;
}

// Every object of the export as (type, gp_index) and (type, os_index).
struct Objects {
    std::set<std::pair<std::string, std::uint64_t>> gp, os;
    explicit Objects(pugi::xml_node topology) {
        std::vector<pugi::xml_node> todo = {topology};
        while (!todo.empty()) {
            const pugi::xml_node n = todo.back();
            todo.pop_back();
            for (pugi::xml_node c : n.children("object")) {
                const std::string type = c.attribute("type").value();
                if (const auto g = number(c.attribute("gp_index").value())) gp.emplace(type, *g);
                if (const auto o = number(c.attribute("os_index").value())) os.emplace(type, *o);
                todo.push_back(c);
            }
        }
    }
};

} // namespace

void check_distance_matrices(const pugi::xml_document& doc, std::string_view buffer,
                             const std::string& source) {
    const pugi::xml_node topology = doc.document_element();
    if (std::string_view(topology.name()) != "topology" || hwloc_xml_version(topology).major < 2)
        return;
    std::optional<Objects> objects; // made for the first matrix only
    for (pugi::xml_node m : topology.children()) {
        const std::string_view element = m.name();
        const bool hetero = element == "distances2hetero";
        if (element != "distances2" && !hetero) continue;
        const auto fail = [&](const std::string& what) {
            throw InputError(
                source, line_of(buffer, m),
                fmt::format("<{} name=\"{}\">: {}", element, m.attribute("name").value(), what));
        };
        const auto n = number(m.attribute("nbobjs").value());
        if (!n || *n == 0 || *n > 1'000'000) fail("nbobjs is not a number of objects");
        std::vector<std::string_view> indexes, values;
        for (pugi::xml_node i : m.children("indexes"))
            for (std::string_view w : words(i.child_value())) indexes.push_back(w);
        for (pugi::xml_node v : m.children("u64values"))
            for (std::string_view w : words(v.child_value())) values.push_back(w);
        if (indexes.size() != *n)
            fail(fmt::format("declares {} objects and lists {} indexes", *n, indexes.size()));
        if (values.size() != *n * *n)
            fail(fmt::format("declares {} objects and holds {} values ({} wanted)", *n,
                             values.size(), *n * *n));
        for (std::string_view v : values)
            if (!number(v)) fail(fmt::format("value '{}' is not a number", v));
        if (!objects) objects.emplace(topology);
        const std::string type = m.attribute("type").value();
        const bool by_os = std::string_view(m.attribute("indexing").value()) == "os";
        for (std::string_view w : indexes) {
            std::string t = type;
            std::string_view index = w;
            if (hetero) {
                const std::size_t colon = w.find(':');
                if (colon == std::string_view::npos)
                    fail(fmt::format("index '{}' is not TYPE:GP", w));
                t = std::string(w.substr(0, colon));
                index = w.substr(colon + 1);
            }
            const auto i = number(index);
            const auto& known = by_os && !hetero ? objects->os : objects->gp;
            if (!i || !known.count({t, *i}))
                fail(fmt::format("names {} {}{}, which the export does not hold", t,
                                 by_os && !hetero ? "P#" : "gp_index ", index));
        }
    }
}

void check_export_before_hwloc(const pugi::xml_document& doc, std::string_view buffer,
                               const std::string& source) {
    refuse_known_hwloc_crashes(doc, buffer, source);
    check_distance_matrices(doc, buffer, source);
}

} // namespace nettopo::detail
