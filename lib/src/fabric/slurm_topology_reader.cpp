// Slurm topology files: topology.conf and topology.yaml, as Fabrics.
//
// topology.conf (topology.conf(5), Slurm's parse_config.c and
// plugins/topology/tree/switch_record.c):
//   SwitchName=s0 Nodes=dev[0-5] [LinkSpeed=N]
//   SwitchName=s3 Switches=s[0-2]
//   BlockName=block1 Nodes=node[1-32]        (topology/block)
//   BlockSizes=30,120
// Keys are case-insensitive; "#" starts a comment unless escaped ("\#"); a
// line whose text ends with an odd number of backslashes continues on the
// next one (the backslash removed); "\x" stands for "x"; a value may be
// quoted ("..."). Errors point at the first line of a continued line.
// As Slurm does, we refuse: a switch defined twice, a switch with both Nodes=
// and Switches=, a child switch that is not defined or is the switch itself,
// switches forming a cycle, and keys we do not know. A node under several
// switches is kept with a link to each (Slurm warns "Multiple leaf switches
// contain nodes"); so is a switch listed by several parents. A switch with
// neither Nodes= nor Switches= is kept without links (recent Slurm accepts
// such an empty leaf switch). LinkSpeed is in arbitrary units and unused by
// Slurm (topology.conf(5)): it is ignored, links get bandwidth 0 (unknown).
//
// topology.yaml (topology.yaml(5), Slurm 23.11+): a list of topologies, each
// "topology: name", optional "cluster_default: true", and one of
//   tree:  {switches: [{switch: s, children: hostlist, nodes: hostlist}, ...]}
//   block: {block_sizes: [...], blocks: [{block: b, nodes: hostlist}, ...]}
//   flat:  true  (or a map of options)
// The first topology with cluster_default: true is read, else the first one.
// A tree is read as topology.conf's. Blocks have no switches in Slurm; we
// model each block as a switch named by the block with its nodes attached,
// and join every block switch to one top switch named "blocks" (the same for
// topology.conf's BlockName= lines). block_sizes is ignored. A flat topology
// lists no nodes: the Fabric holds one switch named "flat" and no hosts (the
// hosts come from elsewhere, e.g. the hwloc exports, when the cluster is put
// together).
#include "nettopo/fabric/fabric.hpp"
#include "nettopo/support/detail/name_rules.hpp"
#include "nettopo/support/detail/parse.hpp"
#include "nettopo/support/error.hpp"
#include "nettopo/support/hostlist.hpp"
#include "nettopo/support/limits.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fmt/format.h>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace nettopo {

namespace {

// ---------------------------------------------------------------------------
// Shared: the declarations of either file, and the Fabric built from them.

struct SwitchDecl {
    std::string name;
    std::size_t line = 0;
    std::optional<std::string> nodes, switches;
    std::size_t nodes_line = 0, switches_line = 0;
};

struct BlockDecl {
    std::string name;
    std::size_t line = 0;
    std::optional<std::string> nodes;
    std::size_t nodes_line = 0;
};

// How the keys are spelled in the file being read, for messages.
struct Spelling {
    const char* switch_name; // "SwitchName=" / "switch:"
    const char* nodes;       // "Nodes=" / "nodes:"
    const char* switches;    // "Switches=" / "children:"
};
constexpr Spelling conf_spelling{"SwitchName=", "Nodes=", "Switches="};
constexpr Spelling yaml_spelling{"switch: ", "nodes:", "children:"};

class FabricMaker {
public:
    // `max_names`: the names this file's hostlists may expand to, together
    // (Limits::max_vertices).
    explicit FabricMaker(const std::string& source, std::uint64_t max_names = default_max_vertices)
        : max_names_(max_names) {
        fabric_.source = source;
    }

    const std::string& source() const { return fabric_.source; }

    [[noreturn]] void fail(std::size_t line, const std::string& message) const {
        throw InputError(fabric_.source, line, message);
    }

    std::optional<std::uint32_t> find(const std::string& name) const {
        const auto it = index_.find(name);
        if (it == index_.end()) return std::nullopt;
        return it->second;
    }
    bool is_switch(std::uint32_t i) const { return fabric_.nodes[i].is_switch; }

