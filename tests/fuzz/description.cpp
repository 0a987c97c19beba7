// The text description (formats/description.hpp). Oracles: a refusal is an
// InputError naming the file; what is read writes an archive that reads
// back to the same archive, and write_description (when the description
// format can hold the cluster) writes a description that reads back to it.
#include "nettopo/formats/description.hpp"

#include "fuzz_target.hpp"

#include <optional>
#include <sstream>

using namespace nettopo;
using namespace nettopo::fuzz;

NETTOPO_FUZZ_TARGET(description) {
    const std::string text(text_of(data, size));
    const std::string source = "fuzz.topo";
    std::optional<Cluster> cluster;
    std::istringstream in(text);
    if (!accepted([&] { cluster.emplace(read_description(in, source, fuzz_load_options())); },
                  Refusal::input_named, source))
        return;
    const std::string archive = archive_text(*cluster);
    require_same("description -> archive -> archive", archive,
                 archive_text(read_back_archive(archive)));

    std::ostringstream written;
    // UsageError: what the description format cannot hold (a name that is
    // not one token, ...), said before writing anything.
    if (!accepted([&] { write_description(*cluster, written); }, Refusal::any_error)) return;
    std::istringstream again(written.str());
    const Cluster back = must("reading back a description the library wrote",
                              [&] { return read_description(again, "written.topo"); });
    require_same("description -> description -> archive", archive, archive_text(back));
}
