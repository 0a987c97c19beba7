// The job-facing text helpers: host files as launchers write them, and CPU
// sets as taskset and hwloc read them. The mask format is also compared with
// hwloc-calc's own output on real exports in tests/tools/cpuset_oracle.py.
#include "nettopo/support/cpu_set_text.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostfile.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace nettopo;
using Catch::Matchers::Contains;

namespace {
std::vector<std::string> hosts_of(const std::string& text) {
    std::istringstream in(text);
    return read_hostfile(in, "hosts.txt");
}

// A bit-by-bit twin of format_cpu_mask: a string of hex digits per 32-bit
// group built from a bool vector.
std::string slow_mask(const std::vector<std::uint32_t>& cpus) {
    std::vector<bool> bit;
    for (std::uint32_t c : cpus) {
        if (c >= bit.size()) bit.resize(c + 1);
        bit[c] = true;
    }
    if (bit.empty()) return "0x0";
    const std::size_t groups = (bit.size() + 31) / 32;
    std::string out;
    for (std::size_t g = groups; g-- > 0;) {
        std::string hex;
        bool any = false;
        for (int nibble = 7; nibble >= 0; --nibble) {
            int v = 0;
            for (int b = 3; b >= 0; --b) {
                const std::size_t i = g * 32 + static_cast<std::size_t>(nibble * 4 + b);
                const bool on = i < bit.size() && bit[i];
                v = v * 2 + on;
                any |= on;
            }
            hex += "0123456789abcdef"[v];
        }
        if (g + 1 != groups) out += ",";
        if (any)
            out.append("0x").append(hex);
        else if (g == 0)
            out += "0x0";
    }
    return out;
}
} // namespace

TEST_CASE("host files: first word per line, comments, blanks, repeats once", "[support][job]") {
    CHECK(hosts_of("n01\nn02\n") == std::vector<std::string>{"n01", "n02"});
    // Open MPI hostfile syntax and a PBS_NODEFILE naming each host per slot.
    CHECK(hosts_of("# my job\nn03 slots=4 max_slots=8\n\n  n01   # login\nn03\nn01\nn02\n") ==
          std::vector<std::string>{"n03", "n01", "n02"});
    CHECK(hosts_of("a\r\nb\r\n") == std::vector<std::string>{"a", "b"});
    CHECK(hosts_of("# nothing\n\n").empty());
    CHECK_THROWS_WITH(hosts_of("n01\nslots=4\n"), Contains("hosts.txt:2:") && Contains("slots=4"));
}

TEST_CASE("host files: each host with the line that first names it", "[support][job]") {
    std::istringstream in("# my job\nn03 slots=4\n\n  n01   # login\nn03\nn01\nn02\n");
    CHECK(read_hostfile_lines(in, "hosts.txt") ==
          std::vector<HostfileHost>{{"n03", 2}, {"n01", 4}, {"n02", 7}});
}

TEST_CASE("first_occurrences keeps the order of first appearance", "[support][job]") {
    std::mt19937_64 rng(14);
    for (int round = 0; round < 200; ++round) {
        std::vector<std::string> names;
        const int n = static_cast<int>(rng() % 40);
        for (int i = 0; i < n; ++i) names.push_back(std::to_string(rng() % 12).append("h"));
        std::vector<std::string> expected;
        for (const auto& s : names)
            if (std::find(expected.begin(), expected.end(), s) == expected.end())
                expected.push_back(s);
        CHECK(first_occurrences(names) == expected);
        std::vector<std::string> at;
        for (const std::size_t i : first_positions(names)) at.push_back(names[i]);
        CHECK(at == expected);
    }
}

TEST_CASE("CPU lists fold runs, sorted, as taskset -c reads them", "[support][job]") {
    const auto list = [](std::vector<std::uint32_t> v) { return format_cpu_list(v); };
    CHECK(list({}) == "");
    CHECK(list({5}) == "5");
    CHECK(list({8, 0, 1, 2, 3}) == "0-3,8");
    CHECK(list({3, 195}) == "3,195");
    CHECK(list({0, 4, 12, 1, 6, 3, 15}) == "0-1,3-4,6,12,15");
    CHECK(list({2, 2, 3}) == "2-3");
}

TEST_CASE("CPU masks as hwloc prints cpusets", "[support][job]") {
    const auto mask = [](std::vector<std::uint32_t> v) { return format_cpu_mask(v); };
    // As hwloc-calc prints them for the exports of ../shared/data/hwloc-xml:
    // core:0 of 192em64t-24n8c2t.xml (PUs 0 and 192), all of
    // 16em64t-4s2c2t-offlines.xml.
    CHECK(mask({0, 192}) == "0x00000001,,,,,,0x00000001");
    CHECK(mask({0, 4, 12, 1, 6, 3, 15}) == "0x0000905b");
    CHECK(mask({}) == "0x0");
    CHECK(mask({31}) == "0x80000000");
    // hwloc-calc --pi pu:32 and pu:64 pu:100 on 192em64t-24n8c2t.xml.
    CHECK(mask({32}) == "0x00000001,0x0");
    CHECK(mask({64, 100}) == "0x00000010,0x00000001,,0x0");
    std::mt19937_64 rng(32);
    for (int round = 0; round < 500; ++round) {
        std::vector<std::uint32_t> cpus;
        const int n = static_cast<int>(rng() % 20);
        const std::uint32_t span = 1 + static_cast<std::uint32_t>(rng() % 300);
        for (int i = 0; i < n; ++i) cpus.push_back(static_cast<std::uint32_t>(rng() % span));
        CHECK(format_cpu_mask(cpus) == slow_mask(cpus));
    }
}
