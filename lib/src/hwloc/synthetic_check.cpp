#include "hwloc/synthetic_check.hpp"

#include "nettopo/support/error.hpp"
#include "nettopo/tree/object_type.hpp"

#include <charconv>
#include <fmt/format.h>
#include <string>
#include <vector>

namespace nettopo::detail {

namespace {
// Tokens are separated by blanks outside parentheses/brackets ("l2:4(size=1MB)").
std::vector<std::string_view> tokens(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t start = std::string_view::npos;
    int nesting = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
        const char c = i < s.size() ? s[i] : ' ';
        if (c == '(' || c == '[') ++nesting;
        if (c == ')' || c == ']') --nesting;
        const bool blank = (c == ' ' || c == '\t') && nesting <= 0;
        if (!blank && start == std::string_view::npos) start = i;
        if (blank && start != std::string_view::npos) {
            out.push_back(s.substr(start, i - start));
            start = std::string_view::npos;
        }
    }
    return out;
}
} // namespace

// hwloc's synthetic builder is quadratic in the number of children of one
// object (a level of 8,192 takes seconds, 16,384 over a minute). Real hosts
// are far below these limits; bigger ones come as XML exports.
constexpr std::uint64_t max_pus_per_machine = 16384;
constexpr std::uint64_t max_children_per_object = 1024;

std::uint64_t check_synthetic(std::string_view description) {
    const auto toks = tokens(description);
    if (toks.empty()) throw InputError("empty hwloc synthetic description");
    std::uint64_t pus = 1;
    std::optional<ObjectType> last;
    for (std::string_view tok : toks) {
        if (tok.front() == '[') continue; // hwloc's memory-level syntax, left to hwloc
        const std::string_view body = tok.substr(0, tok.find('('));
        const auto colon = body.find(':');
        if (colon == std::string_view::npos)
            throw InputError(fmt::format("bad token '{}' in hwloc synthetic description '{}': "
                                         "expected <type>:<count>, e.g. core:4",
                                         tok, description));
        const std::string_view name = body.substr(0, colon), count = body.substr(colon + 1);
        const auto type = parse_object_type(name);
        if (!type || *type == ObjectType::Machine || *type == ObjectType::MemCache)
            throw InputError(fmt::format("unknown object type '{}' in hwloc synthetic description "
                                         "'{}' (expected pack, die, group, numa, l1..l5, l1i..l3i, "
                                         "core or pu)",
                                         name, description));
        std::uint64_t n = 0;
        auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
        if (ec != std::errc() || ptr != count.data() + count.size() || n == 0)
            throw InputError(fmt::format("bad count '{}' for {} in hwloc synthetic description "
                                         "'{}': expected a positive integer",
                                         count, name, description));
        if (n > max_children_per_object)
            throw InputError(fmt::format("{}:{} in hwloc synthetic description '{}': at most {} "
                                         "objects under one parent",
                                         name, count, description, max_children_per_object));
        if ((pus *= n) > max_pus_per_machine)
            throw InputError(fmt::format("hwloc synthetic description '{}' has more than {} PUs "
                                         "per machine (describe bigger machines with an hwloc "
                                         "XML export)",
                                         description, max_pus_per_machine));
        last = type;
    }
    if (last != ObjectType::PU)
        throw InputError(
            fmt::format("hwloc synthetic description '{}' must end with pu:<count>", description));
    return pus;
}

} // namespace nettopo::detail
