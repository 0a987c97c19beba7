// Family -> Cluster, through the ordinary builder so a generated cluster is
// checked like any other.
#include "nettopo/gen/generate.hpp"

#include "nettopo/formats/load.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <charconv>
#include <fmt/format.h>
#include <vector>

namespace nettopo {

std::string_view link_class_name(LinkClass c) {
    switch (c) {
    case LinkClass::HostSwitch:
        return "host-switch";
    case LinkClass::SwitchSwitch:
        return "switch-switch";
    case LinkClass::Local:
        return "local";
    case LinkClass::Global:
        return "global";
    }
    return "?";
}

LinkClasses LinkClasses::defaults() {
    LinkClasses c;
    c[LinkClass::HostSwitch] = {200, 200};
    c[LinkClass::SwitchSwitch] = {100, 200};
    c[LinkClass::Local] = {100, 200};
    c[LinkClass::Global] = {300, 200};
    return c;
}

LinkClasses LinkClasses::uniform(double latency_ns, double bandwidth_gbps) {
    LinkClasses c;
    c.of.fill({latency_ns, bandwidth_gbps});
    return c;
}

LinkClassSetting parse_link_class_setting(LinkField field, std::string_view text) {
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos)
        throw ValueError(std::string(text), "expected KIND=VALUE, e.g. global=300");
    const std::string_view kind = text.substr(0, eq), number = text.substr(eq + 1);
    const std::optional<double> parsed = parse_double(number); // finite, no -0
    const double value = parsed.value_or(-1);
    const bool latency = field == LinkField::Latency;
    if (!parsed || !(value >= 0) || (!latency && value == 0) ||
        (latency && value > max_link_latency_ns))
        throw ValueError(std::string(text), fmt::format("'{}' is not a {}", number,
                                                        latency ? "latency in ns (0 to 1e9)"
                                                                : "bandwidth in Gbit/s (> 0)"));
    LinkClassSetting setting{{}, value};
    bool found = false;
    for (std::size_t i = 0; i < link_class_count; ++i)
        if (kind == "all" || kind == link_class_name(static_cast<LinkClass>(i)))
            found = setting.applies[i] = true;
    if (!found)
        throw ValueError(std::string(text), fmt::format("unknown link kind '{}' (host-switch, "
                                                        "switch-switch, local, global or all)",
                                                        kind));
    return setting;
}

void set_link_class(LinkClasses& classes, LinkField field, std::string_view text) {
    const LinkClassSetting setting = parse_link_class_setting(field, text);
    for (std::size_t i = 0; i < link_class_count; ++i)
        if (setting.applies[i])
            (field == LinkField::Latency ? classes.of[i].latency_ns
                                         : classes.of[i].bandwidth_gbps) = setting.value;
}

MachineType synthetic_machine(std::string_view description, NodeLevel node_level,
                              const HwlocSandbox* hwloc_sandbox) {
    MachineTree tree;
    try {
        tree = tree_from_synthetic(description, hwloc_sandbox);
    } catch (const InputError& e) {
        throw ValueError(std::string(description), e.what());
    }
    return MachineType(std::string(description), std::move(tree), node_level,
                       LevelLatencies::defaults());
}

MachineType machine_from_file(const std::string& path, NodeLevel node_level,
                              const HwlocSandbox* hwloc_sandbox, PuScope scope) {
    LoadOptions options;
    options.pu_scope = scope;
    options.node_level = node_level;
    options.build.allow_disconnected = true;
    options.hwloc_sandbox = hwloc_sandbox;
    Cluster source = load_cluster(path, options);
    if (source.num_types() != 1)
        throw InputError(path, 0,
                         fmt::format("holds {} machine types; a generated cluster shares one",
                                     source.num_types()));
    return source.type(TypeId(0));
}

namespace {

class BuilderSink final : public FamilySink {
public:
    BuilderSink(ClusterBuilder& builder, TypeId type, const LinkClasses& links,
                std::uint64_t machines, std::uint64_t total_links, Progress* progress)
        : builder_(builder), type_(type), links_(links), machines_(machines),
          ticker_(progress, "generating", machines + total_links) {}

