// device-queries FILE HOST PE [REPEATS]: how long the library takes, inside
// one process, to load FILE (an image, an archive...) and to answer what
// `nettopo-query devices HOST`, `nearest-device PE` and `cpuset-of
// HOST:gpu2` ask of it; the whole-process times of the tools add the start
// of a process (issue 26 part 7, share/doc/benchmarks.md). Each question is
// asked REPEATS times (default 100,000); the median of 9 batches is printed
// per call. Built by hand against the library, in one command:
//
//   g++ -std=c++20 -O2 -I lib/include -I build/release/lib/include share/bench/device-queries.cpp
//       -L build/release/lib -lnettopo -Wl,-rpath,$PWD/build/release/lib -o device-queries
#include "nettopo/formats/load.hpp"
#include "nettopo/model/devices.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace nettopo;
using Clock = std::chrono::steady_clock;

namespace {

// Something the compiler cannot drop, from every answer.
volatile std::uint64_t sink = 0;

// Median over 9 batches of the time of one call of `ask`, in ns.
template <class F> double per_call_ns(std::uint64_t repeats, F ask) {
    std::vector<double> batches;
    for (int b = 0; b < 9; ++b) {
        const auto start = Clock::now();
        for (std::uint64_t i = 0; i < repeats; ++i) sink = sink + ask(i);
        batches.push_back(std::chrono::duration<double, std::nano>(Clock::now() - start).count() /
                          static_cast<double>(repeats));
    }
    std::sort(batches.begin(), batches.end());
    return batches[batches.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: device-queries FILE HOST PE [REPEATS]\n");
        return 2;
    }
    const std::string host = argv[2];
    const PeId pe(static_cast<std::uint32_t>(std::strtoul(argv[3], nullptr, 10)));
    const std::uint64_t repeats = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 100000;

    const auto start = Clock::now();
    const Cluster cluster = load_cluster(argv[1]);
    const double load_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    std::printf("load %s: %.1f ms (%u machines, %u PEs)\n", argv[1], load_ms,
                cluster.num_machines(), cluster.num_pes());

    // devices HOST: the machine by name, then each device's PEs, NUMA nodes
    // and PCI address (what its line prints).
    const double devices_ns = per_call_ns(repeats, [&](std::uint64_t) {
        const MachineId m = cluster.require_machine(host);
        const auto n = static_cast<std::uint32_t>(cluster.machine_type(m).tree().devices().size());
        std::uint64_t v = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            const MachineDevice d{m, i};
            v += device_pes(cluster, d).count + device_numa_nodes(cluster, d).size() +
                 device_pci_bus_id(cluster, d).size();
        }
        return v;
    });
    const double nearest_ns =
        per_call_ns(repeats, [&](std::uint64_t) { return nearest_devices(cluster, pe).size(); });
    const std::string gpu2 = host + ":gpu2";
    const double cpuset_ns = per_call_ns(repeats, [&](std::uint64_t) {
        return device_pes(cluster, find_devices(cluster, gpu2).at(0)).count;
    });
    std::printf("devices %s: %.0f ns a call\n", host.c_str(), devices_ns);
    std::printf("nearest-device %u: %.0f ns a call\n", pe.value, nearest_ns);
    std::printf("cpuset-of %s: %.0f ns a call\n", gpu2.c_str(), cpuset_ns);
    return 0;
}
