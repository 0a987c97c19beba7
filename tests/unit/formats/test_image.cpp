// The binary image: read back, it is the cluster that was written (its
// archive text byte for byte, its distances those of a search); its kept
// index answers as the search does; a damaged, truncated or stale image is
// refused with an InputError naming it, never a crash.
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/image.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/query/detail/kept_index.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/query/query_engine.hpp"
#include "nettopo/support/error.hpp"
#include "query/index/folded_core.hpp"
#include "query/index/terminal_table.hpp"
#include "testkit/archive_text.hpp"
#include "testkit/random_cluster.hpp"
#include "testkit/real_data.hpp"
#include "testkit/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sys/stat.h>
#include <thread>

using namespace nettopo;
using Catch::Contains;
using test::TempDir;

namespace {

// Hop counts and distances through `index` (the search when null) equal a
// search's on `pairs` random PE pairs of `c` (every pair when it has few).
void require_search_answers(const Cluster& c, const DistanceIndex* index, std::mt19937_64& rng,
                            std::uint32_t pairs = 400) {
    QueryEngine searched(c, nullptr);
    QueryEngine looked_up(c, index);
    const std::uint32_t n = c.num_pes();
    const bool all = std::uint64_t{n} * n <= pairs;
    std::uniform_int_distribution<std::uint32_t> pe(0, n - 1);
    for (std::uint32_t i = 0; i < (all ? n * n : pairs); ++i) {
        const PeId a(all ? i / n : pe(rng)), b(all ? i % n : pe(rng));
        REQUIRE(looked_up.hop_count(a, b) == searched.hop_count(a, b));
        REQUIRE(looked_up.distance(a, b) == searched.distance(a, b));
    }
}

// The image of `c` with `index`, read back: the same archive text, answers
// of a search, and the kept index of the same kind.
void require_round_trip(const Cluster& c, const DistanceIndex* index, std::mt19937_64& rng) {
    TempDir dir("nettopo-image-");
    const std::string path = dir / "c.ntimg";
    save_image(c, index, path);
    CHECK(detect_input_kind(path) == InputKind::Image);
    Image image = read_image(path, true);
    REQUIRE(test::archive_text(image.cluster) == test::archive_text(c));
    CHECK(image.network_checksum == network_checksum(c.network()));
    REQUIRE((image.index != nullptr) == (index != nullptr));
    if (index) {
        CHECK(image.index->kind() == index->kind());
        CHECK(image.index->description() == index->description());
    }
    require_search_answers(image.cluster, image.index.get(), rng);
    // load_cluster reads an image too, and a copy outlives the reader's mapping.
    const Cluster loaded = load_cluster(path);
    const Cluster copy = loaded;
    CHECK(test::archive_text(copy) == test::archive_text(c));
}

std::string read_bytes(const std::string& path) {
    return test::read_file(path);
}
void write_bytes(const std::string& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Reading `path` throws an InputError that names it.
void require_refused(const std::string& path) {
    try {
        (void)read_image(path, true);
    } catch (const InputError& e) {
        REQUIRE_THAT(e.what(), Contains(path));
        return;
    }
    FAIL("read " << path << " without an error");
}

// The bytes of a small image holding model and index records (a dense
// table kept with a fat-tree), and where to write damaged copies of it.
struct DenseImage {
    TempDir dir{"nettopo-image-"};
    std::string bad = dir / "bad.ntimg";
    std::string bytes;

    DenseImage() {
        const Cluster c = generate_from_spec("fat-tree --k 4 --n 2 --machine 'core:2 pu:1'");
        DistancePolicy options;
        options.kind = DistanceIndexKind::DenseTable;
        const auto index = build_distance_index(c, options);
        const std::string good = dir / "good.ntimg";
        save_image(c, index.get(), good);
        bytes = read_bytes(good);
    }
};

} // namespace

TEST_CASE("image: generated families with their closed forms", "[image]") {
    std::mt19937_64 rng(14);
    for (const char* spec :
         {"torus --dims 4x3 --machine 'core:2 pu:1'", "fat-tree --k 4 --n 3",
          "dragonfly --a 4 --p 2 --h 2 --latency global=400", "hypercube --dim 4"}) {
        CAPTURE(spec);
        const Cluster c = generate_from_spec(spec);
        const auto index = build_distance_index(c);
        REQUIRE(index);
        REQUIRE(index->kind() == DistanceIndexKind::ClosedForm);
        require_round_trip(c, index.get(), rng);
        require_round_trip(c, nullptr, rng);
    }
}

TEST_CASE("image: random clusters with every kept kind of general index", "[image]") {
    std::mt19937_64 rng(1414);
    for (int round = 0; round < 20; ++round) {
        const Cluster c = test::build_cluster(test::random_cluster(rng), true);
        CAPTURE(round, c.num_machines(), c.num_switches(), c.network().num_end_hosts());
        require_round_trip(c, nullptr, rng);
        if (c.num_machines() < 2) continue;
        for (const auto kind : {DistanceIndexKind::DenseTable, DistanceIndexKind::Labels}) {
            DistancePolicy options;
            options.kind = kind;
            const auto index = build_distance_index(c, options);
            require_round_trip(c, index.get(), rng);
        }
    }
}

TEST_CASE("image: the dense table of the terminals", "[image][terminal-table]") {
    std::mt19937_64 rng(1415);
    int kept = 0;
    for (const char* spec :
         {"fat-tree --k 4 --n 3 --latency all=1.5", "fat-tree --k 8 --n 2",
          "torus --dims 5x4 --latency all=2", "ring --machines 40 --latency all=1"}) {
        CAPTURE(spec);
        const Cluster c = generate_from_spec(spec);
        detail::FoldedCore f = detail::fold_network(c.network());
        const auto index = detail::make_terminal_table(f, std::size_t{1} << 30, 2, nullptr);
        if (!index) continue; // several core latencies
        ++kept;
        CAPTURE(index->description());
        require_round_trip(c, index.get(), rng);
    }
    CHECK(kept >= 3);
}

TEST_CASE("image: the real clusters of the shared data", "[image][real-clusters]") {
    std::mt19937_64 rng(7);
    for (const char* name : {"avakas", "plafrim"}) {
        if (!test::have_real_cluster(name)) continue;
        const Cluster c = test::assemble_real_cluster(name).cluster;
        const auto index = build_distance_index(c);
        REQUIRE(index);
        require_round_trip(c, index.get(), rng);
    }
}

TEST_CASE("image: a row cache is not kept", "[image]") {
    const Cluster c = generate_from_spec("fat-tree --k 4 --n 2");
    DistancePolicy options;
    options.kind = DistanceIndexKind::RowCache;
    const auto index = build_distance_index(c, options);
    TempDir dir("nettopo-image-");
    CHECK_THROWS_AS(save_image(c, index.get(), dir / "c.ntimg"), UsageError);
    CHECK(dir.entries().empty());
}

TEST_CASE("image: every truncation and every flipped byte is refused", "[image]") {
    const DenseImage image;
    const std::string& bytes = image.bytes;
    const std::string& bad = image.bad;
    REQUIRE(bytes.size() > 1000);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        CAPTURE(n);
        write_bytes(bad, std::string_view(bytes).substr(0, n));
        require_refused(bad);
    }
    // Every byte is a tag, a size, a count, a hash, hashed data or zero padding.
    for (std::size_t at = 0; at < bytes.size(); ++at) {
        CAPTURE(at);
        std::string flipped = bytes;
        flipped[at] = static_cast<char>(flipped[at] ^ (1 << (at % 8)));
        write_bytes(bad, flipped);
        require_refused(bad);
    }
    write_bytes(bad, bytes + std::string(8, '\0'));
    require_refused(bad);
    write_bytes(bad, "<nettopo version=\"3\"/>\n");
    CHECK_THROWS_AS(read_image(bad), InputError);
}

