// Checksummed array files (array_file.hpp).
#include "nettopo/support/detail/array_file.hpp"

#include "nettopo/support/error.hpp"

#include <cerrno>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nettopo {

namespace {

constexpr std::uint64_t p1 = 11400714785074694791ull, p2 = 14029467366897019727ull,
                        p3 = 1609587929392839161ull, p4 = 9650029242287828579ull,
                        p5 = 2870177450012600261ull;

constexpr std::uint64_t rotl(std::uint64_t x, int r) {
    return (x << r) | (x >> (64 - r));
}
constexpr std::uint64_t round(std::uint64_t acc, std::uint64_t input) {
    return rotl(acc + input * p2, 31) * p1;
}
constexpr std::uint64_t merge(std::uint64_t h, std::uint64_t v) {
    return (h ^ round(0, v)) * p1 + p4;
}
template <class T> T load(const unsigned char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

constexpr std::size_t header_bytes = 24;
constexpr std::uint64_t padded(std::uint64_t n) {
    return (n + 7) & ~std::uint64_t{7};
}

std::string tag_text(std::uint32_t tag) {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        const auto c = static_cast<char>((tag >> (8 * i)) & 0xff);
        s += c >= ' ' && c <= '~' ? c : '?';
    }
    return s;
}

} // namespace

std::uint64_t hash_bytes(const void* data, std::size_t size, std::uint64_t seed) {
    const auto* p = static_cast<const unsigned char*>(data);
    const unsigned char* const end = p + size;
    std::uint64_t h;
    if (size >= 32) {
        std::uint64_t v1 = seed + p1 + p2, v2 = seed + p2, v3 = seed, v4 = seed - p1;
        for (; end - p >= 32; p += 32) {
            v1 = round(v1, load<std::uint64_t>(p));
            v2 = round(v2, load<std::uint64_t>(p + 8));
            v3 = round(v3, load<std::uint64_t>(p + 16));
            v4 = round(v4, load<std::uint64_t>(p + 24));
        }
        h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
        h = merge(merge(merge(merge(h, v1), v2), v3), v4);
    } else {
        h = seed + p5;
    }
    h += size;
    for (; end - p >= 8; p += 8) h = rotl(h ^ round(0, load<std::uint64_t>(p)), 27) * p1 + p4;
    if (end - p >= 4) {
        h = rotl(h ^ (std::uint64_t{load<std::uint32_t>(p)} * p1), 23) * p2 + p3;
        p += 4;
    }
    for (; p < end; ++p) h = rotl(h ^ (*p * p5), 11) * p1;
    h ^= h >> 33;
    h *= p2;
    h ^= h >> 29;
    h *= p3;
    h ^= h >> 32;
    return h;
}

void ArrayWriter::record(std::uint32_t tag, std::uint32_t element_size, std::uint64_t count,
                         const void* data) {
    const std::uint64_t bytes = count * element_size;
    unsigned char header[header_bytes];
    const std::uint64_t hash = hash_bytes(data, bytes);
    std::memcpy(header, &tag, 4);
    std::memcpy(header + 4, &element_size, 4);
    std::memcpy(header + 8, &count, 8);
    std::memcpy(header + 16, &hash, 8);
    out_.write(reinterpret_cast<const char*>(header), header_bytes);
    if (bytes) out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    static constexpr char zeros[8] = {};
    out_.write(zeros, static_cast<std::streamsize>(padded(bytes) - bytes));
    if (!out_) throw Error("cannot write the binary file");
    written_ += header_bytes + padded(bytes);
}

ArrayReader::ArrayReader(const std::string& path) : path_(path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw InputError(fmt::format("{}: not a regular file", path));
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
    if (size_ > 0) {
        // Mapped, not read: the pages of the file already in memory are used
        // as they are, where reading would copy them into fresh memory that
        // the kernel must first clear (most of the cost of a large read).
        void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            throw InputError(fmt::format("{}: cannot map: {}", path, std::strerror(err)));
        }
        const std::uint64_t size = size_;
        map_ = std::shared_ptr<const void>(
            p, [size](const void* q) { ::munmap(const_cast<void*>(q), size); });
    }
    ::close(fd);
}

