#include "hwloc/synthetic_check.hpp"

#include "nettopo/support/error.hpp"
#include "nettopo/tree/object_type.hpp"

#include <algorithm>
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

namespace {

// gpu:N or nic:N (any case), the count slot it fills, or nullptr for a level.
std::uint32_t* device_slot(std::string_view name, DeviceCounts& devices) {
    const auto is = [&](std::string_view word) {
        return name.size() == word.size() &&
               std::equal(name.begin(), name.end(), word.begin(),
                          [](char a, char b) { return (a | 0x20) == b; });
    };
    return is("gpu") ? &devices.gpus : is("nic") ? &devices.nics : nullptr;
}

// One device word: its count, within max_generated_devices, given once.
void read_device_word(std::string_view tok, std::string_view name, std::string_view count,
                      std::uint32_t& slot, bool& seen, std::string_view description) {
    if (tok.find('(') != std::string_view::npos)
        throw InputError(fmt::format("'{}' in hwloc synthetic description '{}': {}:N takes no "
                                     "attributes",
                                     tok, description, name));
    if (seen)
        throw InputError(
            fmt::format("{} given twice in hwloc synthetic description '{}'", name, description));
    std::uint64_t n = 0;
    auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
    if (ec != std::errc() || ptr != count.data() + count.size() || n > max_generated_devices)
        throw InputError(fmt::format("bad count '{}' for {} in hwloc synthetic description '{}': "
                                     "expected an integer from 0 to {}",
                                     count, name, description, max_generated_devices));
    slot = static_cast<std::uint32_t>(n);
    seen = true;
}

} // namespace

CheckedSynthetic check_synthetic(std::string_view description) {
    const auto toks = tokens(description);
    if (toks.empty()) throw InputError("empty hwloc synthetic description");
    CheckedSynthetic checked;
    std::uint64_t pus = 1;
    std::optional<ObjectType> last;
    // Devices are nettopo's words, not levels: they come last, and hwloc
    // never sees them.
    std::optional<std::size_t> devices_from;
    bool seen_gpus = false, seen_nics = false;
    const auto after_devices = [&](std::string_view tok) {
        return InputError(fmt::format("'{}' after the devices in hwloc synthetic description "
                                      "'{}': gpu:N and nic:N come last, after pu:<count>",
                                      tok, description));
    };
    for (std::string_view tok : toks) {
        if (tok.front() == '[') { // hwloc's memory-level syntax, left to hwloc
            if (devices_from) throw after_devices(tok);
            continue;
        }
        const std::string_view body = tok.substr(0, tok.find('('));
        const auto colon = body.find(':');
        if (colon == std::string_view::npos)
            throw InputError(fmt::format("bad token '{}' in hwloc synthetic description '{}': "
                                         "expected <type>:<count>, e.g. core:4",
                                         tok, description));
        const std::string_view name = body.substr(0, colon), count = body.substr(colon + 1);
        if (std::uint32_t* slot = device_slot(name, checked.devices)) {
            if (!devices_from)
                devices_from = static_cast<std::size_t>(tok.data() - description.data());
            read_device_word(tok, name, count, *slot,
                             slot == &checked.devices.gpus ? seen_gpus : seen_nics, description);
            continue;
        }
        if (devices_from) throw after_devices(tok);
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
        throw InputError(fmt::format("hwloc synthetic description '{}' must end with pu:<count>{}",
                                     description, devices_from ? " before its devices" : ""));
    checked.pus = pus;
    checked.levels = description.substr(0, devices_from.value_or(description.size()));
    while (!checked.levels.empty() &&
           (checked.levels.back() == ' ' || checked.levels.back() == '\t'))
        checked.levels.pop_back();
    return checked;
}

} // namespace nettopo::detail
