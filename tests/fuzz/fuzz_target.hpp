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

#include "nettopo/model/cluster.hpp"
#include "nettopo/support/error.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
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

// Until the declared limits of issue 15 land in the readers, an input that
// names more than `bound` things in a few bytes (hostlist ranges "[0-99999]"
// or "a-b" whose product within one word exceeds it, a `count` above it)
// would only measure the machine's memory (findings D3, A2, S1): the targets
// skip them. An over-estimate, cheap, never refusing a small input.
bool names_more_than(std::string_view text, std::uint64_t bound);

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

} // namespace nettopo::fuzz
