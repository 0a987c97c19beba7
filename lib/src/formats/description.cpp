// Reader of the text description (grammar in share/doc/description-format.md).
#include "nettopo/formats/description.hpp"

#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"

#include <fmt/format.h>
#include <string>
#include <unordered_map>
#include <vector>

namespace nettopo {

namespace {

using Endpoint = ClusterBuilder::Endpoint;

struct NameRange {
    std::string prefix, suffix;
    std::uint64_t first = 0, last = 0;
    int width = 0; // zero padding, as Slurm's node[01-04]
};

class DescriptionReader {
public:
    DescriptionReader(const std::string& source, const LoadOptions& options)
        : source_(source), options_(options),
          builder_(source.starts_with('<') ? std::string() : file_stem(source)) {
        builder_.set_limits(options.build.limits);
    }

    void statement(std::size_t line_no, const std::vector<std::string_view>& t) {
        line_ = line_no;
        const std::string_view kw = t[0];
        if (kw == "name") {
            expect(t.size() >= 2, "expected a name after 'name'");
            std::string name(t[1]);
            for (std::size_t i = 2; i < t.size(); ++i) name += fmt::format(" {}", t[i]);
            wrap([&] { check_name("cluster name", name); });
            name_ = name;
        } else if (kw == "machine") {
            expect(t.size() >= 3, "expected 'machine <name> <hwloc synthetic description>'");
            const MachineLine type = machine_type(t, 2);
            declare_machine(t[1], type);
        } else if (kw == "machines") {
            expect(t.size() >= 3,
                   "expected 'machines <prefix>[<a>-<b>] <hwloc synthetic description>'");
            const NameRange r = name_range(t[1]);
            // Finding D3 (issue 15): "machines n[0-4294967293] pu:1" is refused here.
            wrap([&] { builder_.require_room_for_vertices(r.last - r.first + 1); });
            const MachineLine type = machine_type(t, 2);
            // Refuse before declaring billions of names, not after.
            const std::uint64_t pes = (r.last - r.first + 1) * builder_.type(type.type).num_pus();
            if (builder_.num_pes() + pes >= max_id_count)
                fail(fmt::format("machine range '{}' brings the cluster to {} PEs, past the "
                                 "limit of 32-bit PE ids ({})",
                                 t[1], builder_.num_pes() + pes, max_id_count - 1));
            for (std::uint64_t i = r.first; i <= r.last; ++i)
                declare_machine(fmt::format("{}{:0{}}{}", r.prefix, i, r.width, r.suffix), type);
        } else if (kw == "switch") {
            expect(t.size() == 2, "expected 'switch <name>'");
            claim(t[1], Endpoint{true, builder_.num_switches()});
            wrap([&] { builder_.add_switch(t[1]); });
        } else if (kw == "link") {
            link(t);
        } else {
            fail(fmt::format("unknown statement '{}' (expected name, machine, machines, switch or "
                             "link)",
                             kw));
        }
    }

    Cluster finish() {
        if (builder_.num_machines() == 0) throw InputError(source_, 0, "no machine is declared");
        try {
            Cluster c = std::move(builder_).build(options_.build);
            if (name_) c.set_name(*name_);
            return c;
        } catch (const DuplicateLinkError& e) {
            throw InputError(source_, link_lines_[e.later()],
                             fmt::format("duplicate link between '{}' and '{}' (first on line {}; "
                                         "give parallel cables once with count=<n>)",
                                         e.a().name, e.b().name, link_lines_[e.first()]));
        } catch (const InputError& e) {
            throw InputError(source_, 0, e);
        }
    }

private:
    [[noreturn]] void fail(const std::string& msg) const { throw InputError(source_, line_, msg); }
    void expect(bool ok, const std::string& msg) const {
        if (!ok) fail(msg);
    }
    // Library errors carry no location; give them this line's.
    template <class F> auto wrap(F&& f) -> decltype(f()) {
        try {
            return f();
        } catch (const InputError& e) {
            throw InputError(source_, line_, e); // keeps its remedy
        }
    }

    void claim(std::string_view name, Endpoint e) {
        auto [it, fresh] = names_.emplace(std::string(name), Declared{e, line_});
        if (!fresh)
            fail(fmt::format("duplicate name '{}': already declared as a {} on line {}", name,
                             it->second.endpoint.is_switch ? "switch" : "machine",
                             it->second.line));
    }

