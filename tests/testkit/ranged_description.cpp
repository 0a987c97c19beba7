#include "testkit/ranged_description.hpp"

#include <cstdint>
#include <fmt/format.h>
#include <vector>

namespace nettopo::test {

std::string ranged_description(std::mt19937_64& rng, const RangedOptions& options) {
    auto uniform = [&](std::uint32_t lo, std::uint32_t hi) {
        return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
    };
    static const std::vector<std::string> shapes = {
        "core:1 pu:1",
        "pack:1 core:2 pu:1",
        "pack:2 l3:1 core:2 pu:2",
        "pack:1 l2:2 core:2 pu:1 node=l2 lat.l2=12.5",
        "pack:2 core:2 pu:1 lat.machine=300 lat.core=0",
        "pack:1 die:2 core:2 pu:1 node=die lat.die=0.1 lat.pu=1e-3",
        "pack:1 numa:2 core:2 pu:1 node=numa lat.pack=123456.789",
        "pack:1 l3:1(size=32MB) core:2 pu:1 node=L3 lat.L3=7.25",
    };
    auto shape = [&] { return shapes[uniform(0, static_cast<std::uint32_t>(shapes.size() - 1))]; };
    static const std::vector<std::string> numbers = {"0",
                                                     "0.1",
                                                     "1e-3",
                                                     "123456.789",
                                                     "2.5e-07",
                                                     "1e-7",
                                                     "1000000000",
                                                     "0.3",
                                                     "4",
                                                     "0.000001",
                                                     "99.99",
                                                     "1234.56789",
                                                     "3.14159265358979",
                                                     "1.0000001",
                                                     "1e-300",
                                                     "0.30000000000000004"};
    auto latency = [&] {
        if (uniform(0, 1))
            return numbers[uniform(0, static_cast<std::uint32_t>(numbers.size() - 1))];
        return fmt::format("{}", uniform(0, 4000000) / 1000.0);
    };
    auto bandwidth = [&]() -> std::string {
        switch (uniform(0, 5)) {
        case 0:
            return " bandwidth=100";
        case 1:
            return " bandwidth=0.5";
        case 2:
            return " bandwidth=1e20";
        case 3:
            return fmt::format(" bandwidth={}", uniform(1, 100000) / 7.0);
        default:
            return "";
        }
    };

    std::string s = fmt::format("name ranged {}\n", uniform(0, 999));
    std::vector<std::string> machines;
    for (int i = 1; i <= 120; ++i) machines.push_back(fmt::format("node{:03}", i));
    if (options.node_ranges) {
        // One run over all of node001..node120, or two split at a random place.
        if (uniform(0, 1)) {
            s += fmt::format("machines node[001-120] {}\n", shape());
        } else {
            const std::uint32_t split = uniform(1, 119);
            s += fmt::format("machines node[001-{:03}] {}\n", split, shape());
            s += fmt::format("machines node[{:03}-120] {}\n", split + 1, shape());
        }
    } else {
        // Broken into runs by type changes at random places.
        std::string type = shape();
        for (const std::string& m : machines) {
            if (uniform(0, 29) == 0) type = shape();
            s += fmt::format("machine {} {}\n", m, type);
        }
    }
    // Names that look numbered but do not continue a run, or continue one in
    // a way the reader's ranges cannot write.
    const std::string common = shape();
    for (const char* n : {"a",
                          "n07",
                          "n8",
                          "x10",
                          "x010",
                          "y9",
                          "y10",
                          "y11",
                          "z099",
                          "z100",
                          "z101",
                          "w5",
                          "w7",
                          "w6",
                          "v0",
                          "v1",
                          "b[1",
                          "b[2",
                          "c]1",
                          "c]2",
                          "11",
                          "12",
                          "13",
                          "r-1",
                          "r-2",
                          "h10123456789012345670",
                          "h10123456789012345671",
                          "q00",
                          "q01"}) {
        machines.push_back(n);
        s += fmt::format("machine {} {}\n", n, uniform(0, 3) ? common : shape());
    }
    s += fmt::format("machines p[7-9]-ib {}\n", shape());
    for (int i = 7; i <= 9; ++i) machines.push_back(fmt::format("p{}-ib", i));

    for (int i = 0; i < 10; ++i) s += fmt::format("switch leaf{}\n", i);
    s += "switch spine\nswitch sw[0]\n";
    for (const std::string& m : machines) {
        s += fmt::format("link {} leaf{} {}{}", m, uniform(0, 9), latency(), bandwidth());
        if (uniform(0, 3) == 0) s += fmt::format(" count={}", uniform(2, 4));
        s += '\n';
    }
    for (int i = 0; i < 10; ++i)
        s += fmt::format("link spine leaf{} {} bandwidth=200 count={}\n", i, latency(),
                         uniform(1, 8));
    s += fmt::format("link sw[0] spine {}\n", latency());
    for (int i = 0; i + 1 < 10; ++i)
        if (uniform(0, 2) == 0) s += fmt::format("link leaf{} leaf{} {}\n", i, i + 1, latency());
    return s;
}

} // namespace nettopo::test
