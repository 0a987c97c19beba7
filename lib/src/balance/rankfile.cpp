// Open MPI rankfiles (mpirun --rankfile / -rf): one line per MPI rank,
// "rank N=HOST slot=P". Of the slot forms Open MPI takes (a logical CPU
// "P", ranges "P-Q", or "SOCKET:CORE"), we write the plain logical index:
// with one PE per PU it names the PU directly, whatever the machine's
// sockets, and it is the PU's logical index in hwloc's order, which is
// Open MPI's own numbering of slots (PUs with --use-hwthread-cpus, cores
// otherwise: on SMT machines run with --use-hwthread-cpus). Physical slots
// are the PUs' OS indexes, read by Open MPI with rmaps_rank_file_physical=1
// (as the PU itself with --use-hwthread-cpus, else as the core holding it).
#include "nettopo/balance/mapping_io.hpp"
#include "nettopo/model/detail/name_hint.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <ostream>

namespace nettopo {

void write_rankfile(std::ostream& out, const Cluster& cluster, std::span<const PeId> mapping,
                    RankfileSlots slots) {
    std::string text;
    for (std::size_t rank = 0; rank < mapping.size(); ++rank) {
        const PeId pe = cluster.require_pe(mapping[rank].value);
        const MachineId m = cluster.machine_of(pe);
        std::uint32_t slot = cluster.local_pu(pe);
        if (slots == RankfileSlots::physical) {
            const MachineTree& tree = cluster.machine_type(m).tree();
            slot = tree.object(tree.pu(slot)).os_index;
            if (slot == unknown_os_index)
                throw ValueError(std::string(cluster.machine_name(m)),
                                 fmt::format("PU L#{} has no OS index for a physical rankfile",
                                             cluster.local_pu(pe)));
        }
        fmt::format_to(std::back_inserter(text), "rank {}={} slot={}\n", rank,
                       cluster.machine_name(m), slot);
    }
    out << text;
}

std::vector<PeId> read_rankfile(const std::string& path, const Cluster& cluster) {
    std::ifstream in(path);
    if (!in) throw InputError(path, 0, "cannot open the file");
    struct Row {
        std::size_t line;
        std::uint32_t rank;
        PeId pe;
    };
    std::vector<Row> rows;
    std::string text;
    std::size_t line = 0;
    while (std::getline(in, text)) {
        ++line;
        std::vector<std::string_view> words;
        for_each_token(text, [&](std::string_view w) { words.push_back(w); });
        if (words.empty() || words.front().front() == '#') continue;
        const auto bad = [&](const std::string& what) { return InputError(path, line, what); };
        if (words.size() != 3 || words[0] != "rank")
            throw bad(fmt::format("expected 'rank N=HOST slot=P', found '{}'", text));
        const std::size_t eq = words[1].find('=');
        if (eq == std::string_view::npos)
            throw bad(fmt::format("expected N=HOST after 'rank', found '{}'", words[1]));
        const auto rank = parse_uint(words[1].substr(0, eq));
        if (!rank || *rank >= std::numeric_limits<std::uint32_t>::max())
            throw bad(fmt::format("rank '{}' is not a whole number", words[1].substr(0, eq)));
        const std::string_view host = words[1].substr(eq + 1);
        const auto machine = cluster.find_machine(host);
        if (!machine)
            throw bad(with_hint(fmt::format("host '{}' is not in the cluster", host),
                                machine_name_hint(cluster, host)));
        if (!words[2].starts_with("slot="))
            throw bad(fmt::format("expected slot=P, found '{}'", words[2]));
        const std::string_view slot_text = words[2].substr(5);
        const auto slot = parse_uint(slot_text);
        if (!slot)
            throw bad(fmt::format("slot '{}': only a single logical PU index is read (not "
                                  "socket:core or ranges)",
                                  slot_text));
        const PeRange pes = cluster.pes_of_machine(*machine);
        if (*slot >= pes.count)
            throw bad(fmt::format("slot {} out of range: host {} has {} PUs, 0..{}", *slot, host,
                                  pes.count, pes.count - 1));
        rows.push_back(
            {line, static_cast<std::uint32_t>(*rank), pes[static_cast<std::uint32_t>(*slot)]});
    }
    // As many ranks as lines: out of range, duplicates and (by counting)
    // missing ranks all show as a line to point at.
    std::vector<PeId> mapping(rows.size());
    std::vector<std::size_t> line_of(rows.size(), 0);
    for (const Row& r : rows) {
        if (r.rank >= rows.size())
            throw InputError(path, r.line,
                             fmt::format("rank {} out of range: the file has {} ranks, 0..{}",
                                         r.rank, rows.size(), rows.size() - 1));
        if (line_of[r.rank] != 0)
            throw InputError(
                path, r.line,
                fmt::format("rank {} given twice (first on line {})", r.rank, line_of[r.rank]));
        line_of[r.rank] = r.line;
        mapping[r.rank] = r.pe;
    }
    return mapping;
}

} // namespace nettopo
