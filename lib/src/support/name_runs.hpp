// Splits a list of names into runs "prefix + consecutive numbers" so that a
// million generated host names are archived as one element, and expands them back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nettopo::detail {

struct NameRun {
    std::uint32_t first_index = 0; // position of the run's first name in the list
    std::uint32_t count = 0;
    bool numbered = false; // false: a single name, held whole in `prefix`
    std::string prefix;
    std::uint64_t first_number = 0;
    int width = 0; // zero padding of the numbers, 0 = none
};

// `same_group(i)` is false where a new run must start even if the names would
// continue (e.g. the machine type changes).
template <class NameOf, class SameGroup>
std::vector<NameRun> name_runs(NameOf name_of, std::uint32_t n, SameGroup same_group);

std::string run_name(const NameRun& r, std::uint64_t number);

// Implementation.
struct SplitName {
    std::string_view prefix, digits;
};
SplitName split_trailing_number(std::string_view name);
bool continues(const NameRun& run, std::string_view name);
NameRun start_run(std::string_view name, std::uint32_t index);

template <class NameOf, class SameGroup>
std::vector<NameRun> name_runs(NameOf name_of, std::uint32_t n, SameGroup same_group) {
    std::vector<NameRun> runs;
    for (std::uint32_t i = 0; i < n; ++i) {
        std::string_view name = name_of(i);
        if (!runs.empty() && same_group(i) && continues(runs.back(), name)) {
            ++runs.back().count;
            continue;
        }
        runs.push_back(start_run(name, i));
    }
    return runs;
}

} // namespace nettopo::detail
