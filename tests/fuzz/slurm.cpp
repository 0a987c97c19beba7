// Slurm's topology.conf and topology.yaml (fabric/fabric.hpp), recognised
// by content. Oracles: a refusal is an InputError naming the file; the
// fabric keeps fabric.hpp's promises (check_fabric); assembled with one-PU
// hosts and written as topology.conf (fabric/slurm_writer.hpp), it reads
// back to the same topology.conf (but for LinkSpeed, which the reader
// ignores), and written as topology.yaml, to that topology.conf again.
#include "fabric_oracle.hpp"
#include "fuzz_target.hpp"
#include "nettopo/fabric/slurm_writer.hpp"

#include <regex>
#include <sstream>

using namespace nettopo;
using namespace nettopo::fuzz;

namespace {

std::string conf_of(const Cluster& cluster) {
    std::ostringstream out;
    write_slurm_topology(cluster, out);
    return out.str();
}

// What the reader ignores: the LinkSpeed comment and fields.
std::string without_speed(const std::string& conf) {
    std::istringstream in(conf);
    std::string line, kept;
    static const std::regex speed(" LinkSpeed=[0-9]*$");
    while (std::getline(in, line))
        if (line.rfind("# LinkSpeed", 0) != 0) kept += std::regex_replace(line, speed, "") + "\n";
    return kept;
}

// `text` read (must be) and assembled again, as topology.conf.
std::string again(const std::string& text, const std::string& source) {
    std::istringstream in(text);
    const Fabric fabric =
        must("reading back Slurm topology", [&] { return read_slurm_topology(in, source); });
    const auto cluster = assembled(fabric);
    if (!cluster) fail("a written Slurm topology does not assemble again", text);
    return must("write_slurm_topology", [&] { return conf_of(*cluster); });
}

} // namespace

NETTOPO_FUZZ_TARGET(slurm) {
    const std::string text(text_of(data, size));
    const std::string source = "fuzz.conf";
    std::istringstream in(text);
    Fabric fabric;
    if (!accepted([&] { fabric = read_slurm_topology(in, source, fuzz_limits()); },
                  Refusal::input_named, source))
        return;
    check_fabric(fabric);
    const auto cluster = assembled(fabric);
    if (!cluster) return;
    std::string conf;
    // UsageError: a cluster topology.conf cannot hold.
    if (!accepted([&] { conf = conf_of(*cluster); }, Refusal::any_error)) return;
    const std::string bare = without_speed(conf);
    require_same("Slurm -> topology.conf -> topology.conf", bare, again(conf, "written.conf"));
    std::ostringstream yaml;
    must("write_slurm_topology_yaml", [&] { write_slurm_topology_yaml(*cluster, yaml); });
    require_same("Slurm -> topology.yaml -> topology.conf", bare,
                 again(yaml.str(), "written.yaml"));
}
