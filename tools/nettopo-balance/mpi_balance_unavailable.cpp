// nettopo-balance built without MPI: --mpi is a usage error that says why.
#include "common/tool_support.hpp"
#include "nettopo-balance/mpi_balance.hpp"
#include "nettopo/support/error.hpp"

namespace nettopo {

int report_mpi_usage_error(std::string_view tool, std::string_view message) {
    return report_usage_error(tool, message);
}

int balance_over_mpi(const MpiBalanceOptions& options) {
    return run_guarded(options.tool, []() -> int {
        throw UsageError("--mpi: this nettopo-balance was built without MPI (install Open MPI, "
                         "e.g. Debian's libopenmpi-dev and openmpi-bin, and configure again; "
                         "NETTOPO_MPI=ON makes it required)");
    });
}

} // namespace nettopo