    std::uint32_t add(const std::string& name, bool is_switch, std::size_t line) {
        try {
            check_name(is_switch ? "switch name" : "host name", name);
        } catch (const InputError& e) {
            fail(line, e.what());
        }
        const auto i = static_cast<std::uint32_t>(fabric_.nodes.size());
        FabricNode n;
        n.name = name;
        n.is_switch = is_switch;
        n.line = line;
        fabric_.nodes.push_back(std::move(n));
        index_.emplace(name, i);
        return i;
    }

    // Parent first. A pair given twice is kept once.
    void link(std::uint32_t parent, std::uint32_t child, std::size_t line) {
        const std::uint64_t key =
            (std::uint64_t{std::min(parent, child)} << 32) | std::max(parent, child);
        if (!links_.insert(key).second) return;
        FabricLink l;
        l.a = parent;
        l.b = child;
        l.line = line;
        fabric_.links.push_back(l);
    }

    // Counted before expanded, against the whole file's names. Finding S1
    // (issue 15): the 34-byte "SwitchName=s0 Nodes=n[0-16777215]".
    std::vector<std::string> expand(const std::string& expression, std::size_t line) {
        try {
            expanded_ = saturating_add(expanded_, count_hostlist(expression));
            require_within_limit(expanded_, max_names_, "names in this file's hostlists",
                                 Remedy::raise_vertex_limit);
            return expand_hostlist(expression);
        } catch (const InputError& e) {
            throw InputError(fabric_.source, line, e);
        }
    }

    // Hosts named by `expression` under switch `parent`.
    void attach_hosts(std::uint32_t parent, const std::string& expression, std::size_t line,
                      const char* key) {
        for (const std::string& host : expand(expression, line)) {
            std::uint32_t h = 0;
            if (const auto found = find(host)) {
                h = *found;
                if (is_switch(h))
                    fail(line, fmt::format("'{}' in {} of '{}' is a switch, not a node", host, key,
                                           fabric_.nodes[parent].name));
            } else {
                h = add(host, false, line);
            }
            link(parent, h, line);
        }
    }

