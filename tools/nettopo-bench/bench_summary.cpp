#include "nettopo-bench/bench.hpp"

#include <algorithm>

namespace nettopo::bench {

Summary summarize(const std::vector<double>& values) {
    if (values.empty()) return {};
    std::vector<double> v = values;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return {median, v.front(), v.back()};
}

} // namespace nettopo::bench
