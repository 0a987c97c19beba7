// Hosts are matched with the fabric by name. The machines are numbered in
// natural order of their names (node2 before node10), so that host names
// fold into ranges and hosts of one kind form runs; identical trees share one
// machine type whatever file they came from.
#include "nettopo/assemble/assemble.hpp"

#include "assemble/adapter_join.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/model/cluster_builder.hpp"
#include "nettopo/query/summary.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/detail/text.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <unordered_map>

namespace nettopo {

std::string AssemblyIssue::summary(std::string_view aside, std::size_t shown) const {
    return fmt::format("{} {}{}: {}", counted(names.size(), noun), what,
                       aside.empty() ? std::string() : fmt::format(" ({})", aside),
                       hostlist_excerpt(names, shown));
}

namespace {

std::string disagreement(const std::vector<AssemblyIssue>& issues) {
    std::string text = "the sources disagree";
    for (const auto& issue : issues)
        fmt::format_to(std::back_inserter(text), "; {}", issue.summary());
    return text;
}

} // namespace

AssemblyMismatchError::AssemblyMismatchError(std::vector<AssemblyIssue> issues)
    : InputError(disagreement(issues)), issues_(std::move(issues)) {}

namespace {

// A host as the assembly sees it, whether its tree is its own (HostExport)
// or shared with identical hosts (GatheredHosts).
struct HostRef {
    std::string_view name;
    const MachineTree* tree;
    std::string_view source;
    bool restricted = false;                                 // HostExport::allowed.restricted()
    bool renamed = false;                                    // HostExport::renamed
    const std::vector<DeviceIdentity>* identities = nullptr; // HostExport::identities
};

struct Machine {
    std::string name;
    const MachineTree* tree;
    std::string description; // where the tree came from
    std::uint32_t fabric_node = std::numeric_limits<std::uint32_t>::max();
    const std::vector<DeviceIdentity>* identities = nullptr; // its devices', if known
};

class Assembler {
public:
    Assembler(std::vector<HostRef> hosts, const Fabric* fabric, const AssembleOptions& options)
        : hosts_(std::move(hosts)), fabric_(fabric), o_(options) {}

    Assembly run() {
        if (!fabric_ && !o_.hosts_only)
            throw UsageError("no fabric: give one, or set AssembleOptions::hosts_only for hosts "
                             "on one flat network");
        if (fabric_ && o_.hosts_only)
            throw UsageError("a fabric with AssembleOptions::hosts_only, which means none");
        for (std::size_t i = 0; i < hosts_.size(); ++i)
            host_index_.emplace(std::string(hosts_[i].name), i);
        if (o_.default_machine)
            default_tree_ = tree_from_synthetic(*o_.default_machine, o_.hwloc_sandbox);
        choose_machines();
        if (machines_.empty() && fabric_ && fabric_hosts() == 0)
            throw InputError(fabric_files(), 0,
                             fmt::format("the fabric has {} and no host: no machine to assemble",
                                         counted(fabric_->nodes.size(), "switch")));
        if (machines_.empty())
            throw UsageError("no machine to assemble: no host has both a place in the fabric and "
                             "a topology",
                             default_tree_ ? Remedy::none : Remedy::hosts_or_default_machine);
        if (fabric_)
            note("cable",
                 fmt::format("of {} reported by one end only (ibnetdiscover reports both: "
                             "the dump looks cut short, links may be missing)",
                             fabric_files()),
                 fabric_->one_ended_cables);
        if (o_.strict && !issues_.empty()) throw AssemblyMismatchError(issues_);
        Cluster cluster = build();
        std::vector<AssemblyIssue> notes;
        if (fabric_ && !fabric_->switch_adapters.empty())
            notes.push_back({"SHARP aggregation node",
                             "left out of the hosts, as adapters of their switches",
                             fabric_->switch_adapters});
        for (AssemblyIssue& note : export_notes()) notes.push_back(std::move(note));
        for (AssemblyIssue& note : join_notes_) notes.push_back(std::move(note));
        return Assembly{std::move(cluster), std::move(issues_),
                        std::move(notes),   std::move(defaulted_),
                        fabric_problems(),  fabric_ ? infer_rails(*fabric_) : Rails{}};
    }

private:
    std::vector<AssemblyIssue> fabric_problems() const {
        std::vector<AssemblyIssue> out;
        if (!fabric_) return out;
        // By description, blanks collapsed: 'MT4123 ConnectX6   Mellanox...'.
        std::map<std::string, std::vector<std::string>> by_description;
        for (const FabricNode& n : fabric_->nodes)
            if (!n.is_switch && n.named_by_guid) {
                std::string d;
                for_each_token(n.description, [&](std::string_view w) {
                    d += fmt::format("{}{}", d.empty() ? "" : " ", w);
                });
                by_description[d].push_back(n.name);
            }
        for (auto& [description, names] : by_description) {
            std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
                return natural_less(a, b);
            });
            out.push_back({"adapter",
                           fmt::format("without a host in {} ('{}'), each a host named after "
                                       "its GUID",
                                       names.size() == 1 ? "its description" : "their description",
                                       description),
                           std::move(names), Remedy::node_name_map});
        }
        if (fabric_->links.empty())
            out.push_back({"fabric", "without a single link: nothing is cabled", {fabric_files()}});
        return out;
    }

