/// \file
/// Names of machines or switches: one character pool plus offsets, and a sorted
/// index for lookup by name. Compact enough for millions of hosts.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo {

/// A table of names: one character pool, offsets, and a sorted index for find().
/// \threads Const calls may be made from several threads at once; push_back,
/// reserve, reserve_more and index() need the table to themselves.
/// \cost size(), operator[] and the array views O(1); find() O(log n)
/// comparisons; repeated() O(n); index() O(n log n); push_back amortised
/// O(length); reserve and reserve_more O(size) when they reallocate. Nothing
/// throws but std::bad_alloc, except from_arrays (ValueError).
class NameTable {
public:
    /// Number of names.
    std::uint32_t size() const { return static_cast<std::uint32_t>(offsets_.size() - 1); }
    /// Name `i` (precondition: `i` < size()), a view into the pool.
    std::string_view operator[](std::uint32_t i) const {
        return std::string_view(pool_).substr(offsets_[i], offsets_[i + 1] - offsets_[i]);
    }
    /// Appends a name (index() must be called again before find()).
    void push_back(std::string_view name);
    /// Reserves room for `names` names of `chars` characters in all.
    void reserve(std::size_t names, std::size_t chars);
    /// Room for `names` more names of `chars` more bytes: exactly when the
    /// table grows once (a range of a million hosts), by half again at least
    /// when it grows range after range.
    void reserve_more(std::size_t names, std::size_t chars);
    /// Builds the lookup index; call once after the last push_back.
    void index();
    /// Index of the name equal to `name`, nullopt when none (needs index()).
    std::optional<std::uint32_t> find(std::string_view name) const;
    /// Index of a name that an earlier index already has, if any (needs index()).
    std::optional<std::uint32_t> repeated() const;

    /// The arrays as held, for binary images (formats/image.hpp), and a table
    /// made from such arrays without sorting again. from_arrays checks every
    /// offset and index (ValueError naming the first bad one), not that the
    /// index is sorted: a wrong order makes find() miss, never read out of range.
    std::string_view pool() const { return pool_; }
    /// Where each name starts in pool(), plus the end (size() + 1 values).
    std::span<const std::uint64_t> offsets() const { return offsets_; }
    /// The names' indexes in sorted order (index()'s result).
    std::span<const std::uint32_t> sorted_index() const { return sorted_; }
    /// A table from pool(), offsets() and sorted_index() as held before. O(n).
    static NameTable from_arrays(std::string pool, std::vector<std::uint64_t> offsets,
                                 std::vector<std::uint32_t> sorted);

private:
    std::string pool_;
    std::vector<std::uint64_t> offsets_{0};
    std::vector<std::uint32_t> sorted_;
};

} // namespace nettopo