    // What a machine line gives its machines: a type, and whether they forward.
    struct MachineLine {
        TypeId type;
        bool forwards = true;
    };

    // The name is claimed with the index the builder is about to give it.
    void declare_machine(std::string_view name, MachineLine line) {
        claim(name, Endpoint{false, builder_.num_machines()});
        const MachineId m = wrap([&] { return builder_.add_machine(name, line.type); });
        if (!line.forwards) builder_.set_forwards(m, false);
    }

    NameRange name_range(std::string_view s) {
        const auto open = s.find('['), close = s.find(']');
        const auto dash = s.find('-', open);
        if (open == std::string_view::npos || close == std::string_view::npos ||
            dash == std::string_view::npos || dash > close)
            fail(fmt::format("bad machine range '{}': expected <prefix>[<a>-<b>], e.g. node[01-16]",
                             s));
        const std::string_view a = s.substr(open + 1, dash - open - 1);
        const std::string_view b = s.substr(dash + 1, close - dash - 1);
        const auto first = parse_uint(a), last = parse_uint(b);
        if (!first || !last || a.size() > 18 || b.size() > 18)
            fail(
                fmt::format("bad machine range '{}': the bounds must be non-negative integers", s));
        if (*first > *last) fail(fmt::format("bad machine range '{}': {} > {}", s, *first, *last));
        if (*last - *first >= max_id_count)
            fail(fmt::format("machine range '{}' is larger than the 32-bit machine ids allow", s));
        NameRange r{std::string(s.substr(0, open)), std::string(s.substr(close + 1)), *first, *last,
                    0};
        if (a.size() > 1 && a[0] == '0') r.width = static_cast<int>(a.size());
        return r;
    }

    // A machine option is key=value with a plain key; "l3:1(size=32MB)" is
    // an hwloc attribute inside the synthetic description.
    static bool is_option(std::string_view token) {
        const auto eq = token.find('=');
        return eq != std::string_view::npos && eq < token.find_first_of(":(");
    }

    // Tokens from `from` up to the first option form the synthetic
    // description; the options follow. forwards= is the machines' own, not
    // their type's: machines that differ only there share a type.
    MachineLine machine_type(const std::vector<std::string_view>& t, std::size_t from) {
        std::string desc;
        std::size_t i = from;
        for (; i < t.size() && !is_option(t[i]); ++i) {
            if (!desc.empty()) desc += ' ';
            desc += t[i];
        }
        expect(!desc.empty(), "expected an hwloc synthetic description, e.g. pack:2 core:8 pu:2");
        NodeLevel node = options_.node_level;
        LevelLatencies lat = LevelLatencies::defaults();
        std::string key = desc + '|';
        bool forwards = true;
        for (; i < t.size(); ++i) {
            const auto eq = t[i].find('=');
            if (eq == std::string_view::npos)
                fail(fmt::format("unexpected '{}' after the machine options (expected "
                                 "node=<type>, lat.<type>=<ns> or forwards=no)",
                                 t[i]));
            const std::string_view k = t[i].substr(0, eq), v = t[i].substr(eq + 1);
            if (k == "forwards") {
                if (v != "yes" && v != "no")
                    fail(fmt::format("bad value '{}' in '{}': expected forwards=no (an end host, "
                                     "which carries no traffic) or forwards=yes",
                                     v, t[i]));
                forwards = v == "yes";
                continue;
            }
            key += fmt::format("{}|", t[i]);
            if (k == "node") {
                node = node_level(v);
            } else if (k.starts_with("lat.")) {
                const auto type = parse_object_type(k.substr(4));
                if (!type || is_memory(*type))
                    fail(fmt::format("unknown level '{}' in '{}'", k.substr(4), t[i]));
                const auto ns = parse_double(v);
                if (!ns || *ns < 0)
                    fail(fmt::format("bad latency '{}' in '{}': expected a number >= 0 (ns)", v,
                                     t[i]));
                lat[*type] = *ns;
            } else {
                fail(fmt::format("unknown machine option '{}' (expected node=<type>, "
                                 "lat.<type>=<ns> or forwards=no)",
                                 k));
            }
        }
        // The command line's latencies win over the line's lat. options.
        lat = options_.level_latencies.applied_to(lat);
        if (auto it = types_.find(key); it != types_.end()) return {it->second, forwards};
        MachineTree tree = wrap([&] { return tree_from_synthetic(desc, options_.hwloc_sandbox); });
        const TypeId id =
            wrap([&] { return builder_.add_type(MachineType(desc, std::move(tree), node, lat)); });
        types_.emplace(std::move(key), id);
        return {id, forwards};
    }