TEST_CASE("image: another version or byte order is refused with what to do", "[image]") {
    const Cluster c = generate_from_spec("fat-tree --k 4 --n 2");
    TempDir dir("nettopo-image-");
    const std::string path = dir / "c.ntimg";
    save_image(c, nullptr, path);
    std::string bytes = read_bytes(path);
    // The first record's data: the version (offset 24), then the byte order mark.
    // Its hash (offset 16) is fixed to match, as a future writer's would.
    const auto rewrite = [&](std::size_t at, std::uint32_t value) {
        std::string b = bytes;
        std::memcpy(b.data() + at, &value, 4);
        const std::uint64_t hash = hash_bytes(b.data() + 24, 48);
        std::memcpy(b.data() + 16, &hash, 8);
        write_bytes(path, b);
    };
    rewrite(24, image_version + 1);
    CHECK_THROWS_WITH(read_image(path), Contains("rebuild it from its archive"));
    rewrite(28, 0x04030201u);
    CHECK_THROWS_WITH(read_image(path), Contains("another byte order"));
}

TEST_CASE("image: a kept index is read only for the network it was built for", "[image]") {
    const Cluster c = generate_from_spec("torus --dims 4x4");
    const Cluster other = generate_from_spec("torus --dims 4x4 --latency all=7");
    REQUIRE(network_checksum(c.network()) != network_checksum(other.network()));
    REQUIRE(network_checksum(c.network()) ==
            network_checksum(generate_from_spec("torus --dims 4x4").network()));
    TempDir dir("nettopo-image-");
    const std::string path = dir / "c.ntimg";
    const auto index = build_distance_index(c);
    save_image(c, index.get(), path);
    CHECK(read_image_index(path, c, network_checksum(c.network())));
    CHECK_THROWS_WITH(read_image_index(path, other, network_checksum(other.network())),
                      Contains(path) && Contains("built for another network"));
}

