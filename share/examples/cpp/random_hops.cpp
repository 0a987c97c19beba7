// The README's spelling, timed: load a topology, make a QueryEngine as the
// README does, and ask hop counts between random PEs. Prints the time of the
// load, of the first question (which plans what answers: a family's closed
// form at once) and the mean time of the others.
//   build/random_hops TOPOLOGY [QUESTIONS=100000] [SEED=1] [search]
// "search" asks through QueryEngine(cluster, nullptr), a search per question
// (what QueryEngine(cluster) did before it planned), for comparison.
// benchmarks.md records its run on the 10^6-machine fat-tree.
#include <chrono>
#include <cstdint>
#include <exception>
#include <iostream>
#include <nettopo/nettopo.hpp>
#include <random>
#include <string>

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: random_hops TOPOLOGY [QUESTIONS] [SEED]\n";
        return 2;
    }
    try {
        const std::uint64_t questions = argc > 2 ? std::stoull(argv[2]) : 100000;
        std::mt19937_64 rng(argc > 3 ? std::stoull(argv[3]) : 1);

        auto start = std::chrono::steady_clock::now();
        const nettopo::Cluster cluster = nettopo::load_cluster(argv[1]);
        const double load = seconds_since(start);

        const bool search = argc > 4 && std::string(argv[4]) == "search";
        nettopo::QueryEngine engine =
            search ? nettopo::QueryEngine(cluster, nullptr) : nettopo::QueryEngine(cluster);
        const std::uint32_t n = cluster.num_pes();
        const auto pe = [&] { return nettopo::PeId(static_cast<std::uint32_t>(rng() % n)); };
        start = std::chrono::steady_clock::now();
        std::uint64_t sum = engine.hop_count(pe(), pe()).value_or(0);
        const double first = seconds_since(start);

        start = std::chrono::steady_clock::now();
        for (std::uint64_t i = 1; i < questions; ++i)
            sum += engine.hop_count(pe(), pe()).value_or(0);
        const double rest = seconds_since(start);

        const nettopo::DistanceIndex* index = engine.index();
        std::cout << "load: " << load << " s\nfirst question: " << first * 1e3 << " ms\n"
                  << "per question after it: " << rest / static_cast<double>(questions - 1) * 1e9
                  << " ns (" << questions - 1 << " questions, hop sum " << sum << ")\n"
                  << "answered by: " << (index ? index->description() : "a search per question")
                  << '\n';
    } catch (const std::exception& e) {
        std::cerr << "random_hops: " << e.what() << '\n';
        return 1;
    }
}
