// Host files (support/hostfile.hpp). Oracles: a refusal is an InputError
// naming the file; the hosts are distinct single words without '=' or '#',
// and written one a line they read back to the same list.
#include "nettopo/support/hostfile.hpp"

#include "fuzz_target.hpp"

#include <set>
#include <sstream>

using namespace nettopo;
using namespace nettopo::fuzz;

NETTOPO_FUZZ_TARGET(hostfile) {
    const std::string source = "fuzz.hosts";
    std::istringstream in{std::string(text_of(data, size))};
    std::vector<std::string> hosts;
    if (!accepted([&] { hosts = read_hostfile(in, source); }, Refusal::input_named, source)) return;
    std::set<std::string> seen;
    std::string written;
    for (const std::string& host : hosts) {
        if (host.empty() || host.find_first_of(" \t\r\n=#") != std::string::npos)
            fail("a host name that is not one word", host);
        if (!seen.insert(host).second) fail("a host given twice", host);
        written += host + "\n";
    }
    std::istringstream again(written);
    if (must("reading back a host file", [&] { return read_hostfile(again, "written.hosts"); }) !=
        hosts)
        fail("host file -> text -> host file differs", written);
}
