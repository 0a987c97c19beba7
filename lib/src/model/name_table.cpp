#include "nettopo/model/name_table.hpp"

#include "nettopo/support/detail/csr_offsets.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <numeric>

namespace nettopo {

void NameTable::push_back(std::string_view name) {
    pool_.append(name);
    offsets_.push_back(pool_.size());
}

void NameTable::reserve(std::size_t names, std::size_t chars) {
    offsets_.reserve(names + 1);
    pool_.reserve(chars);
}

void NameTable::index() {
    sorted_.resize(size());
    std::iota(sorted_.begin(), sorted_.end(), 0u);
    std::sort(sorted_.begin(), sorted_.end(), [this](std::uint32_t a, std::uint32_t b) {
        auto na = (*this)[a], nb = (*this)[b];
        return na != nb ? na < nb : a < b;
    });
}

std::optional<std::uint32_t> NameTable::find(std::string_view name) const {
    auto it =
        std::lower_bound(sorted_.begin(), sorted_.end(), name,
                         [this](std::uint32_t i, std::string_view n) { return (*this)[i] < n; });
    if (it != sorted_.end() && (*this)[*it] == name) return *it;
    return std::nullopt;
}

std::optional<std::uint32_t> NameTable::repeated() const {
    // Sorted by (name, index): the later of two equal names comes second.
    for (std::size_t i = 1; i < sorted_.size(); ++i)
        if ((*this)[sorted_[i]] == (*this)[sorted_[i - 1]]) return sorted_[i];
    return std::nullopt;
}

NameTable NameTable::from_arrays(std::string pool, std::vector<std::uint64_t> offsets,
                                 std::vector<std::uint32_t> sorted) {
    if (!valid_csr_offsets<std::uint64_t>(offsets, pool.size()))
        throw ValueError("", "name offsets do not span the name pool in order");
    const std::size_t n = offsets.size() - 1;
    if (sorted.size() != n) throw ValueError("", "the name index does not list every name");
    for (std::uint32_t i : sorted)
        if (i >= n) throw ValueError("", "the name index names a name past the end");
    NameTable t;
    t.pool_ = std::move(pool);
    t.offsets_ = std::move(offsets);
    t.sorted_ = std::move(sorted);
    return t;
}

} // namespace nettopo