    Fabric take() && { return std::move(fabric_); }

private:
    Fabric fabric_;
    std::uint64_t max_names_, expanded_ = 0;
    std::unordered_map<std::string, std::uint32_t> index_;
    std::unordered_set<std::uint64_t> links_;
};

Fabric build_tree(const std::string& source, const std::vector<SwitchDecl>& decls,
                  const Spelling& sp, std::uint64_t max_names) {
    FabricMaker m(source, max_names);
    if (decls.empty()) m.fail(0, "no switch defined");
    std::vector<std::uint32_t> id(decls.size());
    for (std::size_t i = 0; i < decls.size(); ++i) {
        const SwitchDecl& d = decls[i];
        if (const auto prior = m.find(d.name))
            m.fail(d.line, fmt::format("switch '{}' is defined twice (first at line {})", d.name,
                                       decls[*prior].line));
        if (d.nodes && d.switches)
            m.fail(d.line, fmt::format("switch '{}' has both {} and {} (Slurm refuses a switch "
                                       "with both child switches and nodes)",
                                       d.name, sp.nodes, sp.switches));
        id[i] = m.add(d.name, true, d.line);
    }
    // Child switches, by declaration index.
    std::vector<std::vector<std::uint32_t>> children(decls.size());
    for (std::size_t i = 0; i < decls.size(); ++i) {
        const SwitchDecl& d = decls[i];
        if (d.nodes) m.attach_hosts(id[i], *d.nodes, d.nodes_line, sp.nodes);
        if (!d.switches) continue;
        for (const std::string& child : m.expand(*d.switches, d.switches_line)) {
            const auto c = m.find(child);
            if (!c || !m.is_switch(*c))
                m.fail(d.switches_line,
                       fmt::format("switch '{}' lists '{}' in {} but no {}{} is defined", d.name,
                                   child, sp.switches, sp.switch_name, child));
            if (*c == id[i])
                m.fail(d.switches_line,
                       fmt::format("switch '{}' lists itself in {}", d.name, sp.switches));
            children[i].push_back(*c); // switches come first: node index = declaration index
            m.link(id[i], *c, d.switches_line);
        }
    }
    // Slurm needs a hierarchy ("Switch configuration is not a tree"): find a
    // cycle by depth-first search, iteratively (chains can be long).
    enum : std::uint8_t { White, Grey, Black };
    std::vector<std::uint8_t> colour(decls.size(), White);
    for (std::size_t root = 0; root < decls.size(); ++root) {
        if (colour[root] != White) continue;
        std::vector<std::pair<std::uint32_t, std::size_t>> stack{{std::uint32_t(root), 0}};
        colour[root] = Grey;
        while (!stack.empty()) {
            auto& [u, next] = stack.back();
            if (next == children[u].size()) {
                colour[u] = Black;
                stack.pop_back();
                continue;
            }
            const std::uint32_t v = children[u][next++];
            if (colour[v] == Grey)
                m.fail(decls[u].switches_line,
                       fmt::format("switches form a cycle: '{}' lists '{}', which is above it "
                                   "(Slurm needs a hierarchy)",
                                   decls[u].name, decls[v].name));
            if (colour[v] == White) {
                colour[v] = Grey;
                stack.emplace_back(v, 0);
            }
        }
    }
    return std::move(m).take();
}

constexpr std::string_view blocks_switch = "blocks";

Fabric build_blocks(const std::string& source, const std::vector<BlockDecl>& decls,
                    std::size_t top_line, const Spelling& sp, std::uint64_t max_names) {
    FabricMaker m(source, max_names);
    if (decls.empty()) m.fail(top_line, "no block defined");
    const std::uint32_t top = m.add(std::string(blocks_switch), true, top_line);
    std::vector<std::uint32_t> id(decls.size());
    for (std::size_t i = 0; i < decls.size(); ++i) {
        const BlockDecl& d = decls[i];
        if (d.name == blocks_switch)
            m.fail(d.line, fmt::format("a block may not be named '{}': nettopo names the switch "
                                       "joining the blocks so",
                                       blocks_switch));
        if (const auto prior = m.find(d.name))
            m.fail(d.line, fmt::format("block '{}' is defined twice (first at line {})", d.name,
                                       decls[*prior - 1].line));
        id[i] = m.add(d.name, true, d.line);
    }
    for (std::size_t i = 0; i < decls.size(); ++i) {
        const BlockDecl& d = decls[i];
        m.link(top, id[i], d.line);
        if (d.nodes) m.attach_hosts(id[i], *d.nodes, d.nodes_line, sp.nodes);
    }
    return std::move(m).take();
}

// ---------------------------------------------------------------------------
// topology.conf

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

struct LogicalLine {
    std::string text;
    std::size_t line = 0; // of its first physical line
};

// Physical lines -> logical lines, as Slurm's _get_next_line: comments cut
// at an unescaped '#', continuation on an odd number of trailing
// backslashes, then escapes removed.
std::vector<LogicalLine> logical_lines(std::string_view text) {
    std::vector<LogicalLine> out;
    std::string pending;
    std::size_t pending_line = 0;
    bool continuing = false;
    std::size_t number = 0;
    std::size_t pos = 0;
    auto finish = [&](std::string joined, std::size_t line) {
        std::string clean;
        clean.reserve(joined.size());
        for (std::size_t i = 0; i < joined.size(); ++i) {
            if (joined[i] == '\\') {
                if (++i == joined.size()) break;
            }
            clean += joined[i];
        }
        out.push_back({std::move(clean), line});
    };
    while (pos < text.size()) {
        const std::size_t nl = std::min(text.find('\n', pos), text.size());
        std::string line(text.substr(pos, nl - pos));
        pos = nl + 1;
        ++number;
        // Comment.
        std::size_t backslashes = 0;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line[i] == '#' && backslashes % 2 == 0) {
                line.resize(i);
                break;
            }
            backslashes = line[i] == '\\' ? backslashes + 1 : 0;
        }
        // Continuation.
        std::size_t end = line.size();
        while (end > 0 && is_space(line[end - 1])) --end;
        std::size_t bs = 0;
        while (end > bs && line[end - 1 - bs] == '\\') ++bs;
        if (!continuing) pending_line = number;
        if (bs % 2 == 1) {
            pending.append(line, 0, end - 1);
            continuing = true;
            continue;
        }
        pending += line;
        finish(std::move(pending), pending_line);
        pending.clear();
        continuing = false;
    }
    if (continuing) finish(std::move(pending), pending_line);
    return out;
}

struct KeyValue {
    std::string key, value;
};

