// The balance CSVs (balance/mapping_io.hpp): task loads, task graph,
// mapping, PE speeds, and the logical Open MPI rankfile; the first byte
// chooses the reader, the rest is the file. The cluster is a fixed small
// one (4 machines x 4 PEs) and the tasks 16. Oracles: a refusal is an
// InputError naming the file; a mapping and a rankfile read are written
// back (write_mapping, write_rankfile) and read again to the same mapping.
#include "fuzz_target.hpp"
#include "nettopo/balance/mapping_io.hpp"
#include "nettopo/gen/generate.hpp"

#include <sstream>

using namespace nettopo;
using namespace nettopo::fuzz;

namespace {

constexpr std::uint32_t num_tasks = 16;

const Cluster& small_cluster() {
    static const Cluster cluster = generate_from_spec("ring --machines 4 --machine 'pack:2 pu:2'");
    return cluster;
}

void require_mapping_reads_back(const std::vector<PeId>& mapping, bool rankfile) {
    std::ostringstream out;
    must("writing a mapping", [&] {
        if (rankfile)
            write_rankfile(out, small_cluster(), mapping);
        else
            write_mapping(out, mapping);
    });
    const TempFile file(out.str());
    const auto back = must("reading back a mapping the library wrote", [&] {
        return rankfile ? read_rankfile(file.path(), small_cluster())
                        : read_mapping(file.path(), small_cluster(),
                                       static_cast<std::uint32_t>(mapping.size()));
    });
    if (back != mapping)
        fail(rankfile ? "rankfile -> rankfile differs" : "mapping -> mapping differs", out.str());
}

} // namespace

NETTOPO_FUZZ_TARGET(balance_csv) {
    if (size == 0) return;
    const TempFile file(text_of(data + 1, size - 1));
    const std::string& path = file.path();
    const Cluster& cluster = small_cluster();
    std::vector<PeId> mapping;
    switch (data[0] % 5) {
    case 0:
        accepted([&] { (void)read_task_loads(path); }, Refusal::input_named, path);
        break;
    case 1:
        accepted([&] { (void)read_task_graph(path, num_tasks); }, Refusal::input_named, path);
        break;
    case 2:
        if (accepted([&] { mapping = read_mapping(path, cluster, num_tasks); },
                     Refusal::input_named, path))
            require_mapping_reads_back(mapping, false);
        break;
    case 3:
        accepted([&] { (void)read_pe_speeds(path, cluster); }, Refusal::input_named, path);
        break;
    default:
        if (accepted([&] { mapping = read_rankfile(path, cluster); }, Refusal::input_named, path))
            require_mapping_reads_back(mapping, true);
        break;
    }
}
