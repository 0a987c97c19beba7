#include "atomic_file.hpp"
#include "nettopo/description.hpp"

namespace nettopo {

void save_description(const Cluster& cluster, const std::string& path, Progress* progress) {
    detail::write_atomically(path,
                             [&](std::ostream& out) { write_description(cluster, out, progress); });
    if (progress) progress->finish();
}

} // namespace nettopo
