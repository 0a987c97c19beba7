// What the header says about the machine a benchmark ran on, so numbers
// from two machines are never compared unknowingly.
#include "nettopo-bench/bench_report.hpp"

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

} // namespace

std::vector<std::pair<std::string, std::string>> machine_info() {
    std::vector<std::pair<std::string, std::string>> info;
    info.emplace_back("cpu", proc_field("/proc/cpuinfo", "model name"));
    info.emplace_back("cores", std::to_string(std::thread::hardware_concurrency()));
    info.emplace_back("memory", proc_field("/proc/meminfo", "MemTotal"));
    utsname u{};
    if (uname(&u) == 0) info.emplace_back("kernel", fmt::format("{} {}", u.sysname, u.release));
    info.emplace_back("compiler", fmt::format("g++ {}", __VERSION__));
#ifdef NDEBUG
    info.emplace_back("build", "optimised (NDEBUG)");
#else
    info.emplace_back("build", "debug (assertions on): times are not representative");
#endif
    info.emplace_back("date", fmt::format("{:%Y-%m-%d %H:%M:%S}",
                                          fmt::localtime(std::chrono::system_clock::to_time_t(
                                              std::chrono::system_clock::now()))));
    for (auto& [k, v] : info)
        if (v.empty()) v = "unknown";
    return info;
}

} // namespace nettopo::bench
