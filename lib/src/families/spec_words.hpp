// The words of a one-line spec ("torus --dims 4x4 --machine 'core:8 pu:1'"),
// split as a shell passes them to nettopo-gen: blank-separated, a '...' or
// "..." part taken whole without its quotes. Family specs and cluster specs
// (generate_from_spec) both read theirs with it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nettopo::detail {

// UsageError "<what> '<spec>': unmatched <quote>" for a quote left open.
std::vector<std::string> spec_words(std::string_view spec, std::string_view what);

} // namespace nettopo::detail