TEST_CASE("image: beside its archive, used while it stands for it", "[image]") {
    TempDir dir("nettopo-image-");
    const std::string archive = dir / "c.xml", image = dir / "c.ntimg";
    const Cluster c = generate_from_spec("fat-tree --k 4 --n 3");
    save_archive(c, archive);
    CHECK(sibling_image_path(archive) == image);

    // No image: the archive.
    LoadedTopology t = load_topology(archive);
    CHECK(t.image.empty());
    CHECK_FALSE(t.kept_index);

    const auto index = build_distance_index(c);
    save_image(c, index.get(), image, file_stamp(archive));
    t = load_topology(archive);
    CHECK(t.image == image);
    REQUIRE(t.kept_index);
    CHECK(test::archive_text(t.cluster) == test::archive_text(c));

    // The archive touched, its network the same: read, with the image's index.
    const auto later = std::filesystem::last_write_time(archive) + std::chrono::seconds(5);
    std::filesystem::last_write_time(archive, later);
    t = load_topology(archive);
    CHECK(t.image == image);
    CHECK(t.stale_image.empty());
    CHECK(t.kept_index);

    // Another network in the archive: the image is stale, not used.
    save_archive(generate_from_spec("fat-tree --k 4 --n 3 --latency host-switch=9"), archive);
    t = load_topology(archive);
    CHECK(t.image.empty());
    CHECK(t.stale_image == image);
    CHECK_FALSE(t.kept_index);

    // A damaged image that stands for the archive is an error naming it, never passed over.
    save_image(load_cluster(archive), nullptr, image, file_stamp(archive));
    std::string bytes = read_bytes(image);
    bytes[bytes.size() / 2] ^= 1;
    write_bytes(image, bytes);
    CHECK_THROWS_WITH(load_topology(archive), Contains(image));
}