// "Key=Value Key = "quoted value" ..." as Slurm's key-value regex reads it.
std::vector<KeyValue> key_values(const FabricMaker& m, const LogicalLine& l) {
    std::vector<KeyValue> out;
    const std::string& s = l.text;
    std::size_t i = 0;
    auto skip = [&] {
        while (i < s.size() && is_space(s[i])) ++i;
    };
    for (;;) {
        skip();
        if (i == s.size()) break;
        const std::size_t k = i;
        while (i < s.size() &&
               (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '.'))
            ++i;
        KeyValue kv;
        kv.key = s.substr(k, i - k);
        skip();
        if (kv.key.empty() || i == s.size() || s[i] != '=') {
            std::size_t e = k;
            while (e < s.size() && !is_space(s[e])) ++e;
            m.fail(l.line, fmt::format("expected Key=Value, found '{}'", s.substr(k, e - k)));
        }
        ++i;
        skip();
        if (i < s.size() && s[i] == '"') {
            const std::size_t close = s.find('"', i + 1);
            if (close == std::string::npos)
                m.fail(l.line, fmt::format("{}= has an unterminated quoted value", kv.key));
            kv.value = s.substr(i + 1, close - i - 1);
            i = close + 1;
        } else {
            const std::size_t v = i;
            while (i < s.size() && !is_space(s[i])) ++i;
            kv.value = s.substr(v, i - v);
        }
        if (kv.value.empty()) m.fail(l.line, fmt::format("{}= has no value", kv.key));
        out.push_back(std::move(kv));
    }
    return out;
}

Fabric read_conf(std::string_view text, const std::string& source, std::uint64_t max_names) {
    FabricMaker m(source);
    std::vector<SwitchDecl> switches;
    std::vector<BlockDecl> blocks;
    std::size_t first_tree_line = 0, first_block_line = 0;
    for (const LogicalLine& l : logical_lines(text)) {
        const std::vector<KeyValue> kvs = key_values(m, l);
        if (kvs.empty()) continue;
        const std::string& head = kvs[0].key;
        // The keys a line of this kind takes after its first one.
        std::vector<std::string_view> allowed;
        if (iequals(head, "SwitchName")) {
            allowed = {"Nodes", "Switches", "LinkSpeed"};
            if (first_tree_line == 0) first_tree_line = l.line;
        } else if (iequals(head, "BlockName") || iequals(head, "BlockSizes")) {
            if (iequals(head, "BlockName")) allowed = {"Nodes"};
            if (first_block_line == 0) first_block_line = l.line;
        } else {
            m.fail(l.line, fmt::format("unknown key '{}' (a line starts with SwitchName=, "
                                       "BlockName= or BlockSizes=)",
                                       head));
        }
        if (first_tree_line != 0 && first_block_line != 0)
            m.fail(l.line, "SwitchName= (topology/tree) and BlockName= or BlockSizes= "
                           "(topology/block) lines in one file");
        std::vector<std::optional<std::string>> values(allowed.size());
        for (std::size_t k = 1; k < kvs.size(); ++k) {
            const auto it = std::find_if(allowed.begin(), allowed.end(), [&](std::string_view a) {
                return iequals(a, kvs[k].key);
            });
            if (it == allowed.end())
                m.fail(l.line, fmt::format("unknown key '{}' on a {} line", kvs[k].key, head));
            auto& slot = values[static_cast<std::size_t>(it - allowed.begin())];
            if (slot) m.fail(l.line, fmt::format("{}= given twice", kvs[k].key));
            slot = kvs[k].value;
        }
        if (iequals(head, "SwitchName")) {
            SwitchDecl d;
            d.name = kvs[0].value;
            d.line = d.nodes_line = d.switches_line = l.line;
            d.nodes = values[0];
            d.switches = values[1];
            // values[2], LinkSpeed: arbitrary units, unused by Slurm; ignored.
            switches.push_back(std::move(d));
        } else if (iequals(head, "BlockName")) {
            BlockDecl d;
            d.name = kvs[0].value;
            d.line = d.nodes_line = l.line;
            d.nodes = values[0];
            blocks.push_back(std::move(d));
        } // BlockSizes: scheduling policy, not topology; ignored.
    }
    if (first_block_line != 0)
        return build_blocks(source, blocks, first_block_line, conf_spelling, max_names);
    if (switches.empty()) m.fail(0, "no SwitchName= line");
    return build_tree(source, switches, conf_spelling, max_names);
}

// ---------------------------------------------------------------------------
// topology.yaml

class YamlReader {
public:
    YamlReader(const std::string& source, std::uint64_t max_names)
        : source_(source), max_names_(max_names) {}

    static std::size_t line_of(const YAML::Node& n) {
        const YAML::Mark mark = n.Mark();
        return mark.is_null() ? 0 : static_cast<std::size_t>(mark.line) + 1;
    }

