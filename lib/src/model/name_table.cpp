#include "nettopo/model/name_table.hpp"

#include "nettopo/support/detail/csr_offsets.hpp"
#include "nettopo/support/error.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace nettopo {

void NameTable::push_back(std::string_view name) {
    pool_.append(name);
    offsets_.push_back(pool_.size());
}

void NameTable::reserve(std::size_t names, std::size_t chars) {
    offsets_.reserve(names + 1);
    pool_.reserve(chars);
}

namespace {
template <class V> void grow_to(V& v, std::size_t size) {
    if (size > v.capacity()) v.reserve(std::max(size, v.capacity() + v.capacity() / 2));
}
} // namespace

void NameTable::reserve_more(std::size_t names, std::size_t chars) {
    grow_to(offsets_, offsets_.size() + names);
    grow_to(pool_, pool_.size() + chars);
}

// The order is (name, index). Comparing whole names costs a memcmp per
// step of a comparison sort, which was a third of loading a 10^6-machine
// archive (issue 25). Instead: skip the prefix every name shares, take the
// next 8 bytes as a big-endian key (zero-padded: a key never orders two
// names against their byte order), radix-sort the keys (stable, so equal
// keys keep index order), and sort by whole name only the runs of equal
// keys whose names the key does not cover.
void NameTable::index() {
    const std::uint32_t n = size();
    sorted_.resize(n);
    if (n == 0) return;
    std::size_t lcp = (*this)[0].size();
    for (std::uint32_t i = 1; i < n && lcp > 0; ++i) {
        const std::string_view a = (*this)[0], b = (*this)[i];
        std::size_t k = 0;
        while (k < lcp && k < b.size() && a[k] == b[k]) ++k;
        lcp = k;
    }
    struct Keyed {
        std::uint64_t key;
        std::uint32_t index;
    };
    std::vector<Keyed> keys(n), other(n);
    std::uint64_t any_set = 0, all_set = ~std::uint64_t{0};
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::string_view s = (*this)[i];
        std::uint64_t key = 0;
        for (std::size_t k = 0; k < 8; ++k)
            key = key << 8 | (lcp + k < s.size() ? static_cast<unsigned char>(s[lcp + k]) : 0u);
        keys[i] = {key, i};
        any_set |= key;
        all_set &= key;
    }
    // LSD radix sort, one pass per byte; a byte equal in every key orders nothing.
    std::vector<std::uint32_t> count(256);
    for (int shift = 0; shift < 64; shift += 8) {
        if (((any_set ^ all_set) >> shift & 0xff) == 0) continue;
        std::fill(count.begin(), count.end(), 0u);
        for (const Keyed& k : keys) ++count[k.key >> shift & 0xff];
        std::uint32_t at = 0;
        for (std::uint32_t& c : count) at += std::exchange(c, at);
        for (const Keyed& k : keys) other[count[k.key >> shift & 0xff]++] = k;
        keys.swap(other);
    }
    std::vector<Keyed>().swap(other);
    for (std::uint32_t i = 0; i < n; ++i) sorted_[i] = keys[i].index;
    const auto by_name = [this](std::uint32_t a, std::uint32_t b) {
        auto na = (*this)[a], nb = (*this)[b];
        return na != nb ? na < nb : a < b;
    };
    for (std::uint32_t i = 0; i < n;) {
        std::uint32_t j = i + 1;
        bool covered = (*this)[sorted_[i]].size() <= lcp + 8;
        for (; j < n && keys[j].key == keys[i].key; ++j)
            covered = covered && (*this)[sorted_[j]].size() == (*this)[sorted_[i]].size();
        if (j - i > 1 && !covered) std::sort(sorted_.begin() + i, sorted_.begin() + j, by_name);
        i = j;
    }
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
