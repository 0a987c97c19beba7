#include "fuzz_target.hpp"
#include "nettopo/formats/archive.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <unistd.h>

namespace nettopo::fuzz {

void fail(std::string_view what, std::string_view detail) {
    std::fprintf(stderr, "fuzz oracle failed: %.*s\n", static_cast<int>(what.size()), what.data());
    if (!detail.empty())
        std::fprintf(stderr, "  %.*s\n", static_cast<int>(detail.size()), detail.data());
    std::abort();
}

void require_same(std::string_view what, const std::string& a, const std::string& b) {
    if (a == b) return;
    std::size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    const std::size_t from = i < 80 ? 0 : i - 80;
    fail(std::string(what) + ": the texts differ at byte " + std::to_string(i),
         "first:  " + a.substr(from, 200) + "\n  second: " + b.substr(from, 200));
}

namespace {

// XML 1.0 allows no control character but tab, newline and carriage
// return, neither raw nor as a character reference (&#1;): xmllint and
// other parsers refuse the document (finding D2).
void require_xml_characters(const std::string& xml) {
    for (std::size_t i = 0; i < xml.size(); ++i) {
        const auto c = static_cast<unsigned char>(xml[i]);
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            fail("write_archive wrote a control character (not XML 1.0)",
                 xml.substr(i < 60 ? 0 : i - 60, 120));
        if (c == '&' && xml.compare(i, 2, "&#") == 0) {
            std::size_t j = i + 2;
            const bool hex = j < xml.size() && (xml[j] == 'x' || xml[j] == 'X');
            const unsigned long code =
                std::strtoul(xml.c_str() + j + (hex ? 1 : 0), nullptr, hex ? 16 : 10);
            if (code < 0x20 && code != '\t' && code != '\n' && code != '\r')
                fail("write_archive wrote a reference to a control character (not XML 1.0)",
                     xml.substr(i < 60 ? 0 : i - 60, 120));
        }
    }
}

} // namespace

std::string archive_text(const Cluster& cluster) {
    // The format's rule: every machine type has a PU (finding A1).
    for (std::uint32_t m = 0; m < cluster.num_machines(); ++m)
        if (cluster.pes_of_machine(MachineId(m)).count == 0)
            fail("a machine without a PE read", std::string(cluster.machine_name(MachineId(m))));
    std::ostringstream out;
    must("write_archive", [&] { write_archive(cluster, out); });
    require_xml_characters(out.str());
    return out.str();
}

Cluster read_back_archive(const std::string& text) {
    std::istringstream in(text);
    return must("reading back an archive the library wrote",
                [&] { return read_archive(in, "written.xml"); });
}

Limits fuzz_limits() {
    Limits limits;
    limits.max_vertices = std::uint64_t{1} << 14;
    limits.max_links = std::uint64_t{1} << 16;
    limits.max_generated_bytes = std::uint64_t{64} << 20;
    return limits;
}

LoadOptions fuzz_load_options() {
    LoadOptions options;
    options.build.limits = fuzz_limits();
    return options;
}

namespace {

void write_all(int fd, std::string_view bytes) {
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n <= 0) fail("cannot write a temporary file");
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

} // namespace

TempFile::TempFile(std::string_view bytes, std::string_view suffix) {
    std::string pattern = "/tmp/nettopo-fuzz-XXXXXX" + std::string(suffix);
    const int fd = mkstemps(pattern.data(), static_cast<int>(suffix.size()));
    if (fd < 0) fail("cannot create a temporary file");
    path_ = pattern;
    write_all(fd, bytes);
    ::close(fd);
}

TempFile::~TempFile() {
    ::unlink(path_.c_str());
}

TempDir::TempDir() {
    std::string pattern = "/tmp/nettopo-fuzz-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) fail("cannot create a temporary directory");
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

void write_file(const std::string& path, std::string_view bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) fail("cannot create a temporary file", path);
    write_all(fd, bytes);
    ::close(fd);
}

} // namespace nettopo::fuzz