TEST_CASE("image: a node level asked for applies as over its archive", "[image]") {
    // Found on a fat-tree: `-i c.xml --node-level core` gave the archive's
    // automatic level once an image stood beside it, while the archive alone
    // gave one node a core.
    TempDir dir("nettopo-image-");
    const std::string archive = dir / "c.xml", image = dir / "c.ntimg";
    const Cluster c = generate_from_spec("fat-tree --k 4 --n 2 --machine 'pack:2 core:4 pu:2'");
    save_archive(c, archive);
    save_image(c, nullptr, image, file_stamp(archive));
    LoadOptions o;
    o.node_level = *node_level_from("package");
    const Cluster from_archive = load_cluster(archive, o);
    REQUIRE(from_archive.num_nodes() == c.num_machines() * 2);
    REQUIRE(from_archive.num_nodes() != c.num_nodes());
    const LoadedTopology beside = load_topology(archive, o);
    REQUIRE(beside.image == image);
    const LoadedTopology alone = load_topology(image, o);
    for (const Cluster* read : {&beside.cluster, &alone.cluster}) {
        CHECK(test::archive_text(*read) == test::archive_text(from_archive));
        CHECK(read->num_nodes() == from_archive.num_nodes());
        CHECK(read->node_of(PeId(c.num_pes() - 1)) == from_archive.node_of(PeId(c.num_pes() - 1)));
    }
    CHECK(load_cluster(image, o).num_nodes() == from_archive.num_nodes());

    // A type whose archive fixed its level keeps it, as the archive reader does.
    const Cluster fixed = load_cluster(archive, o);
    save_archive(fixed, archive);
    save_image(fixed, nullptr, image, file_stamp(archive));
    LoadOptions core;
    core.node_level = *node_level_from("core");
    CHECK(load_topology(image, core).cluster.num_nodes() == from_archive.num_nodes());
    CHECK(load_cluster(archive, core).num_nodes() == from_archive.num_nodes());
}

TEST_CASE("image: the records' hash is xxHash64", "[image]") {
    // Test vectors published with xxHash64 implementations (e.g. the Go
    // package github.com/cespare/xxhash, its xxhash_test.go), seed 0.
    const std::pair<std::string_view, std::uint64_t> vectors[] = {
        {"", 0xef46db3751d8e999ull},
        {"a", 0xd24ec4f1a98c6e5bull},
        {"as", 0x1c330fb2d66be179ull},
        {"asd", 0x631c37ce72a97393ull},
        {"asdf", 0x415872f599cea71eull},
        {"Call me Ishmael. Some years ago--never mind how long precisely-", 0x02a2e85470d6fd96ull},
    };
    for (const auto& [text, hash] : vectors) CHECK(hash_bytes(text.data(), text.size()) == hash);
}

namespace {

// The bytes of `image` with `width` bytes of `value` written at byte `offset`
// of record `tag`'s data and the record's hash made to match: a crafted file
// that only the checks of offsets, ids, counts and rules can refuse.
std::string forged_at(std::string image, const char (&tag)[5], std::size_t offset,
                      std::uint64_t value, std::size_t width) {
    for (std::size_t at = 0; at + 24 <= image.size();) {
        std::uint32_t element = 0;
        std::uint64_t count = 0;
        std::memcpy(&element, image.data() + at + 4, 4);
        std::memcpy(&count, image.data() + at + 8, 8);
        const std::size_t bytes = element * count;
        if (image.compare(at, 4, tag) == 0) {
            REQUIRE(offset + width <= bytes);
            std::memcpy(image.data() + at + 24 + offset, &value, width);
            const std::uint64_t hash = hash_bytes(image.data() + at + 24, bytes);
            std::memcpy(image.data() + at + 16, &hash, 8);
            return image;
        }
        at += 24 + (bytes + 7) / 8 * 8;
    }
    FAIL("no record " << tag);
    return {};
}

// The first element of record `tag` set to `value` (its first 8 bytes at most).
std::string forged(std::string image, const char (&tag)[5], std::uint64_t value) {
    std::uint32_t element = 0;
    const std::size_t at = image.find(tag);
    REQUIRE(at != std::string::npos);
    std::memcpy(&element, image.data() + at + 4, 4);
    return forged_at(std::move(image), tag, 0, value, std::min<std::size_t>(element, 8));
}

} // namespace