    NodeLevel node_level(std::string_view v) {
        if (auto level = node_level_from(v)) return *level;
        fail(fmt::format("unknown node level '{}' (expected {})", v, node_level_choices));
    }

    Endpoint endpoint(std::string_view name) {
        auto it = names_.find(name);
        if (it == names_.end())
            fail(fmt::format("unknown endpoint '{}': no machine or switch of that name is "
                             "declared before this line",
                             name));
        return it->second.endpoint;
    }

    void link(const std::vector<std::string_view>& t) {
        expect(t.size() >= 4, "expected 'link <endpoint> <endpoint> <latency-ns> "
                              "[bandwidth=<Gbit/s>] [count=<n>]'");
        const Endpoint a = endpoint(t[1]), b = endpoint(t[2]);
        const auto lat = parse_double(t[3]);
        expect(lat.has_value(), fmt::format("bad latency '{}': expected a number of ns", t[3]));
        expect(*lat >= 0, fmt::format("negative latency {} ns: latencies must be >= 0", t[3]));
        double bw = 0;
        std::uint64_t count = 1;
        for (std::size_t i = 4; i < t.size(); ++i) {
            if (t[i].starts_with("bandwidth=")) {
                const auto v = parse_double(t[i].substr(10));
                expect(v && *v > 0, fmt::format("bad bandwidth '{}': expected a number > 0 "
                                                "(Gbit/s)",
                                                t[i].substr(10)));
                bw = *v;
            } else if (t[i].starts_with("count=")) {
                const auto v = parse_uint(t[i].substr(6));
                expect(v && *v >= 1 && *v < max_id_count,
                       fmt::format("bad count '{}': expected an integer >= 1", t[i].substr(6)));
                count = *v;
            } else {
                fail(fmt::format("unexpected '{}' (expected bandwidth=<Gbit/s> or count=<n>)",
                                 t[i]));
            }
        }
        wrap([&] { builder_.add_link(a, b, *lat, bw, static_cast<std::uint32_t>(count)); });
        link_lines_.push_back(line_); // the builder finds duplicates; this locates them
    }

    // Lookups by string_view without building a std::string each time.
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };

    struct Declared {
        Endpoint endpoint;
        std::size_t line;
    };
    const std::string& source_;
    const LoadOptions& options_;
    ClusterBuilder builder_;
    std::optional<std::string> name_;
    std::size_t line_ = 0;
    std::unordered_map<std::string, Declared, NameHash, std::equal_to<>> names_;
    std::unordered_map<std::string, TypeId> types_;
    std::vector<std::size_t> link_lines_; // line of each link, in declaration order
};

} // namespace

Cluster read_description(std::istream& in, const std::string& source_name,
                         const LoadOptions& options) {
    DescriptionReader reader(source_name, options);
    std::uint64_t total = 0, done = 0;
    if (in.seekg(0, std::ios::end)) {
        total = static_cast<std::uint64_t>(in.tellg());
        in.seekg(0);
    }
    in.clear();
    ProgressTicker tick(options.progress, "reading the description", total);
    std::string line;
    std::vector<std::string_view> tokens;
    for (std::size_t line_no = 1; std::getline(in, line); ++line_no) {
        tick(done += line.size() + 1);
        std::string_view content(line);
        if (line_no == 1 && content.starts_with("\xEF\xBB\xBF")) content.remove_prefix(3); // BOM
        content = content.substr(0, content.find('#'));
        tokens.clear();
        for_each_token(content, [&](std::string_view t) { tokens.push_back(t); });
        if (!tokens.empty()) reader.statement(line_no, tokens);
    }
    return reader.finish();
}

} // namespace nettopo
