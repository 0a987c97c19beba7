// Names of machines or switches: one character pool plus offsets, and a sorted
// index for lookup by name. Compact enough for millions of hosts.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

class NameTable {
public:
    std::uint32_t size() const { return static_cast<std::uint32_t>(offsets_.size() - 1); }
    std::string_view operator[](std::uint32_t i) const {
        return std::string_view(pool_).substr(offsets_[i], offsets_[i + 1] - offsets_[i]);
    }
    void push_back(std::string_view name);
    void reserve(std::size_t names, std::size_t chars);
    // Room for `names` more names of `chars` more bytes: exactly when the
    // table grows once (a range of a million hosts), by half again at least
    // when it grows range after range.
    void reserve_more(std::size_t names, std::size_t chars);
    // Builds the lookup index; call once after the last push_back.
    void index();
    std::optional<std::uint32_t> find(std::string_view name) const;
    // Index of a name that an earlier index already has, if any (needs index()).
    std::optional<std::uint32_t> repeated() const;

    // The arrays as held, for binary images (formats/image.hpp), and a table
    // made from such arrays without sorting again. from_arrays checks every
    // offset and index (ValueError naming the first bad one), not that the
    // index is sorted: a wrong order makes find() miss, never read out of range.
    std::string_view pool() const { return pool_; }
    std::span<const std::uint64_t> offsets() const { return offsets_; }
    std::span<const std::uint32_t> sorted_index() const { return sorted_; }
    static NameTable from_arrays(std::string pool, std::vector<std::uint64_t> offsets,
                                 std::vector<std::uint32_t> sorted);

private:
    std::string pool_;
    std::vector<std::uint64_t> offsets_{0};
    std::vector<std::uint32_t> sorted_;
};

} // namespace nettopo
