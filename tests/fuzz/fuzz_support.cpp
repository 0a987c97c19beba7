#include "fuzz_target.hpp"
#include "nettopo/formats/archive.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
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

namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// The number at text[i...], saturated far above any bound.
std::uint64_t number_at(std::string_view text, std::size_t& i) {
    std::uint64_t n = 0;
    while (i < text.size() && is_digit(text[i])) {
        n = n > (1ULL << 40) ? n : n * 10 + static_cast<std::uint64_t>(text[i] - '0');
        ++i;
    }
    return n;
}

bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

} // namespace

bool names_more_than(std::string_view text, std::uint64_t bound) {
    std::uint64_t word_product = 1;
    for (std::size_t i = 0; i < text.size();) {
        if (is_blank(text[i])) {
            word_product = 1;
            ++i;
            continue;
        }
        if (!is_digit(text[i])) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        const std::uint64_t a = number_at(text, i);
        // count="N", count=N, Count: N, and any number right after "count".
        if (start >= 2 &&
            (text[start - 1] == '"' || text[start - 1] == '=' || text[start - 1] == ' ') &&
            text.substr(start >= 8 ? start - 8 : 0, start >= 8 ? 8 : start).find("ount") !=
                std::string_view::npos &&
            a > bound)
            return true;
        if (i + 1 < text.size() && text[i] == '-' && is_digit(text[i + 1])) {
            ++i;
            const std::uint64_t b = number_at(text, i);
            const std::uint64_t width = b >= a ? b - a + 1 : 1;
            if (width > bound) return true;
            word_product *= width;
            if (word_product > bound) return true;
        }
    }
    return false;
}

TempFile::TempFile(std::string_view bytes, std::string_view suffix) {
    std::string pattern = "/tmp/nettopo-fuzz-XXXXXX" + std::string(suffix);
    const int fd = mkstemps(pattern.data(), static_cast<int>(suffix.size()));
    if (fd < 0) fail("cannot create a temporary file");
    path_ = pattern;
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n <= 0) fail("cannot write a temporary file");
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    ::close(fd);
}

TempFile::~TempFile() {
    ::unlink(path_.c_str());
}

} // namespace nettopo::fuzz
