// nettopo from C++: load a topology, then ask how close a few PEs are to PE 0
// (proximity level, network hops, latency distance) and which PEs are nearest.
// Built against an installed nettopo by the CMakeLists.txt beside it:
//   cmake -S . -B build -DCMAKE_PREFIX_PATH=<nettopo's prefix> && cmake --build build
//   build/example [TOPOLOGY]        (an archive, a description or an hwloc XML)
// It prints what `nettopo-query -i TOPOLOGY <query> ...` answers, one line each.
#include <nettopo/nettopo.hpp>

#include <cstdint>
#include <exception>
#include <iostream>
#include <optional>

#ifndef EXAMPLE_TOPOLOGY
#define EXAMPLE_TOPOLOGY "../small-fattree.topo"
#endif

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : EXAMPLE_TOPOLOGY;
    try {
        // Reads what the file is (recognised by content); throws nettopo::InputError
        // naming the file and line when it is not valid.
        const nettopo::Cluster cluster = nettopo::load_cluster(path);
        // Structural queries are on the Cluster; hops and distances on a QueryEngine
        // (one per thread: it keeps its last search to answer the next query faster).
        nettopo::QueryEngine engine(cluster);
        const std::uint32_t n = cluster.num_pes();
        std::cout << "num-pes: " << n << "\nnum-machines: " << cluster.num_machines() << '\n';

        // PE 0 against a hardware thread of its core (1), another core (2), the other
        // socket (16), the next host (32) and the last PE; those that exist.
        const nettopo::PeId a(0);
        std::optional<std::uint32_t> last;
        for (const std::uint32_t other : {1u, 2u, 16u, 32u, n - 1}) {
            if (other >= n || (last && other <= *last)) continue;
            last = other;
            const nettopo::PeId b(other);
            std::cout << "proximity 0 " << other << ": "
                      << static_cast<int>(cluster.proximity(a, b)) << '\n';
            // nullopt: no path between the two machines.
            if (const auto hops = engine.hop_count(a, b))
                std::cout << "hops 0 " << other << ": " << *hops << '\n';
            else
                std::cout << "hops 0 " << other << ": unreachable\n";
            if (const auto ns = engine.distance(a, b))
                std::cout << "distance 0 " << other << ": " << *ns << " ns\n";
            else
                std::cout << "distance 0 " << other << ": unreachable\n";
        }

        std::cout << "nearest 0 3:";
        const char* separator = " ";
        for (const nettopo::NearPe& near : engine.nearest(a, 3)) {
            std::cout << separator << near.pe.value << " (" << near.distance_ns << " ns)";
            separator = ", ";
        }
        std::cout << '\n';
    } catch (const std::exception& e) {
        std::cerr << "example: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
