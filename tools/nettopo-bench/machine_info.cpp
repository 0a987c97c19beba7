// What the header says about the machine a benchmark ran on, so numbers
// from two machines are never compared unknowingly.
#include "nettopo-bench/bench_report.hpp"

#include <charconv>
#include <chrono>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <sys/utsname.h>
#include <thread>

namespace nettopo::bench {
namespace {

// The value of the first "key : value" line of a /proc file starting with key.
std::string proc_field(const char* file, std::string_view key) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);)
        if (line.starts_with(key)) {
            const auto colon = line.find(':');
            if (colon == std::string::npos) return {};
            const auto first = line.find_first_not_of(" \t", colon + 1);
            return first == std::string::npos ? std::string() : line.substr(first);
        }
    return {};
}

// "16302940 kB" (what /proc/meminfo says) in bytes; unknown when it is not that.
ReportValue memory_bytes(const std::string& text) {
    std::uint64_t kib = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), kib);
    if (ec != std::errc{} || std::string_view(end, text.data() + text.size()) != " kB") return {};
    return kib * 1024;
}

// Text that is empty is unknown.
ReportValue text_or_unknown(std::string text) {
    return text.empty() ? ReportValue{} : ReportValue{std::move(text)};
}

} // namespace

ReportFields machine_info() {
    ReportFields info;
    info.push_back({"cpu", text_or_unknown(proc_field("/proc/cpuinfo", "model name"))});
    // What the threads may use: hardware threads (hwloc's PUs); 0 means unknown.
    const unsigned pus = std::thread::hardware_concurrency();
    info.push_back({"num_pus", pus ? ReportValue{std::uint64_t{pus}} : ReportValue{}});
    info.push_back({"memory_bytes", memory_bytes(proc_field("/proc/meminfo", "MemTotal"))});
    utsname u{};
    info.push_back({"kernel", uname(&u) == 0
                                  ? ReportValue{fmt::format("{} {}", u.sysname, u.release)}
                                  : ReportValue{}});
    info.push_back({"compiler", fmt::format("g++ {}", __VERSION__)});
#ifdef NDEBUG
    info.push_back({"build", std::string("optimised (NDEBUG)")});
#else
    info.push_back({"build", std::string("debug (assertions on): times are not representative")});
#endif
    info.push_back({"date", fmt::format("{:%Y-%m-%d %H:%M:%S}",
                                        fmt::localtime(std::chrono::system_clock::to_time_t(
                                            std::chrono::system_clock::now())))});
    return info;
}

} // namespace nettopo::bench