TEST_CASE("image: forged records with matching hashes are refused by their checks", "[image]") {
    // Model and index records to forge.
    const DenseImage image;
    const std::string& bytes = image.bytes;
    const std::string& bad = image.bad;
    const std::uint64_t huge = 0x7fffffffu;
    const std::pair<const char*, std::uint64_t> cases[] = {
        {"CSTG", huge},  // a neighbour past the last vertex
        {"CSLI", huge},  // a link id past the last link
        {"CSOF", 5},     // offsets not starting at 0
        {"LINK", 0},     // a link from vertex 0 to vertex 0
        {"MNSX", huge},  // the name index past the last name
        {"MNOF", 3},     // name offsets not starting at 0
        {"RUNS", 1},     // runs not starting at machine 0
        {"FLNK", huge},  // a machine's anchor past the core
        {"DSHP", 9999},  // a table of another core
        {"INET", 12345}, // an index of another network
        {"CNTS", huge},  // more machines than the network has
        {"TNOD", 77},    // no object type
    };
    for (const auto& [tag, value] : cases) {
        CAPTURE(tag);
        char name[5] = {};
        std::memcpy(name, tag, 4);
        write_bytes(bad, forged(bytes, reinterpret_cast<const char(&)[5]>(name), value));
        require_refused(bad);
    }
    // What the builder refuses, forged into well-formed records: each would
    // let a cluster in whose archive its own reader refuses.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::uint64_t nan_bits = 0;
    std::memcpy(&nan_bits, &nan, 8);
    const std::size_t link_size = sizeof(Link);
    write_bytes(bad, forged_at(bytes, "LINK", offsetof(Link, multiplicity), 0, 4));
    CHECK_THROWS_WITH(read_image(bad), Contains("link 0 has no cable"));
    write_bytes(bad,
                forged_at(bytes, "LINK", link_size + offsetof(Link, bandwidth_gbps), nan_bits, 8));
    CHECK_THROWS_WITH(read_image(bad), Contains("link 1 has a bandwidth out of range"));
}

namespace {

// Loads `path`, a FIFO, while a thread writes `bytes` into it: what `-i <(...)`
// and a named pipe give a tool. (A load that opened the pipe twice would
// wait for a second writer: the test would time out, not pass.)
template <class Load>
auto through_fifo(const std::string& path, const std::string& bytes, Load&& load) {
    std::thread writer([&] {
        std::ofstream out(path, std::ios::binary);
        out << bytes;
    });
    try {
        auto result = load();
        writer.join();
        return result;
    } catch (...) {
        writer.join(); // the load read the pipe whole before refusing it
        throw;
    }
}

} // namespace

TEST_CASE("loads: a pipe is read whole, never its head twice", "[image]") {
    TempDir dir("nettopo-image-");
    const std::string fifo = dir / "pipe", archive = dir / "c.xml", image = dir / "c.ntimg";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const Cluster c = generate_from_spec("fat-tree --k 4 --n 2");
    save_archive(c, archive);
    const std::string text = read_bytes(archive);
    CHECK(through_fifo(fifo, text, [&] { return detect_input_kind(fifo); }) == InputKind::Archive);
    CHECK(test::archive_text(through_fifo(fifo, text, [&] { return load_cluster(fifo); })) ==
          test::archive_text(c));
    CHECK(test::archive_text(through_fifo(fifo, text, [&] {
                                 return load_topology(fifo);
                             }).cluster) == test::archive_text(c));
    // An image is mapped from a file; in a pipe it is refused by its content.
    save_image(c, nullptr, image);
    CHECK_THROWS_WITH(through_fifo(fifo, read_bytes(image), [&] { return load_cluster(fifo); }),
                      Contains("not a pipe"));
}
