// Binary files made of checksummed arrays, read back in place (views into
// a read-only mapping of the file) or copied into vectors: what nettopo's
// binary image (formats/image.hpp) and a kept distance index
// (query/detail/kept_index.hpp) are written in.
//
// A file is a sequence of records: a 24-byte header (a four-letter tag, the
// size of one element, the number of elements, a 64-bit hash of the bytes)
// and the elements' bytes, padded with zeros to a multiple of 8. Numbers are
// stored as this machine holds them (little-endian; a reader on another
// byte order refuses the file by its marker). The reader trusts nothing: a
// record's tag, element size and count are checked against what the caller
// expects and against what is left of the file before anything is
// allocated, and its hash after its bytes are read; every failure is an
// InputError naming the file. The hash catches damage, not forgery: a file
// crafted with matching hashes is read without crashing (callers check
// every index and offset they use), though its answers may be wrong.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace nettopo {

// A 64-bit hash of `size` bytes: xxHash64's rounds over four lanes (Yann
// Collet, xxHash), about as fast as memory is read. Not cryptographic.
std::uint64_t hash_bytes(const void* data, std::size_t size, std::uint64_t seed = 0);

// "LINK" as a tag.
constexpr std::uint32_t array_tag(const char (&name)[5]) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(name[0])) |
           static_cast<std::uint32_t>(static_cast<unsigned char>(name[1])) << 8 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(name[2])) << 16 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(name[3])) << 24;
}

class ArrayWriter {
public:
    // Writes records to `out`, a binary stream (write_atomically gives one).
    explicit ArrayWriter(std::ostream& out) : out_(out) {}

    template <class T> void array(std::uint32_t tag, std::span<const T> values) {
        static_assert(std::is_trivially_copyable_v<T>);
        record(tag, sizeof(T), values.size(), values.data());
    }
    template <class T> void array(std::uint32_t tag, const std::vector<T>& values) {
        array(tag, std::span<const T>(values));
    }
    template <class T> void value(std::uint32_t tag, const T& v) { array(tag, std::span(&v, 1)); }
    void text(std::uint32_t tag, std::string_view s) { record(tag, 1, s.size(), s.data()); }
    // Bytes written so far.
    std::uint64_t size() const { return written_; }

private:
    void record(std::uint32_t tag, std::uint32_t element_size, std::uint64_t count,
                const void* data);
    std::ostream& out_;
    std::uint64_t written_ = 0;
};

class ArrayReader {
public:
    // Opens and maps `path` read-only (InputError naming it if it cannot).
    // The file must not be truncated while mapped (writers replace images
    // by renaming a new file over them, which leaves a reader's file whole).
    explicit ArrayReader(const std::string& path);
    ~ArrayReader();
    ArrayReader(const ArrayReader&) = delete;
    ArrayReader& operator=(const ArrayReader&) = delete;

    const std::string& path() const { return path_; }
    std::uint64_t file_size() const { return size_; }
    bool at_end() const { return pos_ == size_; }

    // The next record, which must carry `tag`, elements of sizeof(T) and at
    // most `max_count` of them; its hash is checked; copied out of the file.
    template <class T>
    std::vector<T> array(std::uint32_t tag, std::uint64_t max_count = ~std::uint64_t{0}) {
        static_assert(std::is_trivially_copyable_v<T>);
        const std::uint64_t count = begin(tag, sizeof(T), max_count);
        std::vector<T> v(static_cast<std::size_t>(count));
        finish(v.data(), count * sizeof(T));
        return v;
    }
    // The next record in place, in the file's memory mapping (kept alive by
    // mapping()): nothing copied, its hash checked as for array().
    template <class T>
    std::span<const T> view(std::uint32_t tag, std::uint64_t max_count = ~std::uint64_t{0}) {
        static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= 8);
        const std::uint64_t count = begin(tag, sizeof(T), max_count);
        const unsigned char* at = here();
        finish(nullptr, count * sizeof(T));
        return {reinterpret_cast<const T*>(at), static_cast<std::size_t>(count)};
    }
    // Keeps the file's mapping alive for views: hold it as long as a view is used.
    std::shared_ptr<const void> mapping() const { return map_; }

    // A record of exactly one element.
    template <class T> T value(std::uint32_t tag) {
        static_assert(std::is_trivially_copyable_v<T>);
        const std::uint64_t count = begin(tag, sizeof(T), 1);
        if (count != 1) fail(tag, "holds no value");
        T v;
        finish(&v, sizeof(T));
        return v;
    }
    std::string text(std::uint32_t tag, std::uint64_t max_size = ~std::uint64_t{0});
    // The tag of the next record without reading it (0 at the end).
    std::uint32_t peek_tag();
    // Passes over the next record (which must carry `tag`) unread, unchecked.
    void skip(std::uint32_t tag);

    // InputError "<path>: damaged or not an image: <tag> <what>".
    [[noreturn]] void fail(std::uint32_t tag, std::string_view what) const;
    // InputError "<path>: <what>".
    [[noreturn]] void fail(std::string_view what) const;

private:
    struct Header {
        std::uint32_t tag, element_size;
        std::uint64_t count, hash;
    };
    Header header();
    std::uint64_t begin(std::uint32_t tag, std::uint32_t element_size, std::uint64_t max_count);
    void finish(void* data, std::uint64_t bytes);
    void read_exact(void* data, std::uint64_t bytes);
    const unsigned char* here() const;

    std::string path_;
    std::shared_ptr<const void> map_; // the whole file, read-only
    std::uint64_t size_ = 0, pos_ = 0;
    std::uint32_t current_tag_ = 0;
    std::uint64_t current_hash_ = 0, current_count_ = 0;
};

} // namespace nettopo