    void choose_machines() {
        std::vector<bool> used(hosts_.size(), false);
        auto add_host = [&](std::size_t h, std::uint32_t node) {
            used[h] = true;
            machines_.push_back({std::string(hosts_[h].name), hosts_[h].tree,
                                 hwloc_type_description(hosts_[h].source), node,
                                 hosts_[h].identities});
        };
        const bool attach_all = !fabric_ || fabric_hosts() == 0;
        if (attach_all) {
            for (std::size_t h = 0; h < hosts_.size(); ++h)
                add_host(h, std::numeric_limits<std::uint32_t>::max());
        } else {
            std::vector<std::string> missing;
            const std::vector<std::size_t> export_of = match_fabric_hosts();
            std::vector<std::string> ambiguous;
            for (std::uint32_t n = 0; n < fabric_->nodes.size(); ++n) {
                const FabricNode& node = fabric_->nodes[n];
                if (node.is_switch) continue;
                if (export_of[n] < hosts_.size()) {
                    add_host(export_of[n], n);
                    machines_.back().name = node.name; // the fabric's spelling
                } else if (export_of[n] == ambiguous_match) {
                    ambiguous.push_back(node.name);
                } else if (default_tree_) {
                    machines_.push_back({node.name, &*default_tree_, *o_.default_machine, n});
                    defaulted_.push_back(node.name);
                } else {
                    missing.push_back(node.name);
                }
            }
            note("host", "in the fabric without an hwloc export, left out", std::move(missing),
                 Remedy::default_machine);
            note("host",
                 "in the fabric whose short or fully qualified name matches several hwloc "
                 "exports, or an export another host matches, left out",
                 std::move(ambiguous));
        }
        std::vector<std::string> stray;
        for (std::size_t h = 0; h < hosts_.size(); ++h)
            if (!used[h]) stray.emplace_back(hosts_[h].name);
        note("hwloc export", "of hosts not in the fabric, left out", std::move(stray));
        std::sort(defaulted_.begin(), defaulted_.end(), natural_less);
        std::stable_sort(machines_.begin(), machines_.end(),
                         [](const auto& a, const auto& b) { return natural_less(a.name, b.name); });
    }

    static constexpr std::size_t no_match = std::numeric_limits<std::size_t>::max();
    static constexpr std::size_t ambiguous_match = no_match - 1;

    // The export of each fabric node (by node index): the export of the same
    // name, else the one whose name is the same but for a domain
    // ("node01" = "node01.cluster.local", either way round); no_match, or
    // ambiguous_match when several exports match or several fabric hosts
    // match one export that way.
    std::vector<std::size_t> match_fabric_hosts() const {
        const auto short_name = [](std::string_view n) { return n.substr(0, n.find('.')); };
        // Exports by their short name, for fabric names without a domain;
        // fabric names with one look their short name up in host_index_.
        std::unordered_map<std::string_view, std::vector<std::size_t>> by_short;
        for (std::size_t h = 0; h < hosts_.size(); ++h)
            if (hosts_[h].name.find('.') != std::string::npos)
                by_short[short_name(hosts_[h].name)].push_back(h);
        std::vector<std::size_t> match(fabric_->nodes.size(), no_match);
        std::vector<bool> exact(hosts_.size(), false);
        std::vector<std::uint32_t> loose(hosts_.size(), 0); // fabric hosts matching by domain
        for (std::uint32_t n = 0; n < fabric_->nodes.size(); ++n) {
            const FabricNode& node = fabric_->nodes[n];
            if (node.is_switch) continue;
            if (const auto it = host_index_.find(node.name); it != host_index_.end()) {
                match[n] = it->second;
                exact[it->second] = true;
                continue;
            }
            std::vector<std::size_t> candidates;
            if (node.name.find('.') != std::string::npos) {
                if (const auto it = host_index_.find(std::string(short_name(node.name)));
                    it != host_index_.end())
                    candidates.push_back(it->second);
            } else if (const auto it = by_short.find(node.name); it != by_short.end()) {
                candidates = it->second;
            }
            if (candidates.size() > 1) match[n] = ambiguous_match;
            if (candidates.size() == 1) {
                match[n] = candidates.front();
                ++loose[candidates.front()];
            }
        }
        for (std::uint32_t n = 0; n < fabric_->nodes.size(); ++n) {
            const std::size_t h = match[n];
            if (h < hosts_.size() && fabric_->nodes[n].name != hosts_[h].name &&
                (exact[h] || loose[h] > 1))
                match[n] = ambiguous_match;
        }
        return match;
    }

