// ibnetdiscover's node-name map (fabric/fabric.hpp). Oracles: a refusal is
// an InputError naming the file; every name is non-empty, trimmed and free
// of '"' and '#' (the reader stops there), and the map written back one
// "0xGUID \"name\"" a line reads to the same map.
#include "fuzz_target.hpp"
#include "nettopo/fabric/fabric.hpp"

#include <cstdio>
#include <sstream>

using namespace nettopo;
using namespace nettopo::fuzz;

NETTOPO_FUZZ_TARGET(node_name_map) {
    const std::string source = "fuzz.map";
    std::istringstream in{std::string(text_of(data, size))};
    NodeNameMap map;
    if (!accepted([&] { map = read_node_name_map(in, source); }, Refusal::input_named, source))
        return;
    std::ostringstream written;
    for (const auto& [guid, name] : map.names) {
        if (name.empty() || name.find_first_of("\"#\n") != std::string::npos ||
            name.front() == ' ' || name.back() == ' ' || name.front() == '\t' ||
            name.back() == '\t')
            fail("a node-name map name the reader should not give", name);
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(guid));
        written << hex << " \"" << name << "\"\n";
    }
    std::istringstream again(written.str());
    const NodeNameMap back = must("reading back a node-name map",
                                  [&] { return read_node_name_map(again, "written.map"); });
    if (back.names != map.names)
        fail("node-name map -> text -> node-name map differs", written.str());
}
