// Where hwloc parses a user's input (hwloc_sandbox.hpp): in the calling
// thread when no sandbox is given, forking nothing and safe from several
// threads at once; through the caller's sandbox, once per file or
// description, when one is given.
#include "nettopo/hwloc/host_exports.hpp"
#include "nettopo/hwloc/hwloc_sandbox.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/counting_sandbox.hpp"
#include "testkit/real_data.hpp"
#include "testkit/temp_dir.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <hwloc.h>
#include <pthread.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace nettopo;
namespace fs = std::filesystem;

namespace {

using test::CountingSandbox;
using test::TempDir;

std::atomic<int> forks{0};

// The forks of this process so far, counted from the first call:
// pthread_atfork's first handler runs in the parent before every fork().
int forks_so_far() {
    static const bool counting = pthread_atfork([] { forks.fetch_add(1); }, nullptr, nullptr) == 0;
    REQUIRE(counting);
    return forks.load();
}

const fs::path avakas_dir = fs::path(NETTOPO_SHARED_DATA) / "clusters" / "avakas" / "hwloc";
const std::string crasher = NETTOPO_TEST_DATA "/hwloc-crasher.xml";
const std::string small_export = NETTOPO_SHARED_DATA "/hwloc-xml/16em64t-4s2c2t.xml";

// A full export and a diff against it (avakas' node001 and node015), copied
// into `dir`; false if the shared data is absent.
bool export_and_diff(const TempDir& dir) {
    if (!fs::is_directory(avakas_dir)) {
        WARN("shared data absent, skipped: " << avakas_dir.string());
        return false;
    }
    fs::copy_file(avakas_dir / "node001.xml", dir.path / "node001.xml");
    fs::copy_file(avakas_dir / "node015.diff.xml", dir.path / "node015.diff.xml");
    return true;
}

} // namespace

TEST_CASE("hwloc sandbox: without one, hwloc parses in the calling process", "[hwloc_sandbox]") {
    const int before = forks_so_far();
    CHECK(tree_from_synthetic("pack:2 core:2 pu:2").num_pus() == 8);
    CHECK(load_hwloc_xml(small_export).tree.num_pus() == 16);
    const TempDir tmp("nettopo-sandbox-none-");
    if (export_and_diff(tmp)) CHECK(load_host_exports({tmp.path.string()}).size() == 2);
    CHECK_THROWS_AS(load_hwloc_xml(crasher), InputError);
    CHECK(forks_so_far() == before);
    // The count works: a fork of the test's own is seen.
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    REQUIRE(child > 0);
    int status = 0;
    ::waitpid(child, &status, 0);
    CHECK(forks_so_far() == before + 1);
}

TEST_CASE("hwloc sandbox: the caller's sandbox runs every parse, once per file or description",
          "[hwloc_sandbox]") {
    const CountingSandbox sandbox;
    const MachineTree tree = tree_from_synthetic("pack:2 core:2 pu:2", &sandbox);
    CHECK(tree == tree_from_synthetic("pack:2 core:2 pu:2"));
    CHECK(sandbox.sources() == std::vector<std::string>{"pack:2 core:2 pu:2"});

    const CountingSandbox xml;
    CHECK(load_hwloc_xml(small_export, &xml).tree == load_hwloc_xml(small_export).tree);
    CHECK(xml.sources() == std::vector<std::string>{small_export});

    const TempDir tmp("nettopo-sandbox-hosts-");
    if (!export_and_diff(tmp)) return;
    const CountingSandbox hosts;
    const std::vector<HostExport> loaded = load_host_exports({tmp.path.string()}, &hosts);
    REQUIRE(loaded.size() == 2);
    // The diff is applied in one run (the reference loaded inside it).
    CHECK(hosts.sources() ==
          std::vector<std::string>{tmp / "node001.xml", tmp / "node015.diff.xml"});
    const std::vector<HostExport> unsandboxed = load_host_exports({tmp.path.string()});
    CHECK(loaded[1].tree == unsandboxed[1].tree);
    CHECK(loaded[1].name == unsandboxed[1].name);

    // What is refused before hwloc never reaches the sandbox.
    const CountingSandbox refused;
    CHECK_THROWS_AS(load_hwloc_xml(crasher, &refused), InputError);
    CHECK_THROWS_AS(tree_from_synthetic("pack:2 core:x pu:1", &refused), InputError);
    CHECK(refused.runs() == 0);
}

TEST_CASE("hwloc sandbox: without one, loading from several threads at once", "[hwloc_sandbox]") {
    const std::vector<std::string> files = test::real_xmls();
    REQUIRE(files.size() >= 17);
    const std::string synthetic = "pack:2 l3:1 core:4 pu:2";
    std::vector<MachineTree> expected;
    for (const std::string& f : files) expected.push_back(load_hwloc_xml(f).tree);
    const MachineTree expected_synthetic = tree_from_synthetic(synthetic);

    // Debian's hwloc loads its plugins (the libxml2 one among them) with the
    // first topology and unloads them with the last; unloading libxml2 drops
    // its per-thread state key, so a thread that parsed an export and exits
    // afterwards leaks that state (968 bytes, seen by LeakSanitizer). One
    // topology kept alive keeps the plugins loaded, as in a program that
    // keeps what it loaded.
    hwloc_topology_t keep_plugins_loaded = nullptr;
    REQUIRE(hwloc_topology_init(&keep_plugins_loaded) == 0);
    const int before = forks_so_far();
    constexpr int threads = 4;
    std::vector<std::vector<MachineTree>> got(threads);
    std::vector<MachineTree> got_synthetic(threads);
    std::vector<std::string> errors(threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            try {
                // Each thread in its own order, so that different files overlap.
                for (std::size_t i = 0; i < files.size(); ++i)
                    got[t].push_back(
                        load_hwloc_xml(files[(i + static_cast<std::size_t>(t) * 5) % files.size()])
                            .tree);
                got_synthetic[t] = tree_from_synthetic(synthetic);
                try {
                    load_hwloc_xml(crasher);
                    errors[t] = "the crasher loaded";
                } catch (const InputError&) {
                }
            } catch (const std::exception& e) {
                errors[t] = e.what();
            }
        });
    for (std::thread& th : pool) th.join();
    hwloc_topology_destroy(keep_plugins_loaded);
    CHECK(forks_so_far() == before);
    for (int t = 0; t < threads; ++t) {
        INFO("thread " << t);
        CHECK(errors[t].empty());
        REQUIRE(got[t].size() == files.size());
        for (std::size_t i = 0; i < files.size(); ++i)
            CHECK(got[t][i] == expected[(i + static_cast<std::size_t>(t) * 5) % files.size()]);
        CHECK(got_synthetic[t] == expected_synthetic);
    }
}