    // Exports restricted to some PUs, exports named after their files.
    std::vector<AssemblyIssue> export_notes() const {
        std::vector<std::string> restricted, renamed;
        for (const HostRef& h : hosts_) {
            if (h.restricted) restricted.emplace_back(h.name);
            if (h.renamed) renamed.emplace_back(h.name);
        }
        std::vector<AssemblyIssue> notes;
        const auto add = [&](std::vector<std::string> names, std::string what, Remedy remedy) {
            if (names.empty()) return;
            std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
                return natural_less(a, b);
            });
            notes.push_back({"hwloc export", std::move(what), std::move(names), remedy});
        };
        if (o_.pu_scope == PuScope::whole_machine)
            add(std::move(restricted), "restricted to a job's PUs, modelled whole",
                Remedy::allowed_only);
        else
            add(std::move(restricted),
                "restricted to a job's PUs, modelled with the allowed "
                "PUs only",
                Remedy::none);
        add(std::move(renamed),
            "claiming a HostName another export claims too, named after "
            "their files",
            Remedy::host_naming);
        return notes;
    }

    std::size_t fabric_hosts() const {
        return static_cast<std::size_t>(std::count_if(fabric_->nodes.begin(), fabric_->nodes.end(),
                                                      [](const auto& n) { return !n.is_switch; }));
    }

    void note(std::string noun, std::string what, std::vector<std::string> names,
              Remedy remedy = Remedy::none) {
        if (names.empty()) return;
        std::sort(names.begin(), names.end(), natural_less);
        issues_.push_back({std::move(noun), std::move(what), std::move(names), remedy});
    }

    double latency(LinkClass kind, std::optional<double> from_source) const {
        if (const auto& o = o_.latency_override[static_cast<std::size_t>(kind)]) return *o;
        return from_source ? *from_source : o_.defaults[kind].latency_ns;
    }

    Cluster build() {
        ClusterBuilder builder(o_.name.empty() && fabric_ ? file_stem(fabric_->source) : o_.name);
        builder.set_limits(o_.build.limits);
        std::unordered_map<std::string, TypeId> type_of_tree;
        // Gathered hosts share their trees: one signature per tree, not per host.
        std::unordered_map<const MachineTree*, TypeId> type_of_shared_tree;
        constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
        std::vector<std::uint32_t> machine_of_node(fabric_ ? fabric_->nodes.size() : 0, none);
        for (std::uint32_t m = 0; m < machines_.size(); ++m) {
            const Machine& mc = machines_[m];
            auto [shared, first_of_tree] = type_of_shared_tree.try_emplace(mc.tree);
            if (first_of_tree) {
                auto [it, fresh] = type_of_tree.try_emplace(mc.tree->signature());
                if (fresh)
                    it->second = builder.add_type(
                        MachineType(mc.description, *mc.tree, o_.node_level,
                                    o_.level_latencies.applied_to(LevelLatencies::defaults())));
                shared->second = it->second;
            }
            // Hosts of a real fabric (InfiniBand, Ethernet under Slurm, the
            // flat star of hosts only) carry no traffic for others.
            const MachineId id = builder.add_machine(mc.name, shared->second);
            builder.set_forwards(id, false);
            if (mc.identities && !mc.identities->empty())
                builder.set_identities(id, *mc.identities);
            if (mc.fabric_node != none) machine_of_node[mc.fabric_node] = m;
        }
        const LinkClass host = LinkClass::HostSwitch, sw = LinkClass::SwitchSwitch;
        if (!fabric_ || fabric_hosts() == 0) {
            const auto flat = builder.add_switch(fabric_ ? first_switch_name() : "flat");
            for (std::uint32_t m = 0; m < machines_.size(); ++m)
                builder.add_link({false, m}, {true, flat.value}, latency(host, std::nullopt));
            return std::move(builder).build(o_.build);
        }
        std::vector<std::uint32_t> switch_of_node(fabric_->nodes.size(), none);
        for (std::uint32_t n = 0; n < fabric_->nodes.size(); ++n)
            if (fabric_->nodes[n].is_switch)
                switch_of_node[n] = builder.add_switch(fabric_->nodes[n].name).value;
        auto endpoint = [&](std::uint32_t n) -> std::optional<ClusterBuilder::Endpoint> {
            if (switch_of_node[n] != none) return ClusterBuilder::Endpoint{true, switch_of_node[n]};
            if (machine_of_node[n] != none)
                return ClusterBuilder::Endpoint{false, machine_of_node[n]};
            return std::nullopt; // a host left out
        };
        attach_adapters(builder, machine_of_node, switch_of_node);
        for (const FabricLink& l : fabric_->links) {
            const auto a = endpoint(l.a), b = endpoint(l.b);
            if (!a || !b) continue;
            const LinkClass kind = a->is_switch && b->is_switch ? sw : host;
            try {
                builder.add_link(*a, *b, latency(kind, l.latency_ns), l.bandwidth_gbps,
                                 l.multiplicity);
            } catch (const InputError& e) {
                throw InputError(fabric_->source, l.line, e.what());
            }
        }
        try {
            return std::move(builder).build(o_.build);
        } catch (const DuplicateNameError& e) {
            throw InputError(fabric_->source, 0,
                             fmt::format("'{}' names both a host and a switch", e.name()));
        } catch (const InputError& e) { // not connected, too large: the fabric's files say so
            throw InputError(fabric_files(), 0, e);
        }
    }

    // Each machine's adapters as the fabric cables them, named as its
    // export names them (adapter_join.hpp); what did not join is noted.
    void attach_adapters(ClusterBuilder& builder, const std::vector<std::uint32_t>& machine_of_node,
                         const std::vector<std::uint32_t>& switch_of_node) {
        constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
        std::vector<std::vector<std::uint32_t>> adapters_of(fabric_->nodes.size());
        for (std::uint32_t i = 0; i < fabric_->adapters.size(); ++i)
            adapters_of[fabric_->adapters[i].host].push_back(i);
        std::vector<std::string> unmatched, uncabled;
        for (std::uint32_t n = 0; n < fabric_->nodes.size(); ++n) {
            const std::uint32_t m = machine_of_node[n];
            if (m == none || adapters_of[n].empty()) continue;
            const Machine& mc = machines_[m];
            const bool exported = mc.tree != (default_tree_ ? &*default_tree_ : nullptr);
            const std::span<const DeviceIdentity> ids =
                mc.identities ? std::span<const DeviceIdentity>(*mc.identities)
                              : std::span<const DeviceIdentity>();
            detail::AdapterJoin join = detail::join_adapters(*fabric_, adapters_of[n], mc.name,
                                                             exported ? mc.tree : nullptr, ids);
            std::vector<ClusterBuilder::Cable> cables;
            for (detail::JoinedCable& c : join.cables) {
                ClusterBuilder::Endpoint peer;
                if (switch_of_node[c.peer] != none)
                    peer = {true, switch_of_node[c.peer]};
                else if (machine_of_node[c.peer] != none)
                    peer = {false, machine_of_node[c.peer]};
                else
                    continue; // a host left out
                cables.push_back({std::move(c.device), c.guid, c.port, peer});
            }
            builder.set_attachments(MachineId(m), std::move(cables));
            for (std::string& s : join.unmatched) unmatched.push_back(std::move(s));
            for (std::string& s : join.uncabled) uncabled.push_back(std::move(s));
        }
        const auto add = [&](std::vector<std::string> names, std::string what) {
            if (names.empty()) return;
            std::sort(names.begin(), names.end(), natural_less);
            join_notes_.push_back({"adapter", std::move(what), std::move(names)});
        };
        add(std::move(unmatched), "in the fabric matching no adapter of its host's hwloc export "
                                  "(by NodeGUID, else by name), named as the fabric names it");
        add(std::move(uncabled), "of an hwloc export cabled nowhere in the fabric");
    }

    // The fabric's file, or its files when several were merged.
    std::string fabric_files() const {
        std::string files = fabric_->source;
        for (const std::string& f : fabric_->merged_sources) files += ", " + f;
        return files;
    }

    std::string first_switch_name() const {
        for (const auto& n : fabric_->nodes)
            if (n.is_switch) return n.name;
        return "flat";
    }

    std::vector<HostRef> hosts_;
    const Fabric* fabric_;
    const AssembleOptions& o_;
    std::unordered_map<std::string, std::size_t> host_index_;
    std::optional<MachineTree> default_tree_;
    std::vector<Machine> machines_;
    std::vector<AssemblyIssue> issues_;
    std::vector<std::string> defaulted_;
    std::vector<AssemblyIssue> join_notes_; // attach_adapters'
};

} // namespace

