// hwloc topology diffs (hwloc/host_exports.hpp): the input is a diff,
// written beside the reference export its refname names when that is one
// of the real full exports of the shared data's clusters (avakas: node001,
// bigmem01, ...; the seeds are its 264 real diffs), so that mutations reach
// hwloc's diff import and patch, not only "no such reference". hwloc runs in
// a child process, as in the tools (see load.cpp for why and its price).
// Oracles: a refusal is an InputError naming the diff; an accepted diff is
// one host with a PU, and its cluster's archive reads back to the same.
#include "common/child_process_sandbox.hpp"
#include "fuzz_target.hpp"
#include "nettopo/assemble/assemble.hpp"
#include "nettopo/hwloc/host_exports.hpp"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>

using namespace nettopo;
using namespace nettopo::fuzz;
namespace fs = std::filesystem;

namespace {

// Every full export of DATA/clusters/*/hwloc/ by file name: what a diff's
// refname may name. DATA is $NETTOPO_SHARED_DATA, else the build's
// NETTOPO_SHARED_DATA; none there, the map is empty and every diff is
// refused for want of its reference (still an oracle: the refusal must
// name the diff).
std::map<std::string, fs::path> find_references() {
    const char* env = std::getenv("NETTOPO_SHARED_DATA");
    const fs::path data = env != nullptr ? env : NETTOPO_FUZZ_SHARED_DATA;
    std::map<std::string, fs::path> references;
    std::error_code ec;
    for (const auto& cluster : fs::directory_iterator(data / "clusters", ec)) {
        std::error_code inner;
        for (const auto& file : fs::directory_iterator(cluster.path() / "hwloc", inner)) {
            const std::string name = file.path().filename().string();
            if (name.ends_with(".xml") && !name.ends_with(".diff.xml"))
                references.emplace(name, file.path());
        }
    }
    return references;
}

// The refname="..." of the text, if it is a plain file name.
std::optional<std::string> refname_of(std::string_view text) {
    constexpr std::string_view key = "refname=\"";
    const std::size_t at = text.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    const std::size_t start = at + key.size();
    const std::size_t end = text.find('"', start);
    if (end == std::string_view::npos) return std::nullopt;
    const std::string name(text.substr(start, end - start));
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
        name.find('\0') != std::string::npos)
        return std::nullopt;
    return name;
}

} // namespace

NETTOPO_FUZZ_TARGET(hwloc_diff) {
    // Found once per process: the directory walk would otherwise cost more
    // than most inputs.
    static const std::map<std::string, fs::path> references = find_references();
    const std::string_view text = text_of(data, size);
    const TempDir dir;
    if (const auto ref = refname_of(text))
        if (const auto found = references.find(*ref); found != references.end())
            fs::create_symlink(found->second, dir.path() / *ref);
    const std::string diff = (dir.path() / "fuzz.diff.xml").string();
    write_file(diff, text);
    const ChildProcessSandbox sandbox;
    std::vector<HostExport> hosts;
    if (!accepted([&] { hosts = load_host_exports({diff}, &sandbox); }, Refusal::input_named, diff))
        return;
    if (hosts.size() != 1) fail("a diff read as other than one host");
    if (hosts.front().tree.num_pus() == 0) fail("a diff read as a machine without a PU");
    AssembleOptions options;
    options.name = "fuzz";
    std::optional<Cluster> cluster;
    if (!accepted([&] { cluster.emplace(assemble_cluster(hosts, nullptr, options).cluster); },
                  Refusal::any_error))
        return;
    const std::string written = archive_text(*cluster);
    require_same("hwloc diff -> archive -> archive", written,
                 archive_text(read_back_archive(written)));
}
