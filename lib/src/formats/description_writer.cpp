// Writer of the text description (grammar in share/doc/description-format.md),
// the inverse of read_description: what it writes reads back to an equal cluster.
#include "nettopo/formats/description.hpp"
#include "nettopo/hwloc/hwloc_source.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"
#include "support/name_runs.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nettopo {

namespace {

// What ends a name token for the reader: blanks, line breaks and comments.
constexpr std::string_view not_in_tokens = " \t\r\n#";

bool is_token(std::string_view s) {
    return !s.empty() && s.find_first_of(not_in_tokens) == std::string_view::npos;
}

// Tokens joined by single spaces, as the reader rebuilds a synthetic
// description or a cluster name from its line.
bool reads_back_as_tokens(std::string_view s) {
    if (s.find_first_of("\n#") != std::string_view::npos) return false;
    std::string joined;
    for_each_token(s, [&](std::string_view t) {
        if (!joined.empty()) joined += ' ';
        joined += t;
    });
    return joined == s;
}

// The reader's test (description.cpp) for the first option token after a
// synthetic description: key=value with a plain key, unlike "l3:1(size=32MB)".
bool is_option(std::string_view token) {
    const auto eq = token.find('=');
    return eq != std::string_view::npos && eq < token.find_first_of(":(");
}

// Level names as synthetic descriptions write them: "pack", "numa", "l3", "core".
std::string level_name(ObjectType t) {
    if (t == ObjectType::Package) return "pack";
    if (t == ObjectType::NUMANode) return "numa";
    std::string s(to_string(t));
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return s;
}

// The shortest plain decimal (no exponent) that reads back as the same double.
void append_number(std::string& out, double v) {
    char buf[512]; // the longest fixed form of a double is about 330 characters
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    if (ec == std::errc()) {
        out.append(buf, end);
    } else {
        fmt::format_to(std::back_inserter(out), "{}", v); // not reached for finite doubles
    }
}

void append_uint(std::string& out, std::uint64_t v) {
    char buf[24];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, end);
}

[[noreturn]] void cannot_write(const std::string& what) {
    throw UsageError(fmt::format("cannot write a description: {}", what));
}

// Trees built from synthetic descriptions, once per description (each is a
// run of hwloc, in the caller's sandbox if it gave one); nullopt for a
// description hwloc refuses.
struct SyntheticTrees {
    const HwlocSandbox* sandbox = nullptr;
    std::unordered_map<std::string, std::optional<MachineTree>> built;
};

// "<synthetic description>[ node=<level>][ lat.<level>=<ns>]...": the part of
// a machine line after the name, checked to read back as the same type.
std::string type_text(const MachineType& type, std::string_view machine, SyntheticTrees& trees) {
    const std::string& desc = type.description();
    bool synthetic = !desc.empty() && reads_back_as_tokens(desc);
    for_each_token(desc, [&](std::string_view t) { synthetic = synthetic && !is_option(t); });
    if (synthetic) {
        auto it = trees.built.find(desc);
        if (it == trees.built.end()) {
            std::optional<MachineTree> tree;
            try {
                tree = tree_from_synthetic(desc, trees.sandbox);
            } catch (const InputError&) {
            }
            it = trees.built.emplace(desc, std::move(tree)).first;
        }
        synthetic = it->second && *it->second == type.tree();
    }
    if (!synthetic)
        cannot_write(fmt::format("machine '{}' has a type from '{}', which is not an hwloc "
                                 "synthetic description of its tree; the description format "
                                 "holds only synthetic machines (write an archive instead)",
                                 machine, desc));
    std::string text = desc;
    if (const auto& requested = type.requested_node_level().type) {
        const std::string name = level_name(*requested);
        if (node_level_from(name) != type.requested_node_level())
            cannot_write(fmt::format("machine '{}' has the node level {}, which the description "
                                     "format cannot express",
                                     machine, to_string(*requested)));
        fmt::format_to(std::back_inserter(text), " node={}", name);
    }
    const LevelLatencies defaults = LevelLatencies::defaults();
    for (std::size_t i = 0; i < object_type_count; ++i) {
        const auto level = static_cast<ObjectType>(i);
        const double ns = type.latencies()[level];
        if (ns == defaults[level]) continue;
        if (is_memory(level) || !std::isfinite(ns) || ns < 0)
            cannot_write(fmt::format("machine '{}' has the latency {} ns at the {} level, which "
                                     "the description format cannot express",
                                     machine, ns, to_string(level)));
        fmt::format_to(std::back_inserter(text), " lat.{}=", level_name(level));
        append_number(text, ns);
    }
    return text;
}