void set_latency_override(AssembleOptions& options, std::string_view text) {
    const std::string_view kind = text.substr(0, text.find('='));
    if (kind == "local" || kind == "global")
        throw ValueError(std::string(text),
                         "discovered fabrics have host-switch and switch-switch links only "
                         "(local and global are the links of generated dragonflies)");
    const LinkClassSetting setting = parse_link_class_setting(LinkField::Latency, text);
    for (std::size_t i = 0; i < link_class_count; ++i)
        if (setting.applies[i]) options.latency_override[i] = setting.value;
}

Assembly assemble_from_files(const ClusterSources& sources, const AssembleOptions& options) {
    if (!sources.ibnetdiscover.empty() && !sources.slurm.empty())
        throw UsageError("ClusterSources: give at most one fabric, ibnetdiscover or slurm");
    if (!sources.node_name_map.empty() && sources.ibnetdiscover.empty())
        throw UsageError("ClusterSources: a node-name map names the nodes of ibnetdiscover "
                         "output; give one");
    const auto display = [](const std::string& path) {
        return path == "-" ? std::string("<stdin>") : path;
    };
    std::optional<NodeNameMap> map;
    if (!sources.node_name_map.empty()) {
        std::istringstream in(read_all(sources.node_name_map));
        map = read_node_name_map(in, display(sources.node_name_map));
    }
    std::optional<Fabric> fabric;
    if (!sources.ibnetdiscover.empty()) {
        std::vector<Fabric> subnets;
        for (const std::string& path : sources.ibnetdiscover) {
            std::istringstream in(read_all(path));
            subnets.push_back(read_ibnetdiscover(in, display(path),
                                                 {map ? &*map : nullptr, options.switch_naming}));
        }
        fabric = merge_fabrics(std::move(subnets));
    }
    if (!sources.slurm.empty()) {
        std::istringstream in(read_all(sources.slurm));
        fabric = read_slurm_topology(in, display(sources.slurm), options.build.limits);
    }
    if (sources.gathered) {
        if (!sources.hosts.empty())
            throw UsageError("ClusterSources: give hosts as files or gathered, not both");
        return assemble_gathered(*sources.gathered, fabric ? &*fabric : nullptr, options);
    }
    // Unless strict, an export that does not read is left out with an issue:
    // its host then takes the default machine, or is reported missing.
    std::vector<std::pair<std::string, std::string>> unreadable;
    const std::vector<HostExport> hosts =
        sources.hosts.empty() ? std::vector<HostExport>{}
                              : load_host_exports(sources.hosts, options.hwloc_sandbox,
                                                  {options.host_naming, options.pu_scope,
                                                   options.strict ? nullptr : &unreadable});
    // Unnamed: after the fabric's file, else the first hosts path.
    AssembleOptions named = options;
    if (named.name.empty() && !fabric && !sources.hosts.empty()) {
        std::string first = sources.hosts.front();
        while (first.size() > 1 && first.back() == '/') first.pop_back();
        named.name = file_stem(first);
    }
    Assembly a = assemble_cluster(hosts, fabric ? &*fabric : nullptr, named);
    for (auto& [host, message] : unreadable)
        a.issues.push_back({"hwloc export",
                            fmt::format("that does not read, left out ({})", message),
                            {std::move(host)}});
    return a;
}

Assembly assemble_cluster(const std::vector<HostExport>& hosts, const Fabric* fabric,
                          const AssembleOptions& options) {
    std::vector<HostRef> refs;
    refs.reserve(hosts.size());
    for (const HostExport& h : hosts)
        refs.push_back(
            {h.name, &h.tree, h.source, h.allowed.restricted(), h.renamed, &h.identities});
    return Assembler(std::move(refs), fabric, options).run();
}

Assembly assemble_gathered(const GatheredHosts& hosts, const Fabric* fabric,
                           const AssembleOptions& options) {
    std::vector<HostRef> refs;
    refs.reserve(hosts.hosts.size());
    for (const GatheredHosts::Host& h : hosts.hosts) {
        if (h.tree >= hosts.trees.size())
            throw UsageError(fmt::format("GatheredHosts: host '{}' names tree {} of {}", h.name,
                                         h.tree, hosts.trees.size()));
        refs.push_back({h.name, &hosts.trees[h.tree], h.source, false, false, &h.identities});
    }
    return Assembler(std::move(refs), fabric, options).run();
}

} // namespace nettopo
