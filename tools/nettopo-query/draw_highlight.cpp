// draw's highlight in the job's terms (draw_highlight.hpp).
#include "nettopo-query/draw_highlight.hpp"

#include "common/dot_highlight.hpp"
#include "nettopo/support/error.hpp"

#include <string>
#include <string_view>

namespace nettopo {

namespace {

// One end of path:A,B: a PE as PeNaming reads it, else a machine whose first
// PE stands for it.
PeId path_end(const Run& r, std::string_view end) {
    const bool pe_form = !end.empty() && (end.find_first_not_of("0123456789") == end.npos ||
                                          (r.naming.physical() && end.find(':') != end.npos));
    if (pe_form) return r.naming.require_pe(end);
    const std::vector<MachineId> machines = r.naming.require_machines(end);
    if (machines.size() != 1)
        throw UsageError("--highlight path:A,B: '" + std::string(end) + "' names " +
                         std::to_string(machines.size()) + " machines, not one");
    return r.cluster.pes_of_machine(machines.front())[0];
}

} // namespace

std::optional<DotHighlight> draw_highlight(const Run& r) {
    const std::string& text = r.o.highlight;
    if (text.empty()) {
        if (!r.view) return std::nullopt;
        return highlight_machines(r.cluster, r.view->machines());
    }
    // A hostlist, or a path between cluster-wide logical PE ids: the
    // library reads the text itself.
    if (!text.starts_with("path:") || (!r.view && !r.naming.physical()))
        return read_named("--highlight", [&] { return read_dot_highlight(r.cluster, text); });
    const std::string_view ends = std::string_view(text).substr(5);
    const std::size_t comma = ends.find(',');
    if (comma == ends.npos || ends.find(',', comma + 1) != ends.npos)
        throw UsageError("--highlight " + text +
                         ": expected path:A,B, A and B each a PE or a machine name");
    return highlight_path(r.cluster, path_end(r, ends.substr(0, comma)),
                          path_end(r, ends.substr(comma + 1)));
}

} // namespace nettopo
