// The XML archive (formats/archive.hpp). Oracles: a refusal is an
// InputError naming the file; what is read writes an archive that reads
// back to the same archive text.
#include "nettopo/formats/archive.hpp"

#include "fuzz_target.hpp"

#include <optional>
#include <sstream>

using namespace nettopo;
using namespace nettopo::fuzz;

NETTOPO_FUZZ_TARGET(archive) {
    const std::string text(text_of(data, size));
    const std::string source = "fuzz.xml";
    std::optional<Cluster> cluster;
    std::istringstream in(text);
    if (!accepted([&] { cluster.emplace(read_archive(in, source, fuzz_load_options())); },
                  Refusal::input_named, source))
        return;
    const std::string written = archive_text(*cluster);
    require_same("archive -> archive -> archive", written,
                 archive_text(read_back_archive(written)));
}