    [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const {
        throw InputError(source_, line_of(at), message);
    }
    [[noreturn]] void fail(std::size_t line, const std::string& message) const {
        throw InputError(source_, line, message);
    }

    std::string scalar(const YAML::Node& n, std::string_view what) const {
        if (!n.IsScalar()) fail(n, fmt::format("{} must be a single value", what));
        return n.Scalar();
    }

    // A switch's or block's name: one word, as a fabric's names are
    // (fabric.hpp); a topology.conf's are by construction, a YAML scalar
    // may hold blanks ("switch: 's 1'").
    std::string name(const YAML::Node& n, std::string_view what) const {
        std::string s = scalar(n, what);
        if (s.empty() || s.find_first_of(" \t\r\n\v\f") != std::string::npos)
            fail(n, fmt::format("{} name '{}' is not a single word", what, s));
        return s;
    }

    bool boolean(const YAML::Node& n, std::string_view what) const {
        bool b = false;
        if (!n.IsScalar() || !YAML::convert<bool>::decode(n, b))
            fail(n, fmt::format("{} must be true or false", what));
        return b;
    }

    // A hostlist: one expression, or (leniently) a list of them.
    std::string hostlist(const YAML::Node& n, std::string_view what) const {
        if (n.IsScalar()) return n.Scalar();
        if (n.IsSequence()) {
            std::string joined;
            for (const YAML::Node& item : n) {
                if (!joined.empty()) joined += ',';
                joined += scalar(item, what);
            }
            return joined;
        }
        fail(n, fmt::format("{} must be a hostlist", what));
    }

    // The entries of a map, refusing keys not in `allowed`.
    template <class F>
    void for_each_key(const YAML::Node& map, std::string_view what,
                      std::initializer_list<std::string_view> allowed, F&& f) const {
        if (!map.IsMap()) fail(map, fmt::format("{} must be a map", what));
        for (const auto& kv : map) {
            const std::string key = scalar(kv.first, "a key");
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                std::string list;
                for (std::string_view a : allowed) {
                    if (!list.empty()) list += ", ";
                    list += a;
                }
                fail(kv.first,
                     fmt::format("unknown key '{}' in {} (expected {})", key, what, list));
            }
            f(key, kv.first, kv.second);
        }
    }

    Fabric read(std::string_view text) {
        YAML::Node root;
        try {
            root = YAML::Load(std::string(text));
        } catch (const YAML::Exception& e) {
            fail(e.mark.is_null() ? 0 : static_cast<std::size_t>(e.mark.line) + 1, e.msg);
        }
        if (!root.IsSequence() || root.size() == 0)
            fail(root, "topology.yaml must be a list of topologies (- topology: name ...)");
        // Each entry's name and default flag; the chosen one is read fully.
        std::optional<std::size_t> chosen;
        for (std::size_t i = 0; i < root.size(); ++i) {
            const YAML::Node entry = root[i];
            if (!entry.IsMap() || !entry["topology"])
                fail(entry, "each topology needs 'topology: name'");
            scalar(entry["topology"], "topology");
            if (const YAML::Node d = entry["cluster_default"]; d && boolean(d, "cluster_default"))
                if (!chosen) chosen = i;
        }
        return read_topology(root[chosen.value_or(0)]);
    }

private:
    Fabric read_topology(const YAML::Node& entry) {
        std::optional<YAML::Node> type_key, type_value;
        std::string type;
        for_each_key(entry, "a topology",
                     {"topology", "cluster_default", "tree", "block", "flat", "ring", "torus3d"},
                     [&](const std::string& key, const YAML::Node& k, const YAML::Node& v) {
                         if (key == "topology" || key == "cluster_default") return;
                         if (type_key)
                             fail(k, fmt::format("topology '{}' has both {} and {} (one type each)",
                                                 entry["topology"].Scalar(), type, key));
                         type = key;
                         type_key = k;
                         type_value = v;
                     });
        const std::string name = entry["topology"].Scalar();
        if (!type_key) fail(entry, fmt::format("topology '{}' has no tree, block or flat", name));
        if (type == "tree") return read_tree(*type_value);
        if (type == "block") return read_block(*type_key, *type_value);
        if (type == "flat") {
            if (!type_value->IsMap() && !boolean(*type_value, "flat"))
                fail(*type_key, fmt::format("topology '{}' is 'flat: false': no type", name));
            FabricMaker m(source_);
            m.add("flat", true, line_of(*type_key));
            return std::move(m).take();
        }
        fail(*type_key, fmt::format("topology '{}' is a {} topology, which nettopo does not read "
                                    "(it reads tree, block and flat)",
                                    name, type));
    }