    void machines(std::string_view prefix, std::uint32_t count) override {
        std::string name(prefix);
        for (std::uint32_t i = 0; i < count; ++i) {
            name.resize(prefix.size());
            fmt::format_to(std::back_inserter(name), "{}", i);
            builder_.add_machine(name, type_);
            ticker_(++done_);
        }
    }
    void switches(std::string_view prefix, std::uint32_t count) override {
        std::string name(prefix);
        for (std::uint32_t i = 0; i < count; ++i) {
            name.resize(prefix.size());
            fmt::format_to(std::back_inserter(name), "{}", i);
            builder_.add_switch(name);
        }
    }
    void link(std::uint32_t a, std::uint32_t b, LinkClass c) override {
        const LinkSpec& spec = links_[c];
        builder_.add_link(endpoint(a), endpoint(b), spec.latency_ns, spec.bandwidth_gbps);
        ticker_(++done_);
    }
    void adapter(std::uint32_t machine, std::uint32_t index, std::uint32_t peer) override {
        if (machine != cables_of_) flush();
        cables_of_ = machine;
        cables_.push_back({fmt::format("mlx5_{}", index), 0, 1, endpoint(peer)});
    }
    // The last machine's adapters (a family gives one machine's together).
    void flush() {
        if (!cables_.empty()) builder_.set_attachments(MachineId(cables_of_), std::move(cables_));
        cables_.clear();
    }

private:
    ClusterBuilder::Endpoint endpoint(std::uint32_t v) const {
        if (v < machines_) return {false, v};
        return {true, static_cast<std::uint32_t>(v - machines_)};
    }

    ClusterBuilder& builder_;
    TypeId type_;
    const LinkClasses& links_;
    std::uint64_t machines_;
    ProgressTicker ticker_;
    std::uint64_t done_ = 0;
    std::uint32_t cables_of_ = 0;
    std::vector<ClusterBuilder::Cable> cables_;
};

// Bytes per vertex and per link at the peak of generate() and of writing
// the archive, measured (peak RSS, share/doc/limits.md) on families whose
// links per vertex range from 3 to 1000 (about 35 and 110 bytes), with a margin.
constexpr std::uint64_t bytes_per_vertex = 40, bytes_per_link = 128;

} // namespace

std::uint64_t estimated_generation_bytes(const Family& family) {
    return saturating_add(
        saturating_mul(saturating_add(family.num_machines(), family.num_switches()),
                       bytes_per_vertex),
        saturating_mul(family.num_links(), bytes_per_link));
}

Cluster generate(const Family& family, const MachineType& machine, const GenerateOptions& options) {
    const std::uint64_t machines = family.num_machines();
    if (machine.num_pus() != 0 && machines > (max_id_count - 1) / machine.num_pus())
        throw UsageError(fmt::format("{}: {} machines of {} PUs each are more PEs than nettopo's "
                                     "32-bit ids hold",
                                     family.spec(), machines, machine.num_pus()));
    // Finding G1 (issue 15): butterfly --k 2 --n 26 fitted the ids, then ran
    // out of memory after 24.5 s. A request is refused here, at once.
    const Limits& limits = options.limits;
    try {
        require_within_limit(saturating_add(machines, family.num_switches()), limits.max_vertices,
                             "machines and switches", Remedy::raise_vertex_limit);
        require_within_limit(family.num_links(), limits.max_links, "links",
                             Remedy::raise_link_limit);
        require_within_limit(estimated_generation_bytes(family), limits.max_generated_bytes,
                             "bytes of memory estimated to generate it", Remedy::force_generation);
    } catch (const InputError& e) {
        throw UsageError(fmt::format("{}: {}", family.spec(), e.what()), e.remedy());
    }
    ClusterBuilder builder(options.name.empty() ? family.spec() : options.name);
    builder.set_limits(limits);
    builder.set_family(family.spec());
    const TypeId type = builder.add_type(
        options.level_latencies.empty() ? machine
                                        : with_latency_overrides(machine, options.level_latencies));
    BuilderSink sink(builder, type, options.links, machines, family.num_links(), options.progress);
    family.emit(sink);
    sink.flush();
    // Sorting and checking millions of links takes a while too: say so.
    if (options.progress) options.progress->update("checking the network", 0, 1);
    Cluster cluster = std::move(builder).build();
    if (options.progress) options.progress->finish();
    return cluster;
}

} // namespace nettopo
