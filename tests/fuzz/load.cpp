// load_cluster on a file (formats/load.hpp): the recognition by content and
// the hwloc XML export reader (hwloc/hwloc_source.hpp). hwloc parses in a
// child process, as in the tools (common/child_process_sandbox.hpp): hwloc
// 2.9 crashes on some malformed exports (tests/data/hwloc-crasher*.xml),
// which is hwloc's bug and would stop every run. The price: what runs in the
// child (hwloc, and the conversion into a MachineTree) gives libFuzzer no
// coverage, and a crash there is an InputError, not a finding. Oracles: a refusal is an InputError
// naming the file; what is read writes an archive that reads back to the same archive.
#include "nettopo/formats/load.hpp"

#include "common/child_process_sandbox.hpp"
#include "fuzz_target.hpp"

#include <optional>

using namespace nettopo;
using namespace nettopo::fuzz;

NETTOPO_FUZZ_TARGET(load) {
    const std::string_view text = text_of(data, size);
    const TempFile file(text);
    const ChildProcessSandbox sandbox;
    LoadOptions options = fuzz_load_options();
    options.hwloc_sandbox = &sandbox;
    std::optional<Cluster> cluster;
    if (!accepted([&] { cluster.emplace(load_cluster(file.path(), options)); },
                  Refusal::input_named, file.path()))
        return;
    const std::string written = archive_text(*cluster);
    require_same("load -> archive -> archive", written, archive_text(read_back_archive(written)));
}
