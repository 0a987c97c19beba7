// How many random cases a test draws: all of them in a normal build, a
// quarter in a sanitizer build (NETTOPO_SANITIZED, defined by CMake with
// NETTOPO_SANITIZE, as it sets the variable of that name for the scripts),
// whose unoptimised code runs the exhaustive checks (every pair of a tree's
// PUs, ...) 10 to 30 times slower. The same paths, a smaller sample: the
// release build of the suite draws every case.
#pragma once

namespace nettopo::test {

#ifdef NETTOPO_SANITIZED
inline constexpr int sanitizer_divisor = 4;
#else
inline constexpr int sanitizer_divisor = 1;
#endif

// `cases` random cases, or a quarter of them (at least 1) under a sanitizer.
constexpr int random_cases(int cases) {
    return cases / sanitizer_divisor > 0 ? cases / sanitizer_divisor : 1;
}

} // namespace nettopo::test
