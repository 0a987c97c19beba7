// What every fuzz target shares. A target is one function, written once as
//
//   NETTOPO_FUZZ_TARGET(description) { ... data, size ... }
//
// and built twice: as libFuzzer's LLVMFuzzerTestOneInput in a build with
// NETTOPO_FUZZ (one executable per target, fuzz_<name>), and as
// nettopo_fuzz_<name>, called by replay_main.cpp, in every build with tests,
// so the release and sanitize builds replay the regression inputs too.
//
// A target fails (prints why and aborts, which libFuzzer reports as a crash
// and the replay as a failed test) when an oracle does not hold: a reader's
// error that is not one of the library's exceptions, or that does not name
// its source; an input accepted whose written form does not read back to
// the same thing.
#pragma once

#include "nettopo/formats/load.hpp"
#include "nettopo/model/cluster.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/limits.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

#ifdef NETTOPO_LIBFUZZER
#define NETTOPO_FUZZ_TARGET(name)                                                                  \
    void nettopo_fuzz_##name(const std::uint8_t* data, std::size_t size);                          \
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {            \
        nettopo_fuzz_##name(data, size);                                                           \
        return 0;                                                                                  \
    }                                                                                              \
    void nettopo_fuzz_##name(const std::uint8_t* data, std::size_t size)
#else
#define NETTOPO_FUZZ_TARGET(name)                                                                  \
    void nettopo_fuzz_##name(const std::uint8_t* data, std::size_t size)
#endif

namespace nettopo::fuzz {

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// Prints `what` (and `detail`) to stderr and aborts: an oracle failed.
[[noreturn]] void fail(std::string_view what, std::string_view detail = {});

// Two texts that must be equal (a written form and its rewrite).
void require_same(std::string_view what, const std::string& a, const std::string& b);

// How a reader may refuse its input.
enum class Refusal {
    input_named, // only InputError, whose message starts with "SOURCE:" (file, or file:line)
    input,       // only InputError (a reader of text that names no file: an expression)
    any_error,   // any nettopo::Error (a spec: UsageError or ValueError too)
};

// Runs `read`; true when it returned. A refusal as `refusal` allows is
// false; anything else (another exception, an InputError that does not name
// `source`) fails.
template <class Read> bool accepted(Read&& read, Refusal refusal, const std::string& source = {}) {
    try {
        read();
        return true;
    } catch (const InputError& e) {
        if (refusal == Refusal::input_named &&
            std::string_view(e.what()).rfind(source + ":", 0) != 0)
            fail("an InputError that does not name its source " + source, e.what());
        return false;
    } catch (const Error& e) {
        if (refusal != Refusal::any_error) fail("a refusal that is not an InputError", e.what());
        return false;
    } catch (const std::exception& e) {
        fail("an exception that is not nettopo::Error", e.what());
    }
}

// Runs `f`, which must not throw (reading back what the library wrote):
// any exception fails, saying `what`.
template <class F> decltype(auto) must(std::string_view what, F&& f) {
    try {
        return f();
    } catch (const std::exception& e) {
        fail(std::string(what) + " threw", e.what());
    }
}

// The declared limits (support/limits.hpp) a target holds its readers to:
// far below the defaults, so that an input naming 2^22 machines in a few
// bytes is refused by the reader's own check before the work (what a user
// gets at the default limit, found by findings D3, A2, S1) instead of
// spending the run building what the defaults allow. The refusal is then
// fuzzed too: it must be an InputError naming the file.
Limits fuzz_limits();
// The same, as every reader takes them.
LoadOptions fuzz_load_options();

// The archive text of `cluster` (write_archive), the form compared.
std::string archive_text(const Cluster& cluster);
// `text` read as an archive (must not be refused: the library wrote it).
Cluster read_back_archive(const std::string& text);

// A file holding `bytes`, removed on destruction (readers that take a path).
class TempFile {
public:
    explicit TempFile(std::string_view bytes, std::string_view suffix = "");
    ~TempFile();
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// A directory of its own, removed with what it holds on destruction
// (readers that look beside a file for another: a diff's reference).
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// Writes `bytes` to a new file `path` (fails the run if it cannot).
void write_file(const std::string& path, std::string_view bytes);

} // namespace nettopo::fuzz