void check_names(const Cluster& c) {
    const std::string& name = c.name();
    if (!name.empty() && !reads_back_as_tokens(name))
        cannot_write(fmt::format("the cluster name '{}' would not read back the same (a name "
                                 "line keeps words separated by single spaces, and no '#')",
                                 name));
    auto check = [](std::string_view n, const char* what) {
        if (!is_token(n))
            cannot_write(fmt::format("the {} name '{}' is not a single token (no whitespace, no "
                                     "'#'); write an archive instead",
                                     what, n));
    };
    for (std::uint32_t m = 0; m < c.num_machines(); ++m)
        check(c.machine_name(MachineId(m)), "machine");
    for (std::uint32_t s = 0; s < c.num_switches(); ++s)
        check(c.switch_name(SwitchId(s)), "switch");
    for (const Link& l : c.network().links())
        if (l.multiplicity >= max_id_count)
            cannot_write(fmt::format("the link between '{}' and '{}' has {} cables, more than a "
                                     "description can give",
                                     c.vertex_name(l.a), c.vertex_name(l.b), l.multiplicity));
}

// Output gathered in a large buffer and written in chunks.
class Sink {
public:
    explicit Sink(std::ostream& out) : out_(out) { buf_.reserve(chunk + 4096); }
    std::string& buf() { return buf_; }
    void maybe_flush() {
        if (buf_.size() >= chunk) flush();
    }
    void flush() {
        out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
        buf_.clear();
    }

private:
    static constexpr std::size_t chunk = std::size_t{1} << 20;
    std::ostream& out_;
    std::string buf_;
};

} // namespace

void write_description(const Cluster& c, std::ostream& out, Progress* progress,
                       const HwlocSandbox* hwloc_sandbox) {
    // Everything that can fail is checked before the first byte is written.
    check_names(c);
    std::vector<std::optional<std::string>> types(c.num_types());
    SyntheticTrees trees{hwloc_sandbox, {}};
    for (const Cluster::Run& r : c.runs())
        if (!types[r.type.value])
            types[r.type.value] =
                type_text(c.type(r.type), c.machine_name(MachineId(r.first_machine)), trees);

    Sink sink(out);
    std::string& buf = sink.buf();
    auto text = std::back_inserter(buf);
    if (!c.name().empty()) fmt::format_to(text, "name {}\n", c.name());

    const auto name_of = [&](std::uint32_t i) { return c.machine_name(MachineId(i)); };
    const auto forwards = [&](std::uint32_t i) { return c.network().forwards(VertexId(i)); };
    const auto runs = detail::name_runs(name_of, c.num_machines(), [&](std::uint32_t i) {
        return c.type_of(MachineId(i)) == c.type_of(MachineId(i - 1)) &&
               forwards(i) == forwards(i - 1);
    });
    for (const detail::NameRun& r : runs) {
        std::string type = *types[c.type_of(MachineId(r.first_index)).value];
        if (!forwards(r.first_index)) type += " forwards=no";
        // The reader takes the first '[' and ']' of a range for its brackets.
        if (r.count > 1 && r.numbered && r.prefix.find_first_of("[]") == std::string::npos) {
            fmt::format_to(text, "machines {}[{:0{}}-{:0{}}] {}\n", r.prefix, r.first_number,
                           r.width, r.first_number + r.count - 1, r.width, type);
        } else {
            for (std::uint32_t i = r.first_index; i < r.first_index + r.count; ++i)
                fmt::format_to(text, "machine {} {}\n", name_of(i), type);
        }
        sink.maybe_flush();
    }

    for (std::uint32_t s = 0; s < c.num_switches(); ++s) {
        fmt::format_to(text, "switch {}\n", c.switch_name(SwitchId(s)));
        sink.maybe_flush();
    }

    ProgressTicker tick(progress, "writing the links", c.num_net_links());
    std::uint64_t written = 0;
    for (const Link& l : c.network().links()) {
        tick(++written);
        buf += "link ";
        buf += c.vertex_name(l.a);
        buf += ' ';
        buf += c.vertex_name(l.b);
        buf += ' ';
        append_number(buf, l.latency_ns);
        if (l.bandwidth_gbps > 0) {
            buf += " bandwidth=";
            append_number(buf, l.bandwidth_gbps);
        }
        if (l.multiplicity != 1) {
            buf += " count=";
            append_uint(buf, l.multiplicity);
        }
        buf += '\n';
        sink.maybe_flush();
    }
    sink.flush();
}

} // namespace nettopo
