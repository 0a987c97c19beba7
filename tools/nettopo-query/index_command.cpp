// nettopo-query index (index_command.hpp).
#include "nettopo-query/index_command.hpp"

#include "common/json_writer.hpp"
#include "nettopo/formats/image.hpp"
#include "nettopo/query/detail/kept_index.hpp"
#include "nettopo/query/distance_plan.hpp"
#include "nettopo/support/error.hpp"

#include <filesystem>
#include <fmt/format.h>

namespace nettopo {

namespace {

DistanceIndexKind kind_from(const std::string& kind) {
    if (kind == "dense") return DistanceIndexKind::DenseTable;
    if (kind == "labels") return DistanceIndexKind::Labels;
    return DistanceIndexKind::Auto;
}

} // namespace

void run_index_command(const LoadedTopology& topology, const IndexCommand& c, std::ostream& out) {
    const Cluster& cluster = topology.cluster;
    // An archive given as a file gets its image beside it, stamped with it;
    // an image read as the input keeps no stamp of its own archive.
    const bool archive = !c.input.empty() && c.input != "-" &&
                         std::filesystem::is_regular_file(c.input) &&
                         detect_input_kind(c.input) == InputKind::Archive;
    std::string path = c.output;
    if (path.empty()) {
        if (!archive)
            throw UsageError(
                "give -o FILE: only a nettopo archive has an image beside it by default");
        path = sibling_image_path(c.input);
    }
    std::error_code ec;
    if (archive && std::filesystem::equivalent(path, c.input, ec))
        throw UsageError(fmt::format("'{}' is the input: the image goes beside it", path));
    const std::optional<FileStamp> stamp = archive ? c.input_stamp : std::nullopt;

    std::unique_ptr<DistanceIndex> index;
    if (c.kind != "none") {
        DistancePolicy policy;
        policy.kind = kind_from(c.kind);
        policy.memory_budget_bytes = static_cast<std::size_t>(c.budget_mb) << 20;
        policy.progress = c.progress;
        index = build_distance_index(cluster, policy);
        if (index && !keeps(*index))
            throw UsageError(fmt::format("{}: {} is not kept (it fills itself on demand); raise "
                                         "the budget for a table or labels, or use --kind none",
                                         path, index->description()));
    }
    const std::uint64_t bytes = save_image(cluster, index.get(), path, stamp);
    const std::string what = index ? index->description() : std::string("no index");
    if (c.json) {
        JsonWriter j(out);
        j.begin_object()
            .field("image", path)
            .field("image_bytes", bytes)
            .field("index", index ? std::optional<std::string>(what) : std::nullopt)
            .end_object();
        j.line();
    } else {
        out << fmt::format("{}: {}; {}; {} bytes\n", path, cluster_counts(cluster), what, bytes);
    }
}

} // namespace nettopo
