// nettopo-discover built without MPI: --mpi is a usage error that says why.
#include "common/tool_support.hpp"
#include "nettopo-discover/mpi_gather.hpp"

namespace nettopo {

int discover_over_mpi(const MpiDiscoverOptions& options) {
    return run_guarded(options.tool, []() -> int {
        throw UsageError("--mpi: this nettopo-discover was built without MPI (install Open MPI, "
                         "e.g. Debian's libopenmpi-dev and openmpi-bin, and configure again; "
                         "NETTOPO_MPI=ON makes it required)");
    });
}

} // namespace nettopo
