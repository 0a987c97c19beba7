#include "support/name_runs.hpp"

#include "nettopo/support/detail/parse.hpp"

#include <fmt/format.h>

namespace nettopo::detail {

SplitName split_trailing_number(std::string_view name) {
    std::size_t i = name.size();
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
    // Keep numbers small enough for 64 bits.
    if (name.size() - i > 18) i = name.size() - 18;
    return {name.substr(0, i), name.substr(i)};
}

std::string run_name(const NameRun& r, std::uint64_t number) {
    return fmt::format("{}{:0{}}", r.prefix, number, r.width);
}

NameRun start_run(std::string_view name, std::uint32_t index) {
    NameRun r;
    r.first_index = index;
    r.count = 1;
    r.prefix = std::string(name);
    const SplitName s = split_trailing_number(name);
    if (s.digits.empty()) return r;
    NameRun numbered = r;
    numbered.numbered = true;
    numbered.prefix = std::string(s.prefix);
    numbered.first_number = *parse_uint(s.digits);
    numbered.width =
        s.digits.size() > 1 && s.digits[0] == '0' ? static_cast<int>(s.digits.size()) : 0;
    // Only names that print back exactly can start a numbered run.
    return run_name(numbered, numbered.first_number) == name ? numbered : r;
}

bool continues(const NameRun& run, std::string_view name) {
    if (!run.numbered) return false;
    const SplitName s = split_trailing_number(name);
    if (s.prefix != run.prefix || s.digits.empty()) return false;
    const auto n = parse_uint(s.digits);
    return n && *n == run.first_number + run.count && run_name(run, *n) == name;
}

} // namespace nettopo::detail
