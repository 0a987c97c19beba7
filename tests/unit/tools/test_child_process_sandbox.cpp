// The tools' hwloc sandbox (tools/common/child_process_sandbox.hpp): hwloc
// parses in a forked child; the tree comes back whole, errors come back as
// they were thrown, and a crash of hwloc is an InputError naming the file,
// after which the process goes on.
#include "common/child_process_sandbox.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/hwloc/host_exports.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/real_data.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <string>
#include <unistd.h>

using namespace nettopo;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// hwloc 2.9 dies on it (SIGSEGV, as lstopo -i does): two PUs side by side
// without complete_cpuset, which nothing refuses before hwloc.
const std::string siblings_crasher = NETTOPO_TEST_DATA "/hwloc-crasher-siblings.xml";

} // namespace

TEST_CASE("child process sandbox: trees come back equal, parsed in another process",
          "[child_process_sandbox]") {
    const ChildProcessSandbox sandbox;
    for (const std::string& f : test::real_xmls()) {
        INFO(f);
        const HwlocMachine in_process = load_hwloc_xml(f);
        const HwlocMachine sandboxed = load_hwloc_xml(f, &sandbox);
        CHECK(sandboxed.tree == in_process.tree);
        CHECK(sandboxed.hostname == in_process.hostname);
    }
    CHECK(tree_from_synthetic("pack:2 l3:1 core:4 pu:2", &sandbox) ==
          tree_from_synthetic("pack:2 l3:1 core:4 pu:2"));
    // The parse runs in a child: not this process.
    const pid_t parent = ::getpid();
    const HwlocMachine m = sandbox.run("test", [&] {
        HwlocMachine r;
        r.tree = tree_from_synthetic("pu:2");
        r.hostname = ::getpid() == parent ? "parent" : "child";
        return r;
    });
    CHECK(m.hostname == "child");
    CHECK(m.tree.num_pus() == 2);
}

TEST_CASE("child process sandbox: errors come back as thrown", "[child_process_sandbox]") {
    const ChildProcessSandbox sandbox;
    try {
        sandbox.run("source", []() -> HwlocMachine { throw InputError("f.xml", 7, "bad"); });
        FAIL("no InputError");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == "f.xml:7: bad");
        CHECK(e.file() == "f.xml");
        CHECK(e.line() == 7);
    }
    try {
        sandbox.run("source", []() -> HwlocMachine { throw InputError("no place"); });
        FAIL("no InputError");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == "no place");
        CHECK(e.file().empty());
    }
    try {
        sandbox.run("source", []() -> HwlocMachine { throw std::runtime_error("other"); });
        FAIL("no InputError");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == "other");
    }
    CHECK_THROWS_WITH(tree_from_synthetic("pu:4(indexes=0,0,0,0)", &sandbox),
                      Contains("hwloc built 1 PUs"));
}

TEST_CASE("child process sandbox: a crash is an InputError naming the source",
          "[child_process_sandbox]") {
    const ChildProcessSandbox sandbox;
    CHECK_THROWS_WITH(sandbox.run("where.xml",
                                  []() -> HwlocMachine {
                                      std::raise(SIGSEGV);
                                      return {};
                                  }),
                      "where.xml: hwloc crashed reading this (signal 11): the export is "
                      "malformed or incomplete");
    CHECK_THROWS_WITH(sandbox.run("where.xml", []() -> HwlocMachine { ::_exit(3); }),
                      StartsWith("where.xml: hwloc crashed reading this (exit status 3)"));

    // A real crash of hwloc 2.9, through each loader.
    REQUIRE(fs::exists(siblings_crasher));
    const std::string crashed = siblings_crasher + ": hwloc crashed reading this";
    CHECK_THROWS_WITH(load_hwloc_xml(siblings_crasher, &sandbox), StartsWith(crashed));
    LoadOptions options;
    options.hwloc_sandbox = &sandbox;
    CHECK_THROWS_WITH(load_cluster(siblings_crasher, options), StartsWith(crashed));
    CHECK_THROWS_WITH(load_host_exports({siblings_crasher}, &sandbox), StartsWith(crashed));
    // The process is still fine: a good export loads afterwards.
    CHECK(load_cluster(NETTOPO_SHARED_DATA "/hwloc-xml/16em64t-4s2c2t.xml", options).num_pes() ==
          16);
}
