// replace_file_atomically: what a write leaves beside its target while it
// runs, when it fails, and what the next write removes of a killed one
// (share/doc/archive-format.md, "Interrupted writes and concurrent readers").
#include "nettopo/support/detail/atomic_file.hpp"
#include "nettopo/support/error.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <sys/file.h>
#include <unistd.h>
#include <vector>

using namespace nettopo;
using nettopo::test::read_file;
using nettopo::test::TempDir;

namespace {

void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    REQUIRE(out);
}

// Whether the filesystem of `dir` has unnamed files (O_TMPFILE).
bool has_unnamed_files(const std::string& dir) {
    const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    ::close(fd);
    return true;
}

} // namespace

TEST_CASE("atomic file: while it is written, the new file has no name", "[atomic_file]") {
    const TempDir dir("nettopo-atomic-");
    const std::string target = dir / "t.xml";
    write_text(target, "old");
    write_atomically(target, [&](std::ostream& out) {
        out << "new";
        const std::vector<std::string> entries = dir.entries();
        if (has_unnamed_files(dir.path.string())) {
            CHECK(entries == std::vector<std::string>{"t.xml"}); // a kill now leaves nothing
            remove_pending_temporaries(); // what a signal handler does: nothing to remove
        } else {
            REQUIRE(entries.size() == 2);
            CHECK(entries[1].rfind("t.xml.tmp.", 0) == 0);
        }
        CHECK(read_file(target) == "old");
    });
    CHECK(read_file(target) == "new");
    CHECK(dir.entries() == std::vector<std::string>{"t.xml"});
}

TEST_CASE("atomic file: the name given to fill works in a child process", "[atomic_file]") {
    // As `dot -o FILE` is given it (tools/common/drawing.cpp).
    const TempDir dir("nettopo-atomic-");
    const std::string target = dir / "drawing.svg";
    replace_file_atomically(target, [](const std::string& file) {
        REQUIRE(std::system(fmt::format("echo child > '{}'", file).c_str()) == 0);
    });
    CHECK(read_file(target) == "child\n");
    CHECK(dir.entries() == std::vector<std::string>{"drawing.svg"});
}

TEST_CASE("atomic file: a failed write leaves the old file and nothing else", "[atomic_file]") {
    const TempDir dir("nettopo-atomic-");
    const std::string target = dir / "t.xml";
    write_text(target, "old");
    CHECK_THROWS_AS(write_atomically(target,
                                     [](std::ostream& out) {
                                         out << "half";
                                         throw Error("the content cannot be made");
                                     }),
                    Error);
    CHECK(read_file(target) == "old");
    CHECK(dir.entries() == std::vector<std::string>{"t.xml"});
}

TEST_CASE("atomic file: the next write removes the temporaries no writer holds", "[atomic_file]") {
    const TempDir dir("nettopo-atomic-");
    const std::string target = dir / "t.xml";
    // As a killed writer leaves them on a filesystem without unnamed files.
    write_text(dir / "t.xml.tmp.Stale1", "partial");
    write_text(dir / "t.xml.tmp.a0B9zZ", "partial");
    // A live writer's (locked), a longer name, another file's: kept.
    write_text(dir / "t.xml.tmp.Held22", "partial");
    write_text(dir / "t.xml.tmp.Stale12", "x");
    write_text(dir / "u.xml.tmp.Other3", "x");
    const int held = ::open((dir / "t.xml.tmp.Held22").c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(held >= 0);
    REQUIRE(::flock(held, LOCK_EX) == 0);
    write_atomically(target, [](std::ostream& out) { out << "new"; });
    ::close(held);
    CHECK(read_file(target) == "new");
    CHECK(dir.entries() == std::vector<std::string>{"t.xml", "t.xml.tmp.Held22",
                                                    "t.xml.tmp.Stale12", "u.xml.tmp.Other3"});
    // Unlocked now: the next write takes it for stale.
    write_atomically(target, [](std::ostream& out) { out << "newer"; });
    CHECK(dir.entries() ==
          std::vector<std::string>{"t.xml", "t.xml.tmp.Stale12", "u.xml.tmp.Other3"});
}
