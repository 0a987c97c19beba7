// ibnetdiscover's output, both formats (fabric/fabric.hpp): the topology
// file and the per-port report of -p, recognised by content. Oracles: a
// refusal is an InputError naming the file; the fabric keeps fabric.hpp's
// promises (check_fabric); assembled with one-PU hosts, its archive reads
// back to the same archive.
#include "fabric_oracle.hpp"
#include "fuzz_target.hpp"

#include <sstream>

using namespace nettopo;
using namespace nettopo::fuzz;

NETTOPO_FUZZ_TARGET(ibnetdiscover) {
    const std::string source = "fuzz.ibnet";
    std::istringstream in{std::string(text_of(data, size))};
    Fabric fabric;
    if (!accepted([&] { fabric = read_ibnetdiscover(in, source); }, Refusal::input_named, source))
        return;
    check_fabric(fabric);
    if (const auto cluster = assembled(fabric)) {
        const std::string written = archive_text(*cluster);
        require_same("ibnetdiscover -> archive -> archive", written,
                     archive_text(read_back_archive(written)));
    }
}