    Fabric read_tree(const YAML::Node& tree) {
        std::vector<SwitchDecl> decls;
        std::optional<YAML::Node> list;
        for_each_key(tree, "tree", {"switches"},
                     [&](const std::string&, const YAML::Node&, const YAML::Node& v) { list = v; });
        if (!list) fail(tree, "tree has no 'switches:' list");
        if (!list->IsSequence()) fail(*list, "switches must be a list");
        for (const YAML::Node& item : *list) {
            SwitchDecl d;
            d.line = line_of(item);
            bool named = false;
            for_each_key(item, "a switch", {"switch", "children", "nodes"},
                         [&](const std::string& key, const YAML::Node&, const YAML::Node& v) {
                             if (key == "switch") {
                                 d.name = name(v, "switch");
                                 named = true;
                             } else if (key == "children") {
                                 d.switches = hostlist(v, "children");
                                 d.switches_line = line_of(v);
                             } else {
                                 d.nodes = hostlist(v, "nodes");
                                 d.nodes_line = line_of(v);
                             }
                         });
            if (!named) fail(item, "a switch needs 'switch: name'");
            decls.push_back(std::move(d));
        }
        return build_tree(source_, decls, yaml_spelling, max_names_);
    }

    Fabric read_block(const YAML::Node& key, const YAML::Node& block) {
        std::vector<BlockDecl> decls;
        std::optional<YAML::Node> list;
        for_each_key(block, "block", {"block_sizes", "blocks"},
                     [&](const std::string& k, const YAML::Node&, const YAML::Node& v) {
                         if (k == "blocks") list = v; // block_sizes: policy, ignored
                     });
        if (!list) fail(block, "block has no 'blocks:' list");
        if (!list->IsSequence()) fail(*list, "blocks must be a list");
        for (const YAML::Node& item : *list) {
            BlockDecl d;
            d.line = line_of(item);
            bool named = false;
            for_each_key(item, "a block", {"block", "nodes"},
                         [&](const std::string& k, const YAML::Node&, const YAML::Node& v) {
                             if (k == "block") {
                                 d.name = name(v, "block");
                                 named = true;
                             } else {
                                 d.nodes = hostlist(v, "nodes");
                                 d.nodes_line = line_of(v);
                             }
                         });
            if (!named) fail(item, "a block needs 'block: name'");
            decls.push_back(std::move(d));
        }
        return build_blocks(source_, decls, line_of(key), yaml_spelling, max_names_);
    }

    std::string source_;
    std::uint64_t max_names_;
};

// ---------------------------------------------------------------------------
// Which of the two: the first line that is neither blank nor a comment.

enum class Kind { Conf, Yaml };

Kind recognise(std::string_view text, const std::string& source) {
    std::size_t pos = 0, number = 0;
    while (pos < text.size()) {
        const std::size_t nl = std::min(text.find('\n', pos), text.size());
        std::string_view line = text.substr(pos, nl - pos);
        pos = nl + 1;
        ++number;
        std::size_t i = 0;
        while (i < line.size() && is_space(line[i])) ++i;
        line.remove_prefix(i);
        if (line.empty() || line[0] == '#') continue;
        if (line[0] == '-' || line.starts_with("topology:") || line[0] == '%') return Kind::Yaml;
        std::size_t k = 0;
        while (k < line.size() && std::isalpha(static_cast<unsigned char>(line[k]))) ++k;
        std::size_t e = k;
        while (e < line.size() && is_space(line[e])) ++e;
        const std::string_view key = line.substr(0, k);
        if (e < line.size() && line[e] == '=' &&
            (iequals(key, "SwitchName") || iequals(key, "BlockName") || iequals(key, "BlockSizes")))
            return Kind::Conf;
        throw InputError(source, number,
                         "neither a topology.conf (SwitchName=... or BlockName=... lines) nor a "
                         "topology.yaml (a list of '- topology: name' entries)");
    }
    throw InputError(source, 0, "empty Slurm topology: no SwitchName= line and no topology");
}

} // namespace

Fabric read_slurm_topology(std::istream& in, const std::string& source, const Limits& limits) {
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) throw InputError(source, 0, "read error");
    if (recognise(text, source) == Kind::Yaml)
        return YamlReader(source, limits.max_vertices).read(text);
    return read_conf(text, source, limits.max_vertices);
}

} // namespace nettopo