ArrayReader::~ArrayReader() = default;

const unsigned char* ArrayReader::here() const {
    return static_cast<const unsigned char*>(map_.get()) + pos_;
}

void ArrayReader::fail(std::uint32_t tag, std::string_view what) const {
    throw InputError(fmt::format("{}: damaged or not a nettopo image: record {} {}", path_,
                                 tag_text(tag), what));
}

void ArrayReader::fail(std::string_view what) const {
    throw InputError(fmt::format("{}: {}", path_, what));
}

void ArrayReader::read_exact(void* data, std::uint64_t bytes) {
    if (bytes > size_ - pos_) fail("truncated (the file ended early)");
    if (bytes > 0 && data) std::memcpy(data, here(), bytes);
    pos_ += bytes;
}

ArrayReader::Header ArrayReader::header() {
    if (size_ - pos_ < header_bytes) fail("truncated (the file ended early)");
    unsigned char raw[header_bytes];
    read_exact(raw, header_bytes);
    Header h;
    std::memcpy(&h.tag, raw, 4);
    std::memcpy(&h.element_size, raw + 4, 4);
    std::memcpy(&h.count, raw + 8, 8);
    std::memcpy(&h.hash, raw + 16, 8);
    return h;
}

std::uint64_t ArrayReader::begin(std::uint32_t tag, std::uint32_t element_size,
                                 std::uint64_t max_count) {
    const Header h = header();
    if (h.tag != tag) fail(tag, fmt::format("expected, found {}", tag_text(h.tag)));
    if (h.element_size != element_size)
        fail(tag, fmt::format("has {}-byte elements, expected {}", h.element_size, element_size));
    // Checked before anything is allocated: a count the file cannot hold is damage.
    if (h.count > (size_ - pos_) / element_size) fail(tag, "is longer than the rest of the file");
    if (h.count > max_count)
        fail(tag, fmt::format("has {} elements, at most {} expected", h.count, max_count));
    if (padded(h.count * element_size) > size_ - pos_) fail("truncated (the file ended early)");
    current_tag_ = tag;
    current_hash_ = h.hash;
    current_count_ = h.count;
    return h.count;
}

void ArrayReader::finish(void* data, std::uint64_t bytes) {
    // Hashed where it lies in the mapping, then copied (if `data`) while in cache.
    if (bytes > size_ - pos_) fail("truncated (the file ended early)");
    if (hash_bytes(here(), bytes) != current_hash_) fail(current_tag_, "fails its checksum");
    read_exact(data, bytes);
    unsigned char pad[8];
    const std::uint64_t rest = padded(bytes) - bytes;
    read_exact(pad, rest);
    for (std::uint64_t i = 0; i < rest; ++i)
        if (pad[i] != 0) fail(current_tag_, "has a non-zero padding byte");
}

std::string ArrayReader::text(std::uint32_t tag, std::uint64_t max_size) {
    const std::uint64_t n = begin(tag, 1, max_size);
    std::string s(n, '\0');
    finish(s.data(), n);
    return s;
}

std::uint32_t ArrayReader::peek_tag() {
    if (size_ - pos_ < 4) return 0;
    std::uint32_t tag = 0;
    std::memcpy(&tag, here(), 4);
    return tag;
}

void ArrayReader::skip(std::uint32_t tag) {
    const Header h = header();
    if (h.tag != tag) fail(tag, fmt::format("expected, found {}", tag_text(h.tag)));
    if (h.element_size == 0 || h.count > (size_ - pos_) / h.element_size ||
        padded(h.count * h.element_size) > size_ - pos_)
        fail(tag, "is longer than the rest of the file");
    pos_ += padded(h.count * h.element_size);
}

} // namespace nettopo
