// Slurm hostlist expressions. Semantics follow Slurm's hostlist.c
// (_parse_single_range): a range "lo-hi" or a single number, lo <= hi, the
// zero padding of every number of the range taken from the written width of
// lo ("[01-10]" -> 01..10, "[8-10]" -> 8, 9, 10). Items are separated by
// commas or blanks outside brackets; empty items are skipped, as Slurm does.
#include "nettopo/support/hostlist.hpp"

#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/limits.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iterator>

namespace nettopo {

namespace {

// Guards against "[0-999999999999]": no real cluster comes near it.
constexpr std::uint64_t max_names = std::uint64_t{1} << 24;
constexpr std::size_t max_digits = 18; // numbers fit 64 bits

[[noreturn]] void bad(std::string_view expression, std::string_view why) {
    throw InputError(fmt::format("bad hostlist '{}': {}", expression, why));
}

bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

struct Range {
    std::uint64_t lo = 0, hi = 0;
    int width = 0;
};

std::uint64_t parse_number(std::string_view expression, std::string_view digits) {
    if (digits.empty()) bad(expression, "empty number in a range");
    for (char c : digits)
        if (!is_digit(c)) bad(expression, fmt::format("'{}' is not a number", digits));
    if (digits.size() > max_digits) bad(expression, fmt::format("number '{}' too long", digits));
    return *parse_uint(digits);
}

// "0-3,12,18-20" (the inside of one pair of brackets).
std::vector<Range> parse_ranges(std::string_view expression, std::string_view inside) {
    std::vector<Range> ranges;
    std::size_t i = 0;
    for (;;) {
        const std::size_t comma = std::min(inside.find(',', i), inside.size());
        const std::string_view spec = inside.substr(i, comma - i);
        if (spec.empty()) bad(expression, "empty range inside brackets");
        const std::size_t dash = spec.find('-');
        const std::string_view lo = spec.substr(0, dash);
        Range r;
        r.lo = parse_number(expression, lo);
        r.hi =
            dash == std::string_view::npos ? r.lo : parse_number(expression, spec.substr(dash + 1));
        if (r.lo > r.hi) bad(expression, fmt::format("range '{}' goes downwards", spec));
        r.width = static_cast<int>(lo.size());
        ranges.push_back(r);
        if (comma == inside.size()) break;
        i = comma + 1;
    }
    return ranges;
}

// One item: literal text and bracket groups, expanded as a product with the
// leftmost group varying slowest.
void expand_item(std::string_view expression, std::string_view item,
                 std::vector<std::string>& out) {
    std::vector<std::string> partial{std::string()};
    std::size_t i = 0;
    while (i < item.size()) {
        if (item[i] != '[') {
            const std::size_t j = std::min(item.find('[', i), item.size());
            for (std::string& p : partial) p.append(item.substr(i, j - i));
            i = j;
            continue;
        }
        const std::size_t close = item.find(']', i);
        // The caller checked the brackets balance.
        const std::vector<Range> ranges =
            parse_ranges(expression, item.substr(i + 1, close - i - 1));
        std::uint64_t count = 0;
        for (const Range& r : ranges) // checked as it grows: 19 huge ranges would wrap
            if ((count += r.hi - r.lo + 1) > max_names)
                bad(expression, fmt::format("expands to more than {} names", max_names));
        if (count * partial.size() + out.size() > max_names)
            bad(expression, fmt::format("expands to more than {} names", max_names));
        std::vector<std::string> next;
        next.reserve(partial.size() * count);
        for (const std::string& p : partial)
            for (const Range& r : ranges)
                for (std::uint64_t n = r.lo;; ++n) {
                    next.push_back(fmt::format("{}{:0{}}", p, n, r.width));
                    if (n == r.hi) break;
                }
        partial = std::move(next);
        i = close + 1;
    }
    for (std::string& p : partial) out.push_back(std::move(p));
}

// A name split around its last run of digits: "r1n07-ib" -> "r1n", "07", "-ib".
struct Split {
    std::string_view prefix, digits, suffix;
    std::uint64_t number = 0;
    bool numbered = false;
};

Split split(std::string_view name) {
    Split s;
    std::size_t end = name.size();
    while (end > 0 && !is_digit(name[end - 1])) --end;
    std::size_t begin = end;
    while (begin > 0 && is_digit(name[begin - 1])) --begin;
    s.prefix = name;
    if (begin == end || end - begin > max_digits) return s; // stays whole
    s.prefix = name.substr(0, begin);
    s.digits = name.substr(begin, end - begin);
    s.suffix = name.substr(end);
    s.number = *parse_uint(s.digits);
    s.numbered = true;
    return s;
}

void check_name(std::string_view name) {
    if (name.empty()) throw InputError("an empty name cannot be written in a hostlist");
    for (char c : name)
        if (c == '[' || c == ']' || c == ',' || is_blank(c))
            throw InputError(fmt::format("name '{}' cannot be written in a hostlist", name));
}

// How many names one item expands to, saturated at 2^64 - 1.
std::uint64_t count_item(std::string_view expression, std::string_view item) {
    std::uint64_t product = 1;
    for (std::size_t i = item.find('['); i != std::string_view::npos; i = item.find('[', i)) {
        const std::size_t close = item.find(']', i);
        std::uint64_t count = 0;
        for (const Range& r : parse_ranges(expression, item.substr(i + 1, close - i - 1)))
            count = saturating_add(count, r.hi - r.lo + 1);
        product = saturating_mul(product, count);
        i = close + 1;
    }
    return product;
}

// Calls item(text) for each item of the expression, checking its brackets.
template <class F> void for_each_item(std::string_view expression, F item) {
    std::size_t start = 0;
    bool inside = false;
    for (std::size_t i = 0; i <= expression.size(); ++i) {
        const bool end = i == expression.size();
        const char c = end ? ',' : expression[i];
        if (c == '[') {
            if (inside) bad(expression, "nested '['");
            inside = true;
        } else if (c == ']') {
            if (!inside) bad(expression, "']' without '['");
            inside = false;
        } else if ((c == ',' || is_blank(c)) && (!inside || end)) {
            if (inside) bad(expression, "'[' without ']'");
            if (i > start) item(expression.substr(start, i - start));
            start = i + 1;
        } else if (is_blank(c)) {
            bad(expression, "blank inside brackets");
        }
    }
}

} // namespace

std::vector<std::string> expand_hostlist(std::string_view expression) {
    std::vector<std::string> out;
    for_each_item(expression, [&](std::string_view item) { expand_item(expression, item, out); });
    return out;
}

std::uint64_t count_hostlist(std::string_view expression) {
    std::uint64_t count = 0;
    for_each_item(expression, [&](std::string_view item) {
        count = saturating_add(count, count_item(expression, item));
    });
    return count;
}

std::string compress_hostlist(const std::vector<std::string>& names) {
    std::vector<Split> parts;
    parts.reserve(names.size());
    for (const std::string& n : names) {
        check_name(n);
        parts.push_back(split(n));
    }
    std::string out;
    std::size_t i = 0;
    while (i < names.size()) {
        if (!out.empty()) out += ',';
        const Split& first = parts[i];
        std::size_t j = i + 1;
        if (first.numbered)
            while (j < names.size() && parts[j].numbered && parts[j].prefix == first.prefix &&
                   parts[j].suffix == first.suffix)
                ++j;
        if (j - i == 1) {
            out += names[i];
            i = j;
            continue;
        }
        // One bracket group; inside, runs of consecutive numbers that print
        // back exactly with the width of the run's first number.
        out.append(first.prefix);
        out += '[';
        std::size_t k = i;
        while (k < j) {
            const int width = static_cast<int>(parts[k].digits.size());
            std::size_t e = k + 1;
            while (e < j && parts[e].number == parts[e - 1].number + 1 &&
                   fmt::format("{:0{}}", parts[e].number, width) == parts[e].digits)
                ++e;
            if (k > i) out += ',';
            out.append(parts[k].digits);
            if (e - k > 1) {
                out += '-';
                out.append(parts[e - 1].digits);
            }
            k = e;
        }
        out += ']';
        out.append(first.suffix);
        i = j;
    }
    return out;
}

std::string hostlist_excerpt(const std::vector<std::string>& names, std::size_t shown) {
    const std::size_t n = std::min(shown, names.size());
    const std::vector<std::string> first(names.begin(), names.begin() + n);
    std::string list;
    try {
        list = compress_hostlist(first);
    } catch (const InputError&) { // a name no hostlist can hold: a plain list
        list = fmt::format("{}", fmt::join(first, ","));
    }
    if (names.size() > n)
        fmt::format_to(std::back_inserter(list), " and {} more", names.size() - n);
    return list;
}

} // namespace nettopo
