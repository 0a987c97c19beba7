// init, save, load and fill: building a model, archiving it, reading it
// back, and filling the all-pairs table of its distance index.
#include "common/tool_support.hpp"
#include "nettopo-bench/bench_runs.hpp"
#include "nettopo-bench/bench_util.hpp"
#include "nettopo/formats/archive.hpp"
#include "nettopo/formats/load.hpp"
#include "nettopo/gen/generate.hpp"
#include "nettopo/model/model_bytes.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace nettopo::bench {
namespace {

std::string archive_text(const Cluster& c) {
    std::ostringstream out;
    write_archive(c, out);
    return out.str();
}

// A file in a private temporary directory, removed with it.
class ScratchFile {
public:
    ScratchFile() {
        const auto base = std::filesystem::temp_directory_path();
        for (std::uint32_t i = 0;; ++i) {
            dir_ = base / fmt::format("nettopo-bench-{}-{}", ::getpid(), i);
            if (std::filesystem::create_directory(dir_)) break;
            if (i > 1000) throw Error("cannot create a directory in " + base.string());
        }
    }
    ~ScratchFile() {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;
    std::string path() const { return (dir_ / "net_topo.xml").string(); }

private:
    std::filesystem::path dir_;
};

} // namespace

std::vector<Measurement> run_init(const Input& in, const RunOptions& o) {
    if (!in.family) return {};
    const MachineType machine = in.cluster->type(TypeId(0));
    GenerateOptions options;
    options.limits = limits_from_environment();
    options.name = in.cluster->name();
    if (in.preset) options.links = LinkClasses::uniform(preset_latency_ns, 0);
    Measurement m = start(in, "init", 1, "generate the cluster from its family (one machine type)");
    for (std::uint32_t r = 0; r < o.repetitions; ++r) {
        const auto t = Clock::now();
        Cluster c = generate(*in.family, machine, options);
        m.ns_per_item.push_back(elapsed_ns(t));
        if (o.verify && archive_text(c) != archive_text(*in.cluster))
            throw VerifyError(in.name + ": init: generating again gave another cluster");
    }
    return {m};
}

std::vector<Measurement> run_save(const Input& in, const RunOptions& o) {
    ScratchFile file;
    Measurement m = start(in, "save", 1, "archive written to a file (temporary + rename)");
    for (std::uint32_t r = 0; r < o.repetitions; ++r) {
        const auto t = Clock::now();
        save_archive(*in.cluster, file.path());
        m.ns_per_item.push_back(elapsed_ns(t));
    }
    m.note += fmt::format(", {} bytes", std::filesystem::file_size(file.path()));
    if (o.verify && archive_text(load_cluster(file.path())) != archive_text(*in.cluster))
        throw VerifyError(in.name + ": save: the archive does not read back to the same cluster");
    return {m};
}

std::vector<Measurement> run_load(const Input& in, const RunOptions& o) {
    ScratchFile file;
    save_archive(*in.cluster, file.path());
    Measurement m = start(in, "load", 1,
                          fmt::format("archive of {} bytes read and checked",
                                      std::filesystem::file_size(file.path())));
    for (std::uint32_t r = 0; r < o.repetitions; ++r) {
        const auto t = Clock::now();
        Cluster c = load_cluster(file.path());
        m.ns_per_item.push_back(elapsed_ns(t));
        keep(c.num_pes());
        // The yardstick of the load's memory (benchmarks.md, issue 25).
        if (r == 0) m.note += fmt::format("; the model holds {} bytes", model_bytes(c));
        if (o.verify && r == 0 && archive_text(c) != archive_text(*in.cluster))
            throw VerifyError(in.name + ": load: the cluster read back differs");
    }
    return {m};
}

std::vector<Measurement> run_fill(const Input& in, const RunOptions& o) {
    DistancePolicy options = index_options(o);
    options.kind = DistanceIndexKind::DenseTable;
    std::unique_ptr<DistanceIndex> index;
    Measurement m = start(in, "fill", 1, "");
    for (std::uint32_t r = 0; r < o.repetitions; ++r) {
        index.reset();
        const auto t = Clock::now();
        try {
            index = build_distance_index(*in.cluster, options);
        } catch (const UsageError& e) {
            // Past the budget there is no table to fill: say so, and let the
            // other inputs and operations of the run go on.
            m.note = fmt::format("skipped: {}", e.what());
            return {m};
        }
        m.ns_per_item.push_back(elapsed_ns(t));
    }
    m.note =
        fmt::format("all pairs, up to {} thread(s): {}", thread_count(o), index->description());
    if (o.verify) verify_index(in, *index, verify_sources(*in.cluster, o), "fill");
    return {m};
}

} // namespace nettopo::bench
