#include "nettopo/support/detail/nearest_names.hpp"

#include "nettopo/support/detail/parse.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>

namespace nettopo {

namespace {

// One class per group of characters a reader may take for one another.
char look_alike_class(char c) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    switch (c) {
    case '0':
        return 'o';
    case '1':
    case 'i':
        return 'l';
    case '2':
        return 'z';
    case '5':
        return 's';
    case '8':
        return 'b';
    default:
        return c;
    }
}

std::size_t substitution_cost(char x, char y) {
    if (x == y) return 0;
    return look_alike_class(x) == look_alike_class(y) ? 1 : 2;
}

// The band of the optimal string alignment table around its diagonal, three
// rows of `rows` (3 * (|b| + 2) entries) in turn. |b| <= |a|.
std::size_t banded_distance(std::string_view a, std::string_view b, std::size_t bound,
                            std::size_t* rows) {
    const std::size_t n = a.size(), m = b.size(), over = bound + 1;
    const std::size_t width = bound / 2; // an insertion or a deletion costs 2
    const auto row = [&](std::size_t i) { return rows + (i % 3) * (m + 2); };
    std::fill(rows, rows + 3 * (m + 2), over);
    for (std::size_t j = 0; j <= std::min(m, width); ++j) row(0)[j] = 2 * j;
    for (std::size_t i = 1; i <= n; ++i) {
        std::size_t* cur = row(i);
        const std::size_t* prev = row(i - 1);
        const std::size_t* prev2 = row(i + 1); // row i - 2
        const std::size_t lo = i > width ? i - width : 0, hi = std::min(m, i + width);
        if (lo > 0) cur[lo - 1] = over; // what this buffer held two rows ago
        std::size_t least = over;
        for (std::size_t j = lo; j <= hi; ++j) {
            std::size_t d = 2 * i;
            if (j > 0) {
                d = std::min({prev[j] + 2, cur[j - 1] + 2,
                              prev[j - 1] + substitution_cost(a[i - 1], b[j - 1])});
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                    a[i - 1] != b[j - 1])
                    d = std::min(d, prev2[j - 2] + 2);
            }
            cur[j] = std::min(d, over);
            least = std::min(least, cur[j]);
        }
        cur[hi + 1] = over;
        // Every alignment crosses this row (a swap skips one, but then the
        // row it skips holds a substitution no dearer than the swap).
        if (least > bound) return over;
    }
    return row(n)[m];
}

} // namespace

std::size_t name_distance(std::string_view a, std::string_view b, std::size_t bound) {
    if (a.size() < b.size()) std::swap(a, b);
    if (2 * (a.size() - b.size()) > bound) return bound + 1;
    constexpr std::size_t on_stack = 256;
    if (b.size() <= on_stack) {
        std::array<std::size_t, 3 * (on_stack + 2)> rows;
        return banded_distance(a, b, bound, rows.data());
    }
    std::vector<std::size_t> rows(3 * (b.size() + 2));
    return banded_distance(a, b, bound, rows.data());
}

NearestNames::NearestNames(std::string_view wanted, std::size_t count, std::size_t bound)
    : wanted_(wanted), count_(count), bound_(bound) {}

NearestNames::NearestNames(std::string_view wanted, std::size_t count)
    : NearestNames(wanted, count, typo_bound(wanted)) {}

std::size_t NearestNames::typo_bound(std::string_view wanted) {
    if (wanted.empty()) return 0;
    const std::size_t edits = std::max<std::size_t>(1, wanted.size() / 3);
    return std::min(2 * edits, 2 * wanted.size() - 1);
}

void NearestNames::offer(std::string_view name) {
    if (count_ == 0) return;
    const std::size_t d = name_distance(wanted_, name, bound_);
    if (d > bound_) return;
    if (nearest_.empty() || d < bound_) {
        // Nearer than all before: the bound closes in on it.
        nearest_.assign(1, std::string(name));
        bound_ = d;
        return;
    }
    const auto at = std::upper_bound(
        nearest_.begin(), nearest_.end(), name,
        [](std::string_view x, const std::string& y) { return natural_less(x, y); });
    if (static_cast<std::size_t>(at - nearest_.begin()) >= count_) return;
    nearest_.insert(at, std::string(name));
    if (nearest_.size() > count_) nearest_.pop_back();
}

std::string or_list(const std::vector<std::string>& names) {
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
        text += names[i];
    }
    return text;
}

} // namespace nettopo
