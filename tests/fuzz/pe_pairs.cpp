// The PE-pair files of nettopo-query --pairs: read_pe_pairs of
// tools/nettopo-query (compiled into this target, not moved), over a fixed
// small cluster (4 machines x 4 PEs), PEs as ids or, when the first byte is
// odd, as HOST:OS. Oracles: a refusal is an InputError naming the file;
// every PE read is in the cluster and its printed form reads back to it.
#include "fuzz_target.hpp"
#include "nettopo-query/pe_naming.hpp"
#include "nettopo-query/query_printer.hpp"
#include "nettopo/gen/generate.hpp"

#include <sstream>

using namespace nettopo;
using namespace nettopo::fuzz;

NETTOPO_FUZZ_TARGET(pe_pairs) {
    if (size == 0) return;
    static const Cluster cluster = generate_from_spec("ring --machines 4 --machine 'pack:2 pu:2'");
    const PeNaming naming(cluster, nullptr, (data[0] & 1) != 0);
    const std::string source = "fuzz.pairs";
    std::istringstream in{std::string(text_of(data + 1, size - 1))};
    std::vector<std::pair<PeId, PeId>> pairs;
    if (!accepted([&] { pairs = read_pe_pairs(in, source, naming); }, Refusal::input_named, source))
        return;
    for (const auto& [a, b] : pairs)
        for (const PeId pe : {a, b}) {
            if (pe.value >= cluster.num_pes()) fail("a pair's PE is not in the cluster");
            const std::string text = must("PeNaming::pe_text", [&] { return naming.pe_text(pe); });
            std::string why;
            const auto back = naming.parse_pe(text, why);
            if (!back || *back != pe)
                fail("a PE's printed form does not read back to it", text + " " + why);
        }
}
