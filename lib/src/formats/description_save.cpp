#include "nettopo/formats/description.hpp"
#include "nettopo/support/detail/atomic_file.hpp"

namespace nettopo {

void save_description(const Cluster& cluster, const std::string& path, Progress* progress,
                      const HwlocSandbox* hwloc_sandbox) {
    write_atomically(
        path, [&](std::ostream& out) { write_description(cluster, out, progress, hwloc_sandbox); });
    if (progress) progress->finish();
}

} // namespace nettopo
