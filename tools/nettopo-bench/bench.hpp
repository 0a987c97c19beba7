// The timing harness of nettopo-bench: what one measurement is, how its
// repetitions are summarised, and the one place the compiler is kept from
// optimising a measured result away.
#pragma once

#include "nettopo/support/error.hpp"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace nettopo::bench {

// One operation timed on one input, over several repetitions.
struct Measurement {
    std::string operation;      // "lca combin", "distance II", "load", ...
    std::string input;          // "tree-G", "degrees 1 4 1 1 9 2 1 1 4", a file name
    std::uint64_t machines = 0; // size of the input: the x axis of --plot
    std::uint64_t items = 0;    // operations per repetition (queries, pairs, ...)
    // Nanoseconds per item, one value per repetition.
    std::vector<double> ns_per_item;
    std::string note; // what the item is ("per pair", "per set of 10 queries"), caveats
};

// A fast path that disagreed with its slow twin under --verify (exit 1).
class VerifyError : public Error {
public:
    using Error::Error;
};

struct Summary {
    double median = 0, min = 0, max = 0;
};
Summary summarize(const std::vector<double>& values);

// Keeps `value` alive as if it were read by something the compiler cannot see.
template <class T> inline void keep(const T& value) {
    asm volatile("" : : "r,m"(value) : "memory");
}

using Clock = std::chrono::steady_clock;
inline double elapsed_ns(Clock::time_point since) {
    return std::chrono::duration<double, std::nano>(Clock::now() - since).count();
}

} // namespace nettopo::bench
